#include "fs/memory_trim.h"

#include <malloc.h>

#include <chrono>

namespace gcfs::fs {

MemoryTrimmer::MemoryTrimmer(const cache::LruCache& cache) : cache_(cache), thread_([this] { run(); }) {}

MemoryTrimmer::~MemoryTrimmer() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    stop_.notify_all();
    thread_.join();
}

void MemoryTrimmer::run() {
    uint64_t seen = 0;
    std::unique_lock lock(mutex_);
    while (!stop_.wait_for(lock, std::chrono::milliseconds(200), [&] { return stopping_; })) {
        const cache::CacheStats stats = cache_.stats();
        const uint64_t activity = stats.misses + stats.evictions;
        if (activity == seen) continue;  // nothing was decoded or let go: nothing to hand back
        seen = activity;
        ::malloc_trim(0);
    }
}

}  // namespace gcfs::fs
