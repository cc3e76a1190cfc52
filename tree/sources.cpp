#include "tree/sources.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "formats/wad_lz/wad_lz.h"

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

// `length` bytes of the image into a fresh blob; the error says where the read failed.
formats::Result<std::shared_ptr<cache::Blob>> read_extent(const Image& image, uint64_t offset, uint64_t length) {
    auto bytes = cache::Blob::allocate(length);
    if (!image.read(offset, bytes->bytes()))
        return formats::FormatError{formats::Errc::truncated, 0,
                                    fmt::format("image read at 0x{:x} failed: {}", offset, std::strerror(errno))};
    return bytes;
}

}  // namespace

std::string stream_error(const formats::FormatError& error, uint64_t image_offset) {
    return fmt::format("stream {} (image byte 0x{:x})", error.describe(), image_offset);
}

uint64_t stream_prefix_peak(uint64_t available, uint64_t length) {
    return length + formats::wad_lz::kPrefixSlack + std::max(available, prefix_first_read(available, length));
}

formats::Result<cache::Buffer> decode_stream_prefix(const Image& image, uint64_t offset, uint64_t available,
                                                    uint64_t length) {
    auto out = cache::Blob::allocate(length + formats::wad_lz::kPrefixSlack);
    for (uint64_t read : {prefix_first_read(available, length), available}) {
        const auto stream = read_extent(image, offset, read);
        if (!stream.ok()) return stream.error();
        auto prefix = formats::wad_lz::decompress_prefix_into((*stream)->bytes(), out->bytes(), length);
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
        const auto stream = read_extent(image_, offset_, available_);
        if (!stream.ok()) {
            size_error_ = stream.error().message;
            return;
        }
        auto measured = formats::wad_lz::measure((*stream)->bytes());
        if (measured.ok())
            size_ = *measured;
        else
            size_error_ = stream_error(measured.error(), offset_);
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
    const auto stream = read_extent(image_, offset_, available_);
    if (!stream.ok()) return {nullptr, stream.error().message};
    const formats::ByteSpan bytes = (*stream)->bytes();
    if (auto decodable = formats::wad_lz::check_decodable(bytes, expected); !decodable.ok())
        return {nullptr, stream_error(decodable.error(), offset_)};
    auto out = cache::Blob::allocate(expected);
    auto done = formats::wad_lz::decompress_into(bytes, out->bytes());
    if (!done.ok()) return {nullptr, stream_error(done.error(), offset_)};
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

cache::Loaded cached_core_window(cache::LruCache& cache, uint64_t key, const Image& image, CoreStream stream,
                                 uint64_t from, uint64_t to) {
    return cache.get(
        key,
        [&]() -> cache::Loaded {
            auto decoded = decode_stream_prefix(image, stream.offset, stream.available, to);
            if (!decoded.ok()) return {nullptr, "core_data " + stream_error(decoded.error(), stream.offset)};
            if (from == 0) {
                auto window = std::const_pointer_cast<cache::Blob>(*decoded);
                window->narrow(0, to);
                return {window, {}};
            }
            // A window past the start is copied out, so the prefix it was cut from is
            // freed now: the cache charges the window's size, and a narrowed view
            // would keep the whole prefix resident (27 class windows once held 900 MiB).
            return {cache::Blob::copy_of((*decoded)->bytes().subspan(from, to - from)), {}};
        },
        stream_prefix_peak(stream.available, to));
}

}  // namespace gcfs::tree
