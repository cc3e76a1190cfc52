// The progress of a buffer its loader hands to the cache before filling it:
// the loader's own thread goes on writing it front to back, and readers take
// each part once it is final (streamed decodes, issue 18).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>

namespace gcfs::cache {

class Filling {
public:
    // Bytes [0, ready) are final; `ready` never goes back.
    void advance(uint64_t ready);
    // The fill stopped for `error`: from now on every wait answers it.
    void fail(std::string error);
    // Waits until bytes [0, end) are final and returns "", or returns the
    // error the fill stopped for, whichever comes first. Bytes handed out
    // before a failure were final and right; none is handed out after it.
    std::string wait_for(uint64_t end) const;
    uint64_t ready() const { return ready_.load(std::memory_order_acquire); }
    // Whether bytes [0, size) are final or the fill has failed: it holds no more work.
    bool settled(uint64_t size) const {
        return failed_.load(std::memory_order_acquire) || ready_.load(std::memory_order_acquire) >= size;
    }

private:
    std::atomic<uint64_t> ready_{0};
    mutable std::mutex mutex_;
    mutable std::condition_variable changed_;
    std::atomic<bool> failed_{false};
    std::string error_;  // set before failed_, under mutex_
};

}  // namespace gcfs::cache
