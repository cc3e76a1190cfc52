#include "tree/index/persistent_index.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "formats/wad_lz/wad_lz.h"
#include "tree/index/remembered.h"
#include "tree/tree_builder.h"

namespace gcfs::tree {

void use_persistent_index(Disc& disc, const std::string& dir) {
    const std::string where = dir.empty() ? cache::IndexStore::default_dir() : dir;
    if (where.empty()) {
        spdlog::warn("persistent index: neither XDG_CACHE_HOME nor HOME is set; mounting without it");
        return;
    }
    disc.index = std::make_shared<PersistentIndex>([where, identity = disc.identity()]() -> std::shared_ptr<cache::IndexStore> {
        return cache::IndexStore::open(where, identity);
    });
}

std::shared_ptr<cache::IndexStore> PersistentIndex::store() const {
    std::call_once(opened_, [&] { store_ = open_(); });
    return store_;
}

namespace {

// The largest file a level folder can show: its container decoded at WAD
// LZ's largest ratio, then rendered (text, glTF, WAV) at most 64 times
// larger than what it is made from; never past INT64_MAX (stat's off_t).
// A saved size past it is damage, not a file.
uint64_t largest_file(const LevelScan& level) {
    constexpr uint64_t kRenderGrowth = 64;
    constexpr uint64_t kLimit = static_cast<uint64_t>(INT64_MAX);
    const uint64_t per_byte = formats::wad_lz::kMaxExpansion * kRenderGrowth;
    return level.file_size > kLimit / per_byte ? kLimit : level.file_size * per_byte;
}

}  // namespace

void PersistentIndex::read_ahead() {
    if (!store()) return;
    auto records = store_->records();
    std::lock_guard lock(mutex_);
    // A folder already looked up (built from its record or not) has no use for it.
    for (auto& [folder, saved] : records)
        if (!looked_up_.contains(folder)) read_ahead_.emplace(folder, std::move(saved));
}

std::shared_ptr<const SubtreeMemo> PersistentIndex::memo(const LevelScan& level) {
    if (!store()) return nullptr;
    const std::string headers = level.digest.text();
    std::optional<formats::Bytes> blob;
    bool read = false;
    {
        std::lock_guard lock(mutex_);
        looked_up_.insert(level.folder);
        if (auto it = read_ahead_.find(level.folder); it != read_ahead_.end()) {
            read = true;
            if (it->second.headers == headers) blob = std::move(it->second.record);
            read_ahead_.erase(it);
        }
    }
    // Not read ahead (the lookup came first, or the record was saved since): asked for.
    // One read ahead for other headers is the folder's only record: nothing to ask.
    if (!read) blob = store_->record(level.folder, headers);
    if (!blob) return nullptr;
    auto record = formats::saved_index::decode_record(*blob, largest_file(level));
    if (!record.ok()) {
        ++refused_;
        spdlog::warn("persistent index {}: {}'s record {}; decoding the folder instead", store_->path(), level.folder,
                     record.error().describe());
        return nullptr;
    }
    {
        std::lock_guard lock(mutex_);
        remembered_.insert(level.folder);
    }
    return std::make_shared<LevelMemo>(level.folder, std::move(*record));
}

void PersistentIndex::save(const Tree& tree, uint64_t folder, const LevelScan& level) {
    if (!store() || store_->read_only()) return;
    {
        std::lock_guard lock(mutex_);
        if (remembered_.contains(level.folder) || saved_.contains(level.folder)) return;
    }
    const auto blob = formats::saved_index::encode_record(record_folder(tree, folder));
    store_->save_record(level.folder, level.digest.text(), blob);
    if (store_->failed()) return;
    std::lock_guard lock(mutex_);
    saved_.insert(level.folder);
}

std::string PersistentIndex::render() const {
    const auto file = store();
    if (!file) return "persistent index: could not be opened (see the log)\n";
    std::lock_guard lock(mutex_);
    return fmt::format("persistent index: {}\n  level folders listed from it: {}\n  level folders saved to it: {}\n"
                       "  records refused (damaged, or without this machine's mark): {}\n  working: {}\n",
                       file->path(), remembered_.size(), saved_.size(), refused_.load() + file->unmarked_records(),
                       file->failed() ? "no" : file->read_only() ? "read only (it cannot be written)" : "yes");
}

}  // namespace gcfs::tree
