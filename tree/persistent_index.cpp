#include "tree/persistent_index.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "tree/remembered.h"
#include "tree/tree_builder.h"

namespace gcfs::tree {

void use_persistent_index(Disc& disc, const std::string& dir) {
    const std::string where = dir.empty() ? cache::IndexStore::default_dir() : dir;
    if (where.empty()) {
        spdlog::warn("persistent index: neither XDG_CACHE_HOME nor HOME is set; mounting without it");
        return;
    }
    if (auto store = cache::IndexStore::open(where, disc.identity())) disc.index = std::make_shared<PersistentIndex>(std::move(store));
}

std::shared_ptr<const SubtreeMemo> PersistentIndex::memo(const LevelScan& level) {
    auto blob = store_->record(level.folder, level.digest.text());
    if (!blob) return nullptr;
    auto record = formats::saved_index::decode_record(*blob);
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
    std::lock_guard lock(mutex_);
    return fmt::format("persistent index: {}\n  level folders listed from it: {}\n  level folders saved to it: {}\n"
                       "  records refused (damaged): {}\n  working: {}\n",
                       store_->path(), remembered_.size(), saved_.size(), refused_.load(), store_->failed() ? "no" : "yes");
}

}  // namespace gcfs::tree
