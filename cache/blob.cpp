#include "cache/blob.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

namespace gcfs::cache {
namespace {

constexpr size_t kHugePage = 2u << 20;
constexpr size_t kMapAtLeast = 1u << 20;  // smaller blobs come from malloc
// Huge pages only where faults would dominate: a 1-4 MiB window on 2 MiB
// pages holds up to a page more than it uses.
constexpr size_t kHugeAtLeast = 8u << 20;

std::atomic<uint64_t> live{0};

}  // namespace

Blob::Blob(void* allocation, size_t allocated, bool mapped, uint8_t* data, size_t size)
    : allocation_(allocation), allocated_(allocated), mapped_(mapped), data_(data), size_(size), counted_(size) {
    live.fetch_add(counted_, std::memory_order_relaxed);
}

uint64_t Blob::live_bytes() { return live.load(std::memory_order_relaxed); }

std::shared_ptr<Blob> Blob::allocate(size_t size, Pages pages) {
    if (size < kMapAtLeast) {
        void* p = std::malloc(size ? size : 1);
        if (!p) throw std::bad_alloc();
        return std::shared_ptr<Blob>(new Blob(p, size, false, static_cast<uint8_t*>(p), size));
    }
    // Over-allocate by one huge page so the data can start on a 2 MiB boundary.
    const size_t allocated = size + kHugePage;
    void* p = ::mmap(nullptr, allocated, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    auto* data = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(p) + kHugePage - 1) & ~(kHugePage - 1));
    if (pages == Pages::huge_when_large && size >= kHugeAtLeast) ::madvise(data, size, MADV_HUGEPAGE);  // advice only: small pages work where THP is off
    return std::shared_ptr<Blob>(new Blob(p, allocated, true, data, size));
}

std::shared_ptr<Blob> Blob::copy_of(std::span<const uint8_t> bytes) {
    auto blob = allocate(bytes.size());
    if (!bytes.empty()) std::memcpy(blob->data(), bytes.data(), bytes.size());
    return blob;
}

Blob::~Blob() {
    live.fetch_sub(counted_, std::memory_order_relaxed);
    if (mapped_)
        ::munmap(allocation_, allocated_);
    else
        std::free(allocation_);
}

void Blob::release_front(size_t bytes) {
    if (!mapped_) return;  // a malloc'd blob is under 1 MiB: not worth it
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t upto = std::min(bytes, size_) / page * page;  // data_ of a mapped blob is page-aligned
    if (upto <= released_) return;
    if (::madvise(data_ + released_, upto - released_, MADV_DONTNEED) != 0) return;
    live.fetch_sub(upto - released_, std::memory_order_relaxed);
    counted_ -= upto - released_;
    released_ = upto;
}

void Blob::narrow(size_t offset, size_t size) {
    if (offset > size_ || size > size_ - offset) throw std::out_of_range("Blob::narrow past the end");
    data_ += offset;
    size_ = size;
}

}  // namespace gcfs::cache
