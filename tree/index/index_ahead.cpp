#include "tree/index/index_ahead.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "cache/lru_cache.h"
#include "tree/node/node.h"

namespace gcfs::tree {

void size_every_file(const Tree& tree, uint64_t folder) {
    const cache::SizingLoads sizing;
    std::vector<uint64_t> folders = {folder};
    while (!folders.empty()) {
        const uint64_t dir = folders.back();
        folders.pop_back();
        tree.for_each_child(dir, 0, [&](const std::string&, uint64_t ino, NodeType type) {
            if (type == NodeType::directory) folders.push_back(ino);
            if (type == NodeType::file) (void)tree.node(ino)->source->size();
            return true;
        });
    }
}

IndexAhead::IndexAhead(std::vector<uint64_t> folders, SizeFolder size_folder, bool size_listed)
    : folders_(std::move(folders)), size_folder_(std::move(size_folder)), size_listed_(size_listed), claimed_(folders_.size(), false) {}

IndexAhead::~IndexAhead() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (auto& helper : helpers_) helper.join();
}

bool IndexAhead::is_helper() const {
    return std::any_of(helpers_.begin(), helpers_.end(), [](const std::thread& t) { return t.get_id() == std::this_thread::get_id(); });
}

void IndexAhead::listed(uint64_t folder) {
    const auto at = std::find(folders_.begin(), folders_.end(), folder);
    if (at == folders_.end()) return;
    const auto listed_at = static_cast<size_t>(at - folders_.begin());
    {
        std::lock_guard lock(mutex_);
        if (stop_ || is_helper()) return;
        // A folder no helper took is being sized by the listing itself: one
        // helper beside it, so that no more than two levels are sized at
        // once (each holds its windows, 4-5 MiB at full scale).
        const bool own = !claimed_[listed_at];
        const size_t ahead = own ? kHelpers - 1 : kHelpers;
        bool added = false;
        for (size_t n = listed_at + 1; n <= listed_at + ahead && n < folders_.size(); ++n) {
            if (claimed_[n]) continue;
            claimed_[n] = true;
            pending_.push_back(n);
            added = true;
        }
        if (own && size_listed_) {
            claimed_[listed_at] = true;
            pending_.push_back(listed_at);
            added = true;
        }
        if (!added) return;
        while (helpers_.size() < kHelpers) helpers_.emplace_back([this] { run(); });
    }
    wake_.notify_all();
}

void IndexAhead::run() {
    std::unique_lock lock(mutex_);
    while (true) {
        wake_.wait(lock, [&] { return stop_ || !pending_.empty(); });
        if (stop_) break;
        const uint64_t folder = folders_[pending_.front()];
        pending_.pop_front();
        ++busy_;
        lock.unlock();
        try {
            size_folder_(folder);
        } catch (const std::exception& e) {
            // A stat of the same file meets the same failure and reports it.
            spdlog::debug("sizing folder {} ahead stopped: {}", folder, e.what());
        }
        lock.lock();
        --busy_;
        sized_.push_back(folder);
        idle_.notify_all();
    }
}

void IndexAhead::wait_idle() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return stop_ || (busy_ == 0 && pending_.empty()); });
}

std::vector<uint64_t> IndexAhead::sized() const {
    std::lock_guard lock(mutex_);
    return sized_;
}

}  // namespace gcfs::tree
