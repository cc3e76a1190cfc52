#include "tree/restart_points.h"

#include "cache/blob.h"
#include "tree/sources.h"

namespace gcfs::tree {

using formats::wad_lz::kRestartHistory;
using formats::wad_lz::kWindowLead;

RestartPoints::RestartPoints(cache::LruCache& cache, std::shared_ptr<cache::IndexStore> store, std::string folder, std::string headers)
    : cache_(cache), store_(std::move(store)), folder_(std::move(folder)), headers_(std::move(headers)) {}

void RestartPoints::load_saved() const {
    std::call_once(saved_read_, [&] {
        if (!store_) return;
        const auto cursors = store_->cursors(folder_, headers_);
        std::lock_guard lock(mutex_);
        for (const auto& c : cursors) points_.try_emplace(c.pos, Known{c.p, new_cache_key()});
    });
}

std::optional<RestartPoints::Start> RestartPoints::before(uint64_t from) const {
    if (from < kWindowLead + kRestartHistory) return std::nullopt;
    load_saved();
    uint64_t below = from - kWindowLead + 1;  // candidates lie below this
    while (true) {
        uint64_t pos;
        Known known;
        {
            std::lock_guard lock(mutex_);
            auto it = points_.lower_bound(below);
            if (it == points_.begin()) return std::nullopt;
            --it;
            pos = it->first;
            known = it->second;
        }
        cache::Buffer history = cache_.find(known.key);
        if (!history && store_) {
            if (auto saved = store_->history(folder_, headers_, pos); saved && saved->size() == kRestartHistory) {
                history = cache::Blob::copy_of(*saved);
                cache_.put(known.key, history);
            }
        }
        if (history && history->size() == kRestartHistory)
            return Start{{known.p, pos, history->bytes()}, history};
        // Evicted and not saved: this point is gone; try an earlier one.
        {
            std::lock_guard lock(mutex_);
            points_.erase(pos);
        }
        below = pos;
    }
}

void RestartPoints::offer(const formats::wad_lz::RestartPoint& point) {
    if (point.history.size() != kRestartHistory) return;
    load_saved();
    uint64_t key;
    {
        std::lock_guard lock(mutex_);
        const uint64_t stretch = point.pos / kSpacing * kSpacing;
        const auto next = points_.lower_bound(stretch);
        if (next != points_.end() && next->first < stretch + kSpacing) return;
        key = new_cache_key();
        points_.emplace(point.pos, Known{point.p, key});
    }
    cache_.put(key, cache::Blob::copy_of(point.history));
    if (store_) store_->save_point(folder_, headers_, {point.p, point.pos}, point.history);
}

uint64_t RestartPoints::known() const {
    load_saved();
    std::lock_guard lock(mutex_);
    return points_.size();
}

}  // namespace gcfs::tree
