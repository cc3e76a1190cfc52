// The edits directory (-o edits=DIR): what a modder wrote, kept as plain
// files at their mount paths under DIR/files/, and a journal (DIR/journal.json)
// that says which image it belongs to and the state of every edit. Both are
// untrusted input: every path is held to the mount's name rules, every stored
// file to the size and CRC-32 the journal gives it.
//
// Crash safety: a new content is written to files/<path>.gcfs-new and synced;
// the journal is then replaced by rename (the commit point); the new file is
// renamed over the old one last. Opening the directory finishes or drops a
// commit a crash cut short, so every file is its old or its new content.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::edit {

// A directory gcfs cannot use as it is (another image's, a damaged journal).
class EditStoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ChangedContainer {
    std::string path;  // the ISO9660 file ("LEVELS/LEVEL00.WAD")
    uint64_t bytes = 0;  // its size after the edit
};

struct EditRecord {
    std::string path;           // mount path, "LEVEL00/textures/tfrag_000.png"
    bool applied = false;       // else refused: the mount serves what it had before
    std::string status;         // applied: how it was encoded; refused: why
    uint64_t sequence = 0;      // edits apply in this order
    uint64_t size = 0;          // of the stored file (applied only)
    uint32_t crc = 0;
    std::vector<ChangedContainer> containers;
    std::string last_refusal;   // an applied edit's later write that was refused, and why
};

// Whether `path` may name a mount file in DIR: relative, '/'-separated steps
// that are each a name the mount could show (tree::safe_name leaves it as it is).
bool valid_mount_path(const std::string& path);

class EditStore {
public:
    // Opens DIR, creating it and an empty journal for `image_key` when it has
    // none. Throws EditStoreError when the journal names another image or
    // cannot be read; a stored file that disagrees with the journal turns its
    // edit into a refused one, with the reason.
    EditStore(std::string dir, std::string image_key);
    // Reads DIR without changing anything (gcfs edits DIR); no key check.
    static EditStore inspect(const std::string& dir);

    const std::string& dir() const { return dir_; }
    const std::string& image_key() const { return image_key_; }
    // Every edit, in sequence order.
    const std::vector<EditRecord>& records() const { return records_; }
    const EditRecord* find(const std::string& path) const;
    uint64_t next_sequence() const { return next_sequence_; }

    // The stored content of an applied edit, checked against the journal.
    formats::Bytes stored(const EditRecord& record) const;

    // Records `record` (replacing the path's earlier one), with `content`
    // stored for an applied edit. Crash-safe as the file comment says.
    void commit(EditRecord record, const formats::Bytes* content);
    // Drops the path's edit (the mount then shows the disc's content).
    void forget(const std::string& path);
    // An applied edit that no longer encodes becomes a refused one; its
    // stored file stays for the modder to look at.
    void demote(const std::string& path, const std::string& reason);

    // A file of the drafts folder for an open writer: DIR/drafts/<n>.
    std::string new_draft_path();

    // The journal as text (what .gcfs/edits and gcfs edits show).
    std::string render() const;

private:
    EditStore() = default;
    void load(bool for_image);
    void write_journal() const;
    void recover();

    std::string dir_;
    std::string image_key_;
    std::vector<EditRecord> records_;
    uint64_t next_sequence_ = 1;
    uint64_t next_draft_ = 1;
};

}  // namespace gcfs::edit
