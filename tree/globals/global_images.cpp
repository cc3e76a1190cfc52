#include "tree/globals/global_images.h"

#include <fmt/format.h>

#include "formats/pif/pif.h"

namespace gcfs::tree {

std::shared_ptr<const Source> pif_png(cache::LruCache& cache, WadItem item) {
    return std::make_shared<DerivedFile>(
        cache,
        [item]() -> formats::Result<uint64_t> {
            const auto head = item.head(formats::pif::kHeaderSize);
            if (!head.ok()) return head.error();
            const auto header = formats::pif::read_header(*head);
            if (!header.ok()) return header.error();
            // Its pixels must be there (§5: header, palette, then the mips): known from
            // the item's size (a compressed one measured, nothing decoded), so a PIF
            // short of them fails at open, as every other damaged file does.
            const auto size = item.size();
            if (!size.ok()) return size.error();
            if (*size < header->data_size())
                return formats::FormatError{formats::Errc::truncated, *size,
                                            fmt::format("PIF of {}x{} with {} mip levels needs {} bytes, {} are there", header->width,
                                                        header->height, std::max(1, header->mip_levels), header->data_size(), *size)};
            return formats::pif::png_size(*header);
        },
        [item]() -> formats::Result<formats::Bytes> {
            const auto pif = item.bytes();
            if (!pif.ok()) return pif.error();
            return formats::pif::to_png(*pif);
        },
        item.where());
}

std::shared_ptr<const Source> rgba_png(cache::LruCache& cache, WadItem item) {
    return std::make_shared<DerivedFile>(
        cache,
        [item]() -> formats::Result<uint64_t> {
            const auto head = item.head(formats::pif::kRgbaHeaderSize);
            if (!head.ok()) return head.error();
            const auto header = formats::pif::read_rgba_header(*head);
            if (!header.ok()) return header.error();
            return formats::pif::rgba_png_size(*header);
        },
        [item]() -> formats::Result<formats::Bytes> {
            const auto image = item.bytes();
            if (!image.ok()) return image.error();
            return formats::pif::rgba_to_png(*image);
        },
        item.where());
}

nlohmann::ordered_json pif_json(const WadItem& item) {
    const auto head = item.head(formats::pif::kHeaderSize);
    const auto header = head.ok() ? formats::pif::read_header(*head) : formats::Result<formats::pif::Header>(head.error());
    if (!header.ok()) return {{"ok", false}, {"error", header.error().describe()}};
    // The header's arithmetic against the bytes the item holds (a stream measured, not decoded).
    const auto size = item.size();
    if (!size.ok()) return {{"ok", false}, {"error", size.error().describe()}};
    if (*size < header->data_size())
        return {{"ok", false},
                {"error", fmt::format("a {}x{} PIF with {} mip levels needs {} bytes, the item holds {}", header->width, header->height,
                                      std::max(1, header->mip_levels), header->data_size(), *size)}};
    return {{"ok", true},
            {"format", header->eight_bit() ? "PIF 8-bit (0x13)" : "PIF 4-bit (0x94)"},
            {"width", header->width},
            {"height", header->height},
            {"mip_levels", header->mip_levels},
            {"clut_format", header->clut_format},
            {"clut_order", header->clut_order},
            {"file_size_field", header->file_size}};
}

nlohmann::ordered_json rgba_json(const WadItem& item) {
    const auto head = item.head(formats::pif::kRgbaHeaderSize);
    const auto header = head.ok() ? formats::pif::read_rgba_header(*head) : formats::Result<formats::pif::RgbaHeader>(head.error());
    if (!header.ok()) return {{"ok", false}, {"error", header.error().describe()}};
    const auto size = item.size();
    const uint64_t needs = formats::pif::kRgbaHeaderSize + 4ull * static_cast<uint64_t>(header->width) * static_cast<uint64_t>(header->height);
    if (!size.ok() || *size < needs)
        return {{"ok", false}, {"error", size.ok() ? fmt::format("a {}x{} RGBA image needs {} bytes, the item holds {}", header->width, header->height, needs, *size)
                                                   : size.error().describe()}};
    return {{"ok", true}, {"format", "RGBA"}, {"width", header->width}, {"height", header->height}};
}

}  // namespace gcfs::tree
