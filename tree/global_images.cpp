#include "tree/global_images.h"

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
    return {{"ok", true}, {"format", "RGBA"}, {"width", header->width}, {"height", header->height}};
}

}  // namespace gcfs::tree
