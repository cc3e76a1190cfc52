#include "cache/filling.h"

namespace gcfs::cache {

void Filling::advance(uint64_t ready) {
    {
        std::lock_guard lock(mutex_);
        ready_.store(ready, std::memory_order_release);
    }
    changed_.notify_all();
}

void Filling::fail(std::string error) {
    {
        std::lock_guard lock(mutex_);
        error_ = std::move(error);
        failed_.store(true, std::memory_order_release);
    }
    changed_.notify_all();
}

std::string Filling::wait_for(uint64_t end) const {
    // Bytes already final take no lock: the common case once the fill has
    // gone past them.
    if (ready_.load(std::memory_order_acquire) >= end && !failed_.load(std::memory_order_acquire)) return {};
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return failed_.load(std::memory_order_relaxed) || ready_.load(std::memory_order_relaxed) >= end; });
    // Once the fill has failed, no byte of it is served: the part is rejected
    // whole from then on, even bytes that were final before the damage.
    return failed_.load(std::memory_order_relaxed) ? error_ : std::string();
}

}  // namespace gcfs::cache
