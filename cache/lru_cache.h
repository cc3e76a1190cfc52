// Byte-budgeted, thread-safe LRU of decoded buffers. Concurrent first reads
// of one key run the loader once; the others wait for its outcome.
#pragma once

#include <time.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "cache/blob.h"
#include "cache/filling.h"

namespace gcfs::cache {

using Buffer = std::shared_ptr<const Blob>;

struct Loaded {
    Buffer bytes;       // null on failure
    std::string error;  // why the loader failed
    // Set when the loader handed `bytes` over before filling them: wait on it
    // for the part a read needs. Null: every byte is final.
    std::shared_ptr<const Filling> filling;
};

struct CacheStats {
    uint64_t budget_bytes = 0;
    uint64_t resident_bytes = 0;
    uint64_t sizing_bytes = 0;  // of resident_bytes, held in the sizing pool
    uint64_t entries = 0;
    uint64_t hits = 0;
    uint64_t misses = 0;       // loads started
    uint64_t waits = 0;        // readers that waited for another thread's load
    uint64_t evictions = 0;
    uint64_t loaded_bytes = 0; // total bytes produced by loaders
    uint64_t failures = 0;
    uint64_t room_waits = 0;     // loads that waited for room in the budget
    uint64_t stalled_starts = 0; // loads that started over the budget after waiting while no load, fill or loader thread moved
};

// While one of these lives, the loads its thread starts are for sizes: a
// stat that needed a per-level index built from decoded bytes. Such loads go
// to a small pool of their own (LruCache's sizing budget), so that listing
// the whole disc keeps the small indexes and lets the decoded bytes they came
// from go. A read that meets such an entry moves it to the main pool.
class SizingLoads {
public:
    SizingLoads();
    ~SizingLoads();
    SizingLoads(const SizingLoads&) = delete;
    SizingLoads& operator=(const SizingLoads&) = delete;
    static bool active();

private:
    bool outer_;
};

class LruCache {
public:
    // The sizing pool's default: what one level's indexes and scene are built
    // from at full scale (4-5 MiB: the tfrag region, the core's head through
    // collision, its class window and the gameplay stream), with room to spare.
    static constexpr uint64_t kSizingBudget = 8ull << 20;
    explicit LruCache(uint64_t budget_bytes, uint64_t sizing_budget_bytes = kSizingBudget);

    // Returns the cached buffer for `key`, or runs `loader` (once across all
    // threads asking for `key` at the same time) and caches what it returns.
    // `expected_bytes` is what the load will hold at its peak (output and any
    // scratch): room is made for it before the loader runs, and while loads in
    // flight leave no room the load waits for them, so that concurrent first
    // reads stay within the budget too. A load larger than the whole budget
    // runs alone; its buffer is returned and kept alone.
    Loaded get(uint64_t key, const std::function<Loaded()>& loader, uint64_t expected_bytes = 0);

    // The buffer cached under `key` once every byte of it is final (a
    // streamed buffer when its fill has written all of it), or null; nothing
    // is loaded.
    Buffer find(uint64_t key);
    // Keeps `bytes` under `key` unless something is there already: a
    // by-product of a load (a decoder's restart point), not counted as one.
    void put(uint64_t key, Buffer bytes);

    // Drops `key`'s entry, if any: a fill that failed after its loader
    // returned, so its bytes stop counting against the budget.
    void forget(uint64_t key);

    CacheStats stats() const;

private:
    struct Entry {
        Buffer bytes;
        std::shared_ptr<const Filling> filling;
        bool sizing;  // in the sizing pool
        std::list<uint64_t>::iterator position;
        // A fill is still writing it: it may not be evicted (its memory stays
        // held until the fill ends, and a reader would start a second decode).
        bool filling_now() const { return filling && !filling->settled(bytes->size()); }
    };
    // What moves while the loads holding the room get on (progress_locked).
    struct Progress {
        uint64_t finished_loads, live_bytes, filled_bytes, loader_cpu_ns;
        bool operator==(const Progress&) const = default;
    };
    struct InFlight {
        bool done = false;
        bool read = false;  // a thread outside SizingLoads asked for it
        bool admitted = false;
        clockid_t cpu_clock = CLOCK_MONOTONIC;  // its loader thread's CPU time, once admitted
        Loaded outcome;
    };

    void insert_locked(uint64_t key, const Loaded& loaded, bool sizing);
    void erase_locked(std::unordered_map<uint64_t, Entry>::iterator it);
    void touch_locked(Entry& entry);
    bool evict_one_locked(std::list<uint64_t>& pool);  // false: nothing in `pool` may go
    bool filling_locked() const;                       // whether an entry's fill is still going
    void evict_locked(uint64_t needed);  // until live + reserved + needed fits the budget, or nothing may go
    // Evicts, then waits until the load fits beside the loads in flight.
    void admit_locked(std::unique_lock<std::mutex>& lock, InFlight& flight, uint64_t expected_bytes);
    void admitted(InFlight& flight);
    Progress progress_locked() const;

    mutable std::mutex mutex_;
    std::condition_variable loaded_;
    const uint64_t sizing_budget_;
    std::list<uint64_t> recency_;         // main pool, front = most recent
    std::list<uint64_t> sizing_recency_;  // sizing pool, front = most recent
    std::unordered_map<uint64_t, Entry> entries_;
    std::unordered_map<uint64_t, std::shared_ptr<InFlight>> in_flight_;
    CacheStats stats_;
    uint64_t reserved_ = 0;  // expected bytes of loads in flight
    uint64_t finished_loads_ = 0;
    uint64_t next_ticket_ = 0, admitted_ticket_ = 0;  // loads wait for room in the order they asked
};

}  // namespace gcfs::cache
