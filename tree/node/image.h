// The disc image file, read with pread from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
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

// The bytes an edit changes (edit/): the image file with some ranges
// replaced, and perhaps grown past its end. Pieces never overlap; bytes past
// the file's end that no piece covers are zero.
struct ImagePatch {
    uint64_t size = 0;
    std::map<uint64_t, formats::Bytes> pieces;  // by image offset
};

class Image {
public:
    // Throws std::system_error with the path when the file cannot be opened,
    // NotAnImageFile when it is not a regular file or block device. With a
    // patch, the image read is the file as the patch changes it (the file
    // itself is still only read).
    explicit Image(const std::string& path, std::shared_ptr<const ImagePatch> patch = nullptr);
    ~Image();
    Image(const Image&) = delete;
    Image& operator=(const Image&) = delete;

    const std::string& path() const { return path_; }
    bool patched() const { return patch_ != nullptr; }
    uint64_t file_size() const { return file_size_; }  // the file's own, before any patch
    uint64_t size() const { return size_; }

    // Reads exactly out.size() bytes at `offset`; returns false (errno set)
    // on an I/O error, when the image is shorter than asked, or when it was
    // truncated or rewritten since it was opened (size or mtime changed).
    bool read(uint64_t offset, std::span<uint8_t> out) const;

    // Asks the kernel to start reading [offset, offset + length) now, without
    // waiting: a decode that reads its stream in steps then finds the later
    // steps' bytes on their way. A hint only; failures are ignored.
    void prefetch(uint64_t offset, uint64_t length) const;

    // Where [offset, offset + length) lies in the image file itself, when no
    // piece of a patch covers any of it and the file holds all of it: the
    // descriptor and the file offset, for a zero-copy reply (splice).
    std::optional<std::pair<int, uint64_t>> file_range(uint64_t offset, uint64_t length) const;

    // Reads up to `length` bytes, clamped to the image's end.
    formats::Bytes read_clamped(uint64_t offset, uint64_t length) const;

    // The file still has the size and mtime it had when opened.
    bool unchanged() const;
    // Its modification time at open, in nanoseconds (the persistent index's key).
    int64_t mtime_ns() const { return modified_.first * 1'000'000'000 + modified_.second; }

private:
    bool read_file(uint64_t offset, std::span<uint8_t> out) const;

    std::string path_;
    std::shared_ptr<const ImagePatch> patch_;
    uint64_t file_size_ = 0;
    int fd_ = -1;
    uint64_t size_ = 0;
    int64_t stat_size_ = 0;  // st_size at open: the size for a file, 0 for a block device
    std::pair<int64_t, int64_t> modified_{};  // st_mtim at open
};

}  // namespace gcfs::tree
