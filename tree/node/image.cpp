#include "tree/node/image.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

namespace gcfs::tree {

Image::Image(const std::string& path, std::shared_ptr<const ImagePatch> patch) : path_(path), patch_(std::move(patch)) {
    // Non-blocking, so opening a FIFO returns at once and is refused below
    // rather than waiting for a writer.
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0) throw std::system_error(errno, std::generic_category(), path);
    auto refuse = [&](auto error) {
        ::close(fd_);
        throw error;
    };
    struct stat st {};
    if (::fstat(fd_, &st) != 0) refuse(std::system_error(errno, std::generic_category(), path));
    if (S_ISDIR(st.st_mode)) refuse(std::system_error(EISDIR, std::generic_category(), path));
    if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
        const char* kind = S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) ? "a character device" : S_ISSOCK(st.st_mode) ? "a socket" : "not a file";
        refuse(NotAnImageFile(fmt::format("it is {}; give a disc image as a regular file or a block device", kind)));
    }
    ::fcntl(fd_, F_SETFL, 0);  // reads block as usual from here
    stat_size_ = st.st_size;
    size_ = static_cast<uint64_t>(st.st_size);
    if (S_ISBLK(st.st_mode)) {  // a block device's stat size is 0; its end is its size
        const off_t end = ::lseek(fd_, 0, SEEK_END);
        if (end < 0) refuse(std::system_error(errno, std::generic_category(), path));
        size_ = static_cast<uint64_t>(end);
    }
    modified_ = {st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
    file_size_ = size_;
    if (patch_) size_ = patch_->size;
}

bool Image::unchanged() const {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) return false;
    return st.st_size == stat_size_ && st.st_mtim.tv_sec == modified_.first &&
           st.st_mtim.tv_nsec == modified_.second;
}

Image::~Image() {
    if (fd_ >= 0) ::close(fd_);
}

bool Image::read(uint64_t offset, std::span<uint8_t> out) const {
    // Bytes of a rewritten image would no longer match the tree built from
    // its headers: such reads fail (ESTALE) rather than serve mixed content.
    if (!unchanged()) {
        errno = ESTALE;
        return false;
    }
    if (!patch_) return read_file(offset, out);
    if (offset > size_ || out.size() > size_ - offset) {
        errno = EIO;
        return false;
    }
    // Pieces first, the file between them, zeros past the file's end.
    uint64_t at = offset;
    const uint64_t end = offset + out.size();
    auto piece = patch_->pieces.upper_bound(at);
    if (piece != patch_->pieces.begin()) --piece;
    while (at < end) {
        while (piece != patch_->pieces.end() && piece->first + piece->second.size() <= at) ++piece;
        const uint64_t piece_at = piece == patch_->pieces.end() ? end : std::max(piece->first, at);
        if (piece_at > at) {  // from the file, up to the next piece
            const uint64_t stop = std::min(piece_at, end);
            const uint64_t from_file = at < file_size_ ? std::min(stop, file_size_) - at : 0;
            if (from_file && !read_file(at, out.subspan(at - offset, from_file))) return false;
            std::fill(out.begin() + static_cast<int64_t>(at - offset + from_file), out.begin() + static_cast<int64_t>(stop - offset), 0);
            at = stop;
            continue;
        }
        const uint64_t stop = std::min(end, piece->first + piece->second.size());
        std::copy(piece->second.begin() + static_cast<int64_t>(at - piece->first),
                  piece->second.begin() + static_cast<int64_t>(stop - piece->first), out.begin() + static_cast<int64_t>(at - offset));
        at = stop;
    }
    return true;
}

bool Image::read_file(uint64_t offset, std::span<uint8_t> out) const {
    uint64_t done = 0;
    while (done < out.size()) {
        const ssize_t n = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        if (n == 0) {
            errno = EIO;  // the image ends early: truncated under us
            return false;
        }
        done += static_cast<uint64_t>(n);
    }
    return true;
}

std::optional<std::pair<int, uint64_t>> Image::file_range(uint64_t offset, uint64_t length) const {
    if (offset > file_size_ || length > file_size_ - offset || !unchanged()) return std::nullopt;
    if (patch_) {
        auto piece = patch_->pieces.lower_bound(offset);
        if (piece != patch_->pieces.end() && piece->first < offset + length) return std::nullopt;
        if (piece != patch_->pieces.begin() && std::prev(piece)->first + std::prev(piece)->second.size() > offset) return std::nullopt;
    }
    return std::pair{fd_, offset};
}

void Image::prefetch(uint64_t offset, uint64_t length) const {
    (void)::posix_fadvise(fd_, static_cast<off_t>(offset), static_cast<off_t>(length), POSIX_FADV_WILLNEED);
}

formats::Bytes Image::read_clamped(uint64_t offset, uint64_t length) const {
    if (offset >= size_) return {};
    formats::Bytes out(std::min(length, size_ - offset));
    if (!read(offset, out)) return {};
    return out;
}

}  // namespace gcfs::tree
