#include "cache/lru_cache.h"

#include <algorithm>

namespace gcfs::cache {

namespace {
thread_local bool sizing_loads = false;
}  // namespace

SizingLoads::SizingLoads() : outer_(!sizing_loads) { sizing_loads = true; }
SizingLoads::~SizingLoads() {
    if (outer_) sizing_loads = false;
}
bool SizingLoads::active() { return sizing_loads; }

LruCache::LruCache(uint64_t budget_bytes, uint64_t sizing_budget_bytes)
    : sizing_budget_(std::min(budget_bytes, sizing_budget_bytes)) {
    stats_.budget_bytes = budget_bytes;
}

Loaded LruCache::get(uint64_t key, const std::function<Loaded()>& loader, uint64_t expected_bytes) {
    std::shared_ptr<InFlight> flight;
    {
        std::unique_lock lock(mutex_);
        if (auto it = entries_.find(key); it != entries_.end()) {
            ++stats_.hits;
            touch_locked(it->second);
            return {it->second.bytes, {}, it->second.filling};
        }
        if (auto it = in_flight_.find(key); it != in_flight_.end()) {
            ++stats_.waits;
            auto waiting = it->second;
            waiting->read = waiting->read || !SizingLoads::active();
            loaded_.wait(lock, [&] { return waiting->done; });
            return waiting->outcome;
        }
        ++stats_.misses;
        flight = std::make_shared<InFlight>();
        flight->read = !SizingLoads::active();
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
            insert_locked(key, outcome, !flight->read);
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

void LruCache::insert_locked(uint64_t key, const Loaded& loaded, bool sizing) {
    const uint64_t size = loaded.bytes->size();
    evict_locked(size);
    if (sizing)
        while (!sizing_recency_.empty() && stats_.sizing_bytes + size > sizing_budget_) evict_one_locked(sizing_recency_);
    auto& pool = sizing ? sizing_recency_ : recency_;
    pool.push_front(key);
    entries_.emplace(key, Entry{loaded.bytes, loaded.filling, sizing, pool.begin()});
    stats_.resident_bytes += size;
    if (sizing) stats_.sizing_bytes += size;
    stats_.entries = entries_.size();
}

void LruCache::touch_locked(Entry& entry) {
    if (entry.sizing && !SizingLoads::active()) {  // read now: it stays like any read's bytes
        recency_.splice(recency_.begin(), sizing_recency_, entry.position);
        entry.sizing = false;
        stats_.sizing_bytes -= entry.bytes->size();
        return;
    }
    auto& pool = entry.sizing ? sizing_recency_ : recency_;
    pool.splice(pool.begin(), pool, entry.position);
}

void LruCache::evict_one_locked(std::list<uint64_t>& pool) {
    erase_locked(entries_.find(pool.back()));
    ++stats_.evictions;
}

void LruCache::erase_locked(std::unordered_map<uint64_t, Entry>::iterator it) {
    Entry& entry = it->second;
    (entry.sizing ? sizing_recency_ : recency_).erase(entry.position);
    stats_.resident_bytes -= entry.bytes->size();
    if (entry.sizing) stats_.sizing_bytes -= entry.bytes->size();
    entries_.erase(it);
    stats_.entries = entries_.size();
}

void LruCache::forget(uint64_t key) {
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(key); it != entries_.end()) erase_locked(it);
}

void LruCache::evict_locked(uint64_t needed) {
    // The sizing pool goes first: its bytes served a stat, not a read.
    while (!(recency_.empty() && sizing_recency_.empty()) && stats_.resident_bytes + reserved_ + needed > stats_.budget_bytes)
        evict_one_locked(sizing_recency_.empty() ? recency_ : sizing_recency_);
    stats_.entries = entries_.size();
}

CacheStats LruCache::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

}  // namespace gcfs::cache
