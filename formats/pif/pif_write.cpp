#include <stdexcept>

#include "formats/export/texture_png.h"
#include "formats/pif/pif.h"

namespace gcfs::formats::pif {
namespace {

void header(ByteWriter& out, uint32_t width, uint32_t height, int32_t format, int mip_levels) {
    out.append(ByteSpan(reinterpret_cast<const uint8_t*>("2FIP"), 4));
    out.s32(0);  // file_size: unused (§5); Wrench writes 0
    out.s32(static_cast<int32_t>(width));
    out.s32(static_cast<int32_t>(height));
    out.s32(format);
    out.s32(0);  // clut_format, clut_order: Wrench writes 0
    out.s32(0);
    out.s32(mip_levels);
}

void colour(ByteWriter& out, const png::Rgba& c) {
    out.u8(c.r);
    out.u8(c.g);
    out.u8(c.b);
    out.u8(c.a);
}

}  // namespace

Bytes write_pif8(uint32_t width, uint32_t height, const std::array<png::Rgba, 256>& palette, ByteSpan indices, int mip_levels) {
    if (indices.size() != uint64_t{width} * height) throw std::invalid_argument("PIF: pixel count");
    // Wrench's mips: while a level is at least 8 wide, halve it keeping even pixels of even rows.
    std::vector<Bytes> levels = {Bytes(indices.begin(), indices.end())};
    for (uint32_t w = width, h = height; static_cast<int>(levels.size()) < mip_levels && w / 2 >= 8 && h / 2 >= 1; w /= 2, h /= 2) {
        Bytes reduced;
        for (uint32_t y = 0; y < h / 2; ++y)
            for (uint32_t x = 0; x < w / 2; ++x) reduced.push_back(levels.back()[uint64_t{2 * y} * w + 2 * x]);
        levels.push_back(std::move(reduced));
    }
    ByteWriter out;
    header(out, width, height, kFormat8, static_cast<int>(levels.size()));
    for (int i = 0; i < 256; ++i) colour(out, palette[ps2_palette_slot(static_cast<uint8_t>(i))]);  // stored swizzled
    for (const Bytes& level : levels) out.append(level);
    return std::move(out.bytes());
}

Bytes write_pif4(uint32_t width, uint32_t height, const std::array<png::Rgba, 16>& palette, ByteSpan indices) {
    if (indices.size() != uint64_t{width} * height || indices.size() % 2) throw std::invalid_argument("PIF: pixel count");
    ByteWriter out;
    header(out, width, height, kFormat4, 1);
    for (const png::Rgba& c : palette) colour(out, c);
    for (uint64_t i = 0; i < indices.size(); i += 2) out.u8(static_cast<uint8_t>(indices[i] << 4 | (indices[i + 1] & 0x0F)));
    return std::move(out.bytes());
}

Bytes write_texture_list(const std::vector<Bytes>& textures) {
    ByteWriter out;
    out.s32(static_cast<int32_t>(textures.size()));
    out.zeros(4 * textures.size());
    for (size_t i = 0; i < textures.size(); ++i) {
        out.pad_to(0x10);
        out.patch_u32(4 + 4 * i, static_cast<uint32_t>(out.size()));
        out.append(textures[i]);
    }
    return std::move(out.bytes());
}

Bytes write_rgba_image(uint32_t width, uint32_t height, std::span<const png::Rgba> pixels) {
    if (pixels.size() != uint64_t{width} * height) throw std::invalid_argument("RGBA image: pixel count");
    ByteWriter out;
    out.s32(static_cast<int32_t>(width));
    out.s32(static_cast<int32_t>(height));
    out.zeros(8);
    for (const png::Rgba& c : pixels) colour(out, c);
    return std::move(out.bytes());
}

}  // namespace gcfs::formats::pif
