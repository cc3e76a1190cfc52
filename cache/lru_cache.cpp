#include "cache/lru_cache.h"

namespace gcfs::cache {

LruCache::LruCache(uint64_t budget_bytes) { stats_.budget_bytes = budget_bytes; }

Loaded LruCache::get(uint64_t key, const std::function<Loaded()>& loader, uint64_t expected_bytes) {
    std::shared_ptr<InFlight> flight;
    {
        std::unique_lock lock(mutex_);
        if (auto it = entries_.find(key); it != entries_.end()) {
            ++stats_.hits;
            recency_.splice(recency_.begin(), recency_, it->second.position);
            return {it->second.bytes, {}};
        }
        if (auto it = in_flight_.find(key); it != in_flight_.end()) {
            ++stats_.waits;
            auto waiting = it->second;
            loaded_.wait(lock, [&] { return waiting->done; });
            return waiting->outcome;
        }
        ++stats_.misses;
        flight = std::make_shared<InFlight>();
        in_flight_.emplace(key, flight);
        evict_locked(expected_bytes);
        reserved_ += expected_bytes;
    }

    Loaded outcome;
    try {
        outcome = loader();
    } catch (const std::exception& e) {
        outcome = {nullptr, e.what()};
    }

    {
        std::lock_guard lock(mutex_);
        reserved_ -= expected_bytes;
        if (outcome.bytes) {
            stats_.loaded_bytes += outcome.bytes->size();
            insert_locked(key, outcome.bytes);
        } else {
            ++stats_.failures;
        }
        flight->outcome = outcome;
        flight->done = true;
        in_flight_.erase(key);
    }
    loaded_.notify_all();
    return outcome;
}

void LruCache::insert_locked(uint64_t key, Buffer bytes) {
    const uint64_t size = bytes->size();
    evict_locked(size);
    recency_.push_front(key);
    entries_.emplace(key, Entry{std::move(bytes), recency_.begin()});
    stats_.resident_bytes += size;
    stats_.entries = entries_.size();
}

void LruCache::evict_locked(uint64_t needed) {
    while (!recency_.empty() && stats_.resident_bytes + reserved_ + needed > stats_.budget_bytes) {
        const uint64_t victim = recency_.back();
        recency_.pop_back();
        auto it = entries_.find(victim);
        stats_.resident_bytes -= it->second.bytes->size();
        entries_.erase(it);
        ++stats_.evictions;
    }
    stats_.entries = entries_.size();
}

CacheStats LruCache::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

}  // namespace gcfs::cache
