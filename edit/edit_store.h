// The edits directory (-o edits=DIR): what a modder wrote, kept as plain
// files at their mount paths under DIR/files/, and a journal (DIR/journal.json,
// edit/journal.h) that says which image it belongs to and the state of every
// edit. Both are untrusted input: every path is held to the mount's name
// rules and walked without following links (edit/safe_folder.h), every
// stored file to the size and CRC-32 the journal gives it.
//
// One user at a time: a mount or `gcfs pack` holds DIR/lock (flock) for its
// life; a second is refused naming the holder's pid.
//
// Crash safety: a new content is written to files/<path>.gcfs-new and synced;
// the journal is then replaced by rename (the commit point); the new file is
// renamed over the old one last. Opening the directory finishes or drops a
// commit a crash cut short, so every file is its old or its new content.
//
// Writers' drafts live in DIR/open/ (emptied at each mount: never applied);
// a file made under a name no edit can have is kept in DIR/drafts/<path>.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "edit/journal.h"
#include "edit/safe_folder.h"
#include "formats/common/bytes.h"

namespace gcfs::edit {

// An edit made after another that is saved again or taken back: applied
// after it again, with `content` stored instead when set (its numbers of
// the other file's rows followed, formats/gameplay/rebase.h follow_rows).
struct Follower {
    std::string path;
    std::optional<formats::Bytes> content;
};

class EditStore {
public:
    // Opens DIR (an absolute path), creating it and an empty journal for
    // `image_key` when it has none, and takes its lock. Throws
    // EditStoreError when another process holds it, the journal names
    // another image or cannot be read; a stored file that disagrees with the
    // journal turns its edit into a refused one, with the reason.
    EditStore(const std::string& dir, std::string image_key, std::string volume_id = {});
    // Reads DIR without changing anything (gcfs edits DIR); no key check, no lock.
    static EditStore inspect(const std::string& dir);
    EditStore(EditStore&&) = default;

    const std::string& dir() const { return folder_.root(); }
    const SafeFolder& folder() const { return folder_; }
    const std::string& image_key() const { return journal_.image_key; }
    // Every edit, in sequence order.
    const std::vector<EditRecord>& records() const { return journal_.records; }
    const EditRecord* find(const std::string& path) const;

    // The stored content of an applied or kept edit, checked against the journal.
    formats::Bytes stored(const EditRecord& record) const;
    // Where a record's content lies under DIR.
    static std::string stored_path(const EditRecord& record);

    // Records `record` (replacing the path's earlier one), with `content`
    // stored for an applied edit; its sequence and time are set here. The
    // edits of `then` are moved after it in the same journal write, in their
    // order, their state as it was and their content as it was or as given:
    // they were made after the path's earlier edit and are applied after it
    // again. Crash-safe as the file comment says.
    void commit(EditRecord record, const formats::Bytes* content, const std::vector<Follower>& then = {});
    // One save that edits several files (a level.glb save: gameplay/*.csv):
    // the commits made between begin_batch() and finish_batch() take effect
    // in one journal write, so a crash leaves all or none of them; stored()
    // gives their contents meanwhile. abort_batch() forgets them.
    void begin_batch();
    void finish_batch();
    void abort_batch() noexcept;
    // A writer's draft at `draft` (under DIR) kept as a new name's file: moved
    // to DIR/drafts/<path> and listed.
    void keep(const std::string& path, const std::string& draft, const std::string& why);
    // Drops the path's edit (the mount then shows the disc's content).
    // `followers` given a content store it in the same journal write.
    void forget(const std::string& path, const std::vector<Follower>& followers = {});
    // An applied edit that no longer encodes becomes a refused one; its
    // stored file stays for the modder to look at.
    void demote(const std::string& path, const std::string& reason);

    // A new file name for an open writer's draft, relative to DIR.
    std::string new_draft_path();
    // The lock file names this process (after the daemon forked).
    void claim_lock() const;

    // The journal as text (what .gcfs/edits and gcfs edits show).
    std::string render() const;

private:
    explicit EditStore(SafeFolder folder) : folder_(std::move(folder)) {}
    void lock();
    void load(bool for_image);
    void write_journal() const;
    void recover();
    // A follower's new content staged and its record told its size and CRC
    // (before the journal write); renamed into place after it.
    void stage(const std::vector<Follower>& followers);
    void settle(const std::vector<Follower>& followers);

    struct Batch {
        Journal before;
        std::map<std::string, formats::Bytes> staged;  // stored path -> its content, at stored path + kStagedSuffix
    };

    SafeFolder folder_;
    std::optional<Batch> batch_;
    UniqueFd lock_;
    Journal journal_;
    uint64_t next_draft_ = 1;
};

}  // namespace gcfs::edit
