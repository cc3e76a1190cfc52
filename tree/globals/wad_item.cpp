#include "tree/globals/wad_item.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "formats/wad_lz/wad_lz.h"

namespace gcfs::tree {
namespace {

formats::Result<formats::Bytes> read_image(const Image& image, uint64_t offset, uint64_t length) {
    formats::Bytes out(length);
    if (!image.read(offset, out))
        return formats::FormatError{formats::Errc::truncated, 0, fmt::format("image read at 0x{:x} failed: {}", offset, std::strerror(errno))};
    return out;
}

// [first, first + size) of `whole`, which must hold it.
formats::Result<formats::Bytes> cut(formats::Result<formats::Bytes> whole, uint64_t first, uint64_t size) {
    if (!whole.ok()) return whole;
    if (first > whole->size() || size > whole->size() - first)
        return formats::FormatError{formats::Errc::out_of_range, first, fmt::format("bytes [0x{:x}, +{}) of {}", first, size, whole->size())};
    return formats::Bytes(whole->begin() + static_cast<std::ptrdiff_t>(first), whole->begin() + static_cast<std::ptrdiff_t>(first + size));
}

}  // namespace

formats::Result<formats::Bytes> WadItem::bytes() const {
    auto raw = read_image(*image, offset, length);
    if (raw.ok() && compressed) raw = formats::wad_lz::decompress(*raw);
    return part ? cut(std::move(raw), part->first, part->second) : raw;
}

formats::Result<formats::Bytes> WadItem::head(uint64_t count) const {
    if (part) {  // the prefix of the whole that ends where the wanted head does
        WadItem whole = *this;
        whole.part.reset();
        const uint64_t wanted = std::min(count, part->second);
        return cut(whole.head(part->first + wanted), part->first, wanted);
    }
    if (!compressed) return read_image(*image, offset, std::min(count, length));
    // Enough of the stream for `count` bytes (§5.3: literals cost 275 input
    // bytes per 273 out at worst), clipped to the extent.
    auto raw = read_image(*image, offset, std::min(length, formats::wad_lz::kHeaderSize + count + count / 32 + 4096));
    if (!raw.ok()) return raw;
    const auto header = formats::wad_lz::read_header(*raw, length);
    if (!header.ok()) return header.error();
    return formats::wad_lz::decompress_prefix(*raw, count);  // a stream that decodes to fewer bytes fails here
}

formats::Result<uint64_t> WadItem::size() const {
    if (part) return part->second;
    if (!compressed) return length;
    const auto raw = read_image(*image, offset, length);
    if (!raw.ok()) return raw.error();
    return formats::wad_lz::measure(*raw);
}

std::string WadItem::where() const {
    return part ? fmt::format("{}: decoded bytes [0x{:x}, +{}) of the range at image byte 0x{:x}", name, part->first, part->second, offset)
                : fmt::format("{} at image byte 0x{:x}", name, offset);
}

}  // namespace gcfs::tree
