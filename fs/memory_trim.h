// Gives memory the decoders let go of back to the system while mounted.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

#include "cache/lru_cache.h"

namespace gcfs::fs {

// The cache counts the buffers it keeps and admits loads against its budget
// (cache/lru_cache.h), but a decode also builds text, meshes and PNGs with
// malloc, and glibc keeps free pages inside its arenas: 64 concurrent readers
// of a two-level full-scale disc with a 16 MiB cache peaked at 86-91 MiB
// without this, 82-83 MiB with it (before decodes gave their input back,
// bench/results.md). Every 200 ms after loads ran, this thread hands free
// arena pages back (malloc_trim). Stops when destroyed.
class MemoryTrimmer {
public:
    explicit MemoryTrimmer(const cache::LruCache& cache);
    ~MemoryTrimmer();
    MemoryTrimmer(const MemoryTrimmer&) = delete;
    MemoryTrimmer& operator=(const MemoryTrimmer&) = delete;

private:
    void run();

    const cache::LruCache& cache_;
    std::mutex mutex_;
    std::condition_variable stop_;
    bool stopping_ = false;
    std::thread thread_;  // last: it reads the members above
};

}  // namespace gcfs::fs
