// The persistent index as the tree uses it (cache/index_store.h holds the
// file): a level folder whose record was saved for the same headers is built
// from it (tree/index/remembered.h), so a second mount lists it without decoding;
// a level folder sized in full (tree/index/index_ahead.h) has its record saved;
// each level's core stream keeps its restart points there
// (tree/index/restart_points.h).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "cache/index_store.h"
#include "tree/disc_scan.h"
#include "tree/node/node.h"

namespace gcfs::tree {

struct Disc;

// Opens the persistent index in `dir` (empty: cache::IndexStore::default_dir())
// for `disc`'s image and sets disc.index; without one (no folder, an
// unusable file) the disc is served as before, after one log line.
void use_persistent_index(Disc& disc, const std::string& dir);

class PersistentIndex {
public:
    // The file is opened by the first call: a level folder's first lookup, or
    // the mount's own thread once it answers (fs/mount.cpp). Mounting and
    // listing the root wait on nothing of it.
    using Open = std::function<std::shared_ptr<cache::IndexStore>()>;
    explicit PersistentIndex(Open open) : open_(std::move(open)) {}

    // Opened on the first call; null when it cannot be (logged once).
    std::shared_ptr<cache::IndexStore> store() const;
    // Opens the file and reads every level folder's record at once (the
    // mount's own thread, once it answers): a first lookup in a level folder
    // then finds its record in memory, not behind the file's cold pages.
    void read_ahead();
    // The memo for `level`'s folder, when a record saved for its headers
    // reads back whole; null otherwise (a damaged record is logged once).
    std::shared_ptr<const SubtreeMemo> memo(const LevelScan& level);
    // Saves the record of `folder` (`level`'s, every file sized), unless it
    // was built from one.
    void save(const Tree& tree, uint64_t folder, const LevelScan& level);
    // For .gcfs/stats.
    std::string render() const;

private:
    const Open open_;
    mutable std::once_flag opened_;
    mutable std::shared_ptr<cache::IndexStore> store_;
    mutable std::mutex mutex_;
    std::set<std::string> remembered_, saved_;  // level folders built from a record, saved
    std::map<std::string, cache::IndexStore::SavedRecord> read_ahead_;  // records not yet used, by folder
    std::set<std::string> looked_up_;  // level folders whose record was asked for
    std::atomic<uint64_t> refused_{0};           // records that did not read back
};

}  // namespace gcfs::tree
