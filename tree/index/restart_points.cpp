#include "tree/index/restart_points.h"

#include <spdlog/spdlog.h>

#include "cache/blob.h"
#include "tree/node/sources.h"

namespace gcfs::tree {

using formats::wad_lz::kRestartHistory;
using formats::wad_lz::kWindowLead;

RestartPoints::RestartPoints(cache::LruCache& cache, std::shared_ptr<cache::IndexStore> store, std::string folder, std::string headers,
                             uint64_t available, uint64_t decoded)
    : cache_(cache), store_(std::move(store)), folder_(std::move(folder)), headers_(std::move(headers)), available_(available), decoded_(decoded) {}

void RestartPoints::load_saved() const {
    std::call_once(saved_read_, [&] {
        if (!store_) return;
        const auto saved = store_->points(folder_, headers_);
        std::lock_guard lock(mutex_);
        // Positions a point of this stream can have; the rest are not believed.
        for (uint64_t pos : saved)
            if (pos >= kRestartHistory && pos < decoded_) points_.try_emplace(pos, Known{new_cache_key()});
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
        cache::Buffer history = known.read ? cache_.find(known.key) : nullptr;
        if (!history && store_) {
            // Every field inside the CRC-32, and each bounded by the stream before use.
            const auto saved = store_->point(folder_, headers_, pos);
            const bool fits = saved && saved->history.size() == kRestartHistory && saved->p >= formats::wad_lz::kHeaderSize && saved->p < available_;
            if (saved && !fits) {
                spdlog::warn("{} restart point at decoded byte {}: its cursor {} or its {}-byte history does not fit a {}-byte stream; dropped",
                             folder_, pos, saved->p, saved->history.size(), available_);
                store_->drop_point(folder_, headers_, pos);
            }
            if (fits) {
                history = cache::Blob::copy_of(saved->history);
                cache_.put(known.key, history);
                known = {known.key, saved->p, saved->check, true};
                std::lock_guard lock(mutex_);
                if (auto it = points_.find(pos); it != points_.end()) it->second = known;
            }
        }
        if (history && history->size() == kRestartHistory && known.read)
            return Start{{known.p, pos, history->bytes(), known.check}, history};
        // Evicted and not saved: this point is gone; try an earlier one.
        {
            std::lock_guard lock(mutex_);
            points_.erase(pos);
        }
        below = pos;
    }
}

void RestartPoints::offer(const formats::wad_lz::RestartPoint& point, bool window_start) {
    if (point.history.size() != kRestartHistory) return;
    load_saved();
    uint64_t key;
    {
        std::lock_guard lock(mutex_);
        if (points_.contains(point.pos)) return;
        const uint64_t stretch = point.pos / kSpacing * kSpacing;
        const auto next = points_.lower_bound(stretch);
        if (!window_start && next != points_.end() && next->first < stretch + kSpacing) return;
        key = new_cache_key();
        points_.emplace(point.pos, Known{key, point.p, point.check, true});
    }
    cache_.put(key, cache::Blob::copy_of(point.history));
    if (store_) store_->save_point(folder_, headers_, {point.p, point.pos, point.check, {point.history.begin(), point.history.end()}});
}

void RestartPoints::drop(uint64_t pos, const std::string& why) {
    {
        std::lock_guard lock(mutex_);
        points_.erase(pos);
    }
    if (store_) store_->drop_point(folder_, headers_, pos);
    spdlog::warn("{} restart point at decoded byte {}: {}; dropped, the window decoded from the stream's start", folder_, pos, why);
}

void RestartPoints::failed_past(uint64_t pos, const formats::FormatError& error) {
    std::lock_guard lock(mutex_);
    if (!failure_ || pos < failure_->first) failure_.emplace(pos, error);
}

std::optional<formats::FormatError> RestartPoints::fails(uint64_t end) const {
    std::lock_guard lock(mutex_);
    if (failure_ && end > failure_->first) return failure_->second;
    return std::nullopt;
}

uint64_t RestartPoints::known() const {
    load_saved();
    std::lock_guard lock(mutex_);
    return points_.size();
}

}  // namespace gcfs::tree
