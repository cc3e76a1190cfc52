#include "cache/lru_cache.h"

#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <chrono>

namespace gcfs::cache {

namespace {
thread_local bool sizing_loads = false;
thread_local int loads_on_this_thread = 0;  // loaders running on this thread, nested ones included

// How long a load waits for room while nothing moves (progress_locked)
// before it starts anyway: loads that wait on each other (one holding a
// std::call_once the other's loader needs) must not wait forever.
constexpr auto kStalledRoom = std::chrono::milliseconds(500);
constexpr auto kRoomPoll = std::chrono::milliseconds(10);

struct LoaderScope {
    LoaderScope() { ++loads_on_this_thread; }
    ~LoaderScope() { --loads_on_this_thread; }
};
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
        admit_locked(lock, *flight, expected_bytes);
        reserved_ += expected_bytes;
    }

    Loaded outcome;
    try {
        const LoaderScope scope;
        outcome = loader();
    } catch (const std::exception& e) {
        outcome = {nullptr, e.what()};
    }

    {
        std::lock_guard lock(mutex_);
        reserved_ -= expected_bytes;
        ++finished_loads_;
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

void LruCache::admit_locked(std::unique_lock<std::mutex>& lock, InFlight& flight, uint64_t expected_bytes) {
    evict_locked(expected_bytes);
    // A loader asking for more (a texture for the core it is cut from) runs
    // at once: its own load holds a reservation it would wait on.
    if (loads_on_this_thread > 0) return admitted(flight);
    // Loads are admitted in the order they asked, so a large one is not
    // passed over forever by small ones.
    const uint64_t ticket = next_ticket_++;
    auto fits = [&] {
        return Blob::live_bytes() + reserved_ + expected_bytes <= stats_.budget_bytes ||
               (reserved_ == 0 && !filling_locked());  // alone: every other load and fill has ended, all it could evict is gone
    };
    bool waited = false;
    Progress progress = progress_locked();
    auto since = std::chrono::steady_clock::now();
    while (ticket != admitted_ticket_ || !fits()) {
        if (!waited) ++stats_.room_waits;
        waited = true;
        // Woken when a load ends; polled for buffers let go outside the cache (a reader's, a fill's).
        loaded_.wait_for(lock, kRoomPoll);
        evict_locked(expected_bytes);
        const auto now = std::chrono::steady_clock::now();
        if (const Progress seen = progress_locked(); seen != progress) {
            progress = seen;
            since = now;
        } else if (now - since >= kStalledRoom && ticket == admitted_ticket_) {
            ++stats_.stalled_starts;
            break;
        }
    }
    ++admitted_ticket_;
    admitted(flight);
    loaded_.notify_all();  // the next ticket may fit too
}

void LruCache::admitted(InFlight& flight) {
    flight.admitted = true;
    if (::pthread_getcpuclockid(::pthread_self(), &flight.cpu_clock) != 0) flight.cpu_clock = CLOCK_MONOTONIC;  // always moves: never a stall
}

LruCache::Progress LruCache::progress_locked() const {
    // Loads ending, memory let go, fills advancing, loaders' threads using
    // the CPU. A loader blocked on a lock held by the waiting thread moves
    // none of them.
    Progress p{finished_loads_, Blob::live_bytes(), 0, 0};
    for (const auto& [key, e] : entries_)
        if (e.filling_now()) p.filled_bytes += e.filling->ready();
    for (const auto& [key, flight] : in_flight_) {
        timespec t{};
        if (flight->admitted && ::clock_gettime(flight->cpu_clock, &t) == 0)
            p.loader_cpu_ns += static_cast<uint64_t>(t.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(t.tv_nsec);
    }
    return p;
}

void LruCache::insert_locked(uint64_t key, const Loaded& loaded, bool sizing) {
    const uint64_t size = loaded.bytes->size();
    evict_locked(0);  // the new buffer is alive already: live_bytes() counts it
    if (sizing)
        while (stats_.sizing_bytes + size > sizing_budget_ && evict_one_locked(sizing_recency_)) {
        }
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

bool LruCache::filling_locked() const {
    return std::any_of(entries_.begin(), entries_.end(), [](const auto& e) { return e.second.filling_now(); });
}

bool LruCache::evict_one_locked(std::list<uint64_t>& pool) {
    // The least recent entry whose fill has settled.
    for (auto key = pool.rbegin(); key != pool.rend(); ++key) {
        auto it = entries_.find(*key);
        if (it->second.filling_now()) continue;
        erase_locked(it);
        ++stats_.evictions;
        return true;
    }
    return false;
}

void LruCache::erase_locked(std::unordered_map<uint64_t, Entry>::iterator it) {
    Entry& entry = it->second;
    (entry.sizing ? sizing_recency_ : recency_).erase(entry.position);
    stats_.resident_bytes -= entry.bytes->size();
    if (entry.sizing) stats_.sizing_bytes -= entry.bytes->size();
    entries_.erase(it);
    stats_.entries = entries_.size();
}

Buffer LruCache::find(uint64_t key) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    const Entry& e = it->second;
    if (e.filling && e.filling->ready() < e.bytes->size()) return nullptr;  // still being written
    ++stats_.hits;
    touch_locked(it->second);
    return e.bytes;
}

void LruCache::put(uint64_t key, Buffer bytes) {
    std::lock_guard lock(mutex_);
    if (entries_.contains(key) || in_flight_.contains(key)) return;
    insert_locked(key, {std::move(bytes), {}, nullptr}, SizingLoads::active());
}

void LruCache::forget(uint64_t key) {
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(key); it != entries_.end()) erase_locked(it);
}

void LruCache::evict_locked(uint64_t needed) {
    // Counted against everything decoded that is alive, kept or not. The
    // sizing pool goes first: its bytes served a stat, not a read.
    while (Blob::live_bytes() + reserved_ + needed > stats_.budget_bytes)
        if (!evict_one_locked(sizing_recency_) && !evict_one_locked(recency_)) break;
    stats_.entries = entries_.size();
}

CacheStats LruCache::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

}  // namespace gcfs::cache
