// The bytes a cache entry holds: one allocation, filled once by its loader,
// then read-only. Large blobs are mapped on their own (the largest with
// transparent huge pages requested) and unmapped when the last reader lets go:
//  - page faults dominate a fresh decode otherwise (measured here: a 29 MB
//    core costs ~100 ms of 4 KiB faults, ~7 ms on 2 MiB pages, against ~45 ms
//    of decoding), and
//  - glibc keeps freed large blocks in per-thread arenas, so an evicted core
//    would stay in the daemon's RSS; an unmapped one is returned at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace gcfs::cache {

class Blob {
public:
    // Huge pages pay for a buffer filled whole (a decode's output); one a
    // read fills a piece at a time and releases behind it (a decode's
    // compressed input) keeps small pages: only the pages filled are touched.
    enum class Pages { huge_when_large, small };
    // Uninitialised contents; throws std::bad_alloc when no memory is left.
    static std::shared_ptr<Blob> allocate(size_t size, Pages pages = Pages::huge_when_large);
    static std::shared_ptr<Blob> copy_of(std::span<const uint8_t> bytes);
    ~Blob();
    Blob(const Blob&) = delete;
    Blob& operator=(const Blob&) = delete;

    uint8_t* data() { return data_; }
    const uint8_t* data() const { return data_; }
    size_t size() const { return size_; }
    std::span<uint8_t> bytes() { return {data_, size_}; }
    std::span<const uint8_t> bytes() const { return {data_, size_}; }
    const uint8_t* begin() const { return data_; }
    const uint8_t* end() const { return data_ + size_; }

    // Shows only [offset, offset + size) of what was allocated (no copy).
    void narrow(size_t offset, size_t size);
    // The first `bytes` will not be read again (a stream's input behind its
    // decoder): a mapped blob gives their whole pages back to the system and
    // stops counting them in live_bytes(). Reading them afterwards gives zeros.
    void release_front(size_t bytes);

    // Bytes of every blob alive in the process: in a cache, evicted but still
    // held by a reader or a fill, or scratch of a decode. The cache admits
    // loads against this, not only against what it keeps.
    static uint64_t live_bytes();

private:
    Blob(void* allocation, size_t allocated, bool mapped, uint8_t* data, size_t size);

    void* allocation_;
    size_t allocated_;
    bool mapped_;
    uint8_t* data_;
    size_t size_;
    size_t counted_;       // the size asked for, in live_bytes() until destroyed (less what was released)
    size_t released_ = 0;  // bytes from data_ given back by release_front
};

}  // namespace gcfs::cache
