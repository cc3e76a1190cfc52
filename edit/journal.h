// The edits folder's journal (DIR/journal.json) as text: which image the
// folder belongs to and every edit's state. Pure: parse and write, no I/O.
// The text is untrusted input (a mod folder travels): every count is bounded
// before it is used, every path held to the mount's name rules, every
// sequence number below 2^63 so that the next one never wraps.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "edit/safe_folder.h"

namespace gcfs::edit {

struct ChangedContainer {
    std::string path;    // the ISO9660 file ("LEVELS/LEVEL00.WAD")
    uint64_t bytes = 0;  // its size after the edit
};

enum class EditState {
    applied,  // the mount serves it
    refused,  // the mount serves what it had before
    kept,     // a file made under a name no edit can have: kept in DIR/drafts, not on the disc
    // A save read as edits of other files (level.glb: gameplay/*.csv, which
    // hold those edits); nothing of it is stored, and it is not replayed.
    translated,
};

struct EditRecord {
    std::string path;  // mount path, "LEVEL00/textures/tfrag_000.png"
    EditState state = EditState::refused;
    std::string status;     // applied: how it was encoded; refused or kept: why
    uint64_t sequence = 0;  // edits apply in this order; events are listed in it
    int64_t time = 0;       // when it happened, seconds since 1970 (the file's mtime)
    uint64_t size = 0;      // of the stored file (applied and kept)
    uint32_t crc = 0;
    std::vector<ChangedContainer> containers;
    // An applied edit's later write that was refused: why, when, its place in the events.
    std::string last_refusal;
    uint64_t refusal_sequence = 0;
    int64_t refusal_time = 0;
    bool applied() const { return state == EditState::applied; }
};

struct Journal {
    std::string image_key;
    // The image's ISO9660 volume identifier, for people (gcfs edits names
    // the disc a folder needs); "" in a journal made before gcfs wrote it.
    std::string volume_id;
    uint64_t next_sequence = 1;
    std::vector<EditRecord> records;  // in sequence order
};

constexpr size_t kMaxJournalRecords = 100000;     // a journal past this is not one gcfs wrote
constexpr uint64_t kMaxJournalBytes = 64 << 20;
constexpr uint64_t kMaxStoredBytes = 1ull << 31;  // no editable file decodes from more (a 2 GiB WAD-LZ stream)
constexpr uint64_t kMaxSequence = 1ull << 62;     // far past any folder's life; the next never wraps
constexpr const char* kStagedSuffix = ".gcfs-new";  // a stored file being replaced (edit_store.h): never a mount path

// Whether `path` may name a mount file in DIR: relative, '/'-separated steps
// that are each a name the mount could show (tree::safe_name leaves it as it is).
bool valid_mount_path(const std::string& path);

// Parses a journal; throws EditStoreError naming what is wrong.
Journal parse_journal(std::string_view text, const std::string& where);
std::string write_journal_text(const Journal& journal);

// The journal as the user reads it (.gcfs/edits, gcfs edits): one line per
// event, oldest first, so the newest is last; control characters escaped.
std::string render_journal(const Journal& journal, const std::string& folder);

}  // namespace gcfs::edit
