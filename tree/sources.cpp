#include "tree/sources.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "formats/wad_lz.h"

namespace gcfs::tree {
namespace {

std::span<const uint8_t> as_span(const std::string& text) {
    return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

}  // namespace

uint64_t new_cache_key() {
    static std::atomic<uint64_t> counter{1};
    return counter++;
}

ReadOutcome copy_window(std::span<const uint8_t> content, uint64_t offset, std::span<uint8_t> out) {
    if (offset >= content.size()) return {0, {}};
    const uint64_t n = std::min<uint64_t>(out.size(), content.size() - offset);
    std::memcpy(out.data(), content.data() + offset, n);
    return {n, {}};
}

namespace {

// §5.3: literals cost at most 275 input bytes per 273 output bytes, plus
// dummies and the 0x2000-block pads; 1/32 and a page cover that.
uint64_t prefix_first_read(uint64_t available, uint64_t length) {
    return std::min(available, formats::wad_lz::kHeaderSize + length + length / 32 + 4096);
}

formats::FormatError read_failed(uint64_t offset) {
    return {formats::Errc::truncated, 0, fmt::format("image read at 0x{:x} failed: {}", offset, std::strerror(errno))};
}

}  // namespace

uint64_t stream_prefix_peak(uint64_t available, uint64_t length) {
    return length + formats::wad_lz::kPrefixSlack + std::max(available, prefix_first_read(available, length));
}

formats::Result<cache::Buffer> decode_stream_prefix(const Image& image, uint64_t offset, uint64_t available,
                                                    uint64_t length) {
    auto out = cache::Blob::allocate(length + formats::wad_lz::kPrefixSlack);
    for (uint64_t read : {prefix_first_read(available, length), available}) {
        const auto stream = cache::Blob::allocate(read);
        if (!image.read(offset, stream->bytes())) return read_failed(offset);
        auto prefix = formats::wad_lz::decompress_prefix_into(stream->bytes(), out->bytes(), length);
        if (!prefix.ok() && read < available) continue;  // the prefix needed more of the stream
        if (!prefix.ok()) return prefix.error();
        out->narrow(0, length);
        return cache::Buffer(out);
    }
    return formats::FormatError{formats::Errc::truncated, 0, "unreachable"};
}

ImageSlice::ImageSlice(const Image& image, uint64_t offset, uint64_t length)
    : image_(image), offset_(offset), length_(length) {}

ReadOutcome ImageSlice::read(uint64_t offset, std::span<uint8_t> out) const {
    if (offset >= length_) return {0, {}};
    const uint64_t n = std::min<uint64_t>(out.size(), length_ - offset);
    if (!image_.read(offset_ + offset, out.first(n)))
        return {0, fmt::format("image read of {} bytes at image byte 0x{:x} failed: {}", n, offset_ + offset,
                               std::strerror(errno))};
    return {n, {}};
}

ReadOutcome StaticText::read(uint64_t offset, std::span<uint8_t> out) const {
    return copy_window(as_span(text_), offset, out);
}

ReadOutcome LiveText::read(uint64_t offset, std::span<uint8_t> out) const {
    return copy_window(as_span(render_()), offset, out);
}

WadStream::WadStream(const Image& image, cache::LruCache& cache, uint64_t offset, uint64_t available,
                     std::optional<uint64_t> declared_size)
    : image_(image), cache_(cache), key_(new_cache_key()), offset_(offset), available_(available), size_(declared_size) {}

uint64_t WadStream::size() const {
    std::call_once(measured_, [&] {
        if (size_) return;
        const auto stream = cache::Blob::allocate(available_);
        if (!image_.read(offset_, stream->bytes())) {
            size_error_ = read_failed(offset_).message;
            return;
        }
        auto measured = formats::wad_lz::measure(stream->bytes());
        if (measured.ok()) {
            size_ = *measured;
        } else {
            size_error_ = fmt::format("stream {} (image byte 0x{:x})", measured.error().describe(), offset_);
        }
    });
    return size_.value_or(0);
}

std::string WadStream::open_error() const {
    size();
    return size_ ? std::string() : size_error_;
}

cache::Loaded WadStream::decode() const {
    const uint64_t expected = size();
    if (!size_) return {nullptr, size_error_};
    const auto stream = cache::Blob::allocate(available_);
    if (!image_.read(offset_, stream->bytes())) return {nullptr, read_failed(offset_).message};
    auto header = formats::wad_lz::read_header(stream->bytes());
    if (!header.ok()) return {nullptr, fmt::format("stream {} (image byte 0x{:x})", header.error().describe(), offset_)};
    if (!formats::wad_lz::achievable(header->compressed_size, expected))
        return {nullptr, fmt::format("stream of {} bytes cannot decode to the declared {} (image byte 0x{:x})",
                                     header->compressed_size, expected, offset_)};
    auto out = cache::Blob::allocate(expected);
    auto done = formats::wad_lz::decompress_into(stream->bytes(), out->bytes());
    if (!done.ok()) return {nullptr, fmt::format("stream {} (image byte 0x{:x})", done.error().describe(), offset_)};
    return {out, {}};
}

cache::Loaded WadStream::decoded() const {
    // Peak memory of a load: the output and the whole compressed stream.
    return cache_.get(key_, [this] { return decode(); }, size() + available_);
}

ReadOutcome WadStream::read(uint64_t offset, std::span<uint8_t> out) const {
    const cache::Loaded loaded = decoded();
    if (!loaded.bytes) return {0, loaded.error};
    return copy_window(loaded.bytes->bytes(), offset, out);
}

SubRange::SubRange(std::shared_ptr<const Source> whole, uint64_t offset, uint64_t length)
    : whole_(std::move(whole)), offset_(offset), length_(length) {}

ReadOutcome SubRange::read(uint64_t offset, std::span<uint8_t> out) const {
    if (offset >= length_) return {0, {}};
    const uint64_t n = std::min<uint64_t>(out.size(), length_ - offset);
    return whole_->read(offset_ + offset, out.first(n));
}

}  // namespace gcfs::tree
