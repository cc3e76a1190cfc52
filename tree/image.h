// The disc image file, read with pread from any thread.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "formats/common/bytes.h"

namespace gcfs::tree {

// An image path that names neither a regular file nor a block device (a
// FIFO would block every reader on it forever; a directory has no bytes).
class NotAnImageFile : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Image {
public:
    // Throws std::system_error with the path when the file cannot be opened,
    // NotAnImageFile when it is not a regular file or block device.
    explicit Image(const std::string& path);
    ~Image();
    Image(const Image&) = delete;
    Image& operator=(const Image&) = delete;

    const std::string& path() const { return path_; }
    uint64_t size() const { return size_; }

    // Reads exactly out.size() bytes at `offset`; returns false (errno set)
    // on an I/O error, when the image is shorter than asked, or when it was
    // truncated or rewritten since it was opened (size or mtime changed).
    bool read(uint64_t offset, std::span<uint8_t> out) const;

    // Asks the kernel to start reading [offset, offset + length) now, without
    // waiting: a decode that reads its stream in steps then finds the later
    // steps' bytes on their way. A hint only; failures are ignored.
    void prefetch(uint64_t offset, uint64_t length) const;

    // Reads up to `length` bytes, clamped to the image's end.
    formats::Bytes read_clamped(uint64_t offset, uint64_t length) const;

    // The file still has the size and mtime it had when opened.
    bool unchanged() const;
    // Its modification time at open, in nanoseconds (the persistent index's key).
    int64_t mtime_ns() const { return modified_.first * 1'000'000'000 + modified_.second; }

private:
    std::string path_;
    int fd_ = -1;
    uint64_t size_ = 0;
    int64_t stat_size_ = 0;  // st_size at open: the size for a file, 0 for a block device
    std::pair<int64_t, int64_t> modified_{};  // st_mtim at open
};

}  // namespace gcfs::tree
