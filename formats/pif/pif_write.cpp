#include <fmt/format.h>

#include <stdexcept>

#include "formats/export/texture_png.h"
#include "formats/pif/pif.h"

#include "formats/core/texture_encode.h"
#include "formats/export/texture_png.h"

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

Result<Bytes> encode_like(ByteSpan old, const png::RgbaImage& picture, std::string& how) {
    return capture([&] {
        const auto parsed = read_header(old);
        if (!parsed.ok()) throw FormatFailure(parsed.error());
        const Header& h = *parsed;
        if (old.size() < h.data_size()) fail(Errc::truncated, old.size(), "the PIF is shorter than its header says");
        if (picture.width != static_cast<uint32_t>(h.width) || picture.height != static_cast<uint32_t>(h.height))
            fail(Errc::bad_value, 0, fmt::format("the picture is {}x{}; this one must stay {}x{}", picture.width, picture.height, h.width, h.height));
        const uint64_t pixels = uint64_t{picture.width} * picture.height;
        const uint64_t palette_at = kHeaderSize, pixels_at = kHeaderSize + 4ull * h.colours();
        Palette palette{};
        Bytes indices(pixels);
        if (h.eight_bit()) {
            palette = ps2_palette(old.subspan(palette_at, 1024));  // 256 RGBA32 entries
            std::copy(old.begin() + static_cast<int64_t>(pixels_at), old.begin() + static_cast<int64_t>(pixels_at + pixels), indices.begin());
        } else {
            for (size_t i = 0; i < 16; ++i) {
                const uint64_t at = palette_at + 4 * i;
                palette[i] = {old[at], old[at + 1], old[at + 2], ps2_alpha_to_png(old[at + 3])};
            }
            for (uint64_t i = 0; i < pixels; ++i) indices[i] = i % 2 ? old[pixels_at + i / 2] & 0x0F : old[pixels_at + i / 2] >> 4;
        }
        const IndexedPicture encoded = encode_indexed(picture, indices, palette, true, h.colours());
        how = encoded.how;
        Bytes out(old.begin(), old.begin() + static_cast<int64_t>(h.data_size()));
        if (h.eight_bit()) {
            const Bytes stored = ps2_palette_bytes(encoded.palette);
            std::copy(stored.begin(), stored.end(), out.begin() + static_cast<int64_t>(palette_at));
            // The mip levels again, as write_pif8 makes them.
            const Bytes rebuilt = write_pif8(picture.width, picture.height, encoded.palette, encoded.texels, std::max(1, h.mip_levels));
            std::copy(rebuilt.begin() + static_cast<int64_t>(pixels_at), rebuilt.end(), out.begin() + static_cast<int64_t>(pixels_at));
        } else {
            const Bytes stored = ps2_palette_bytes(encoded.palette);  // slot order is the identity for entries 0-7; 4-bit is not swizzled
            for (size_t i = 0; i < 16; ++i) {
                const uint64_t from = 4ull * ps2_palette_slot(static_cast<uint8_t>(i));
                std::copy(stored.begin() + static_cast<int64_t>(from), stored.begin() + static_cast<int64_t>(from + 4),
                          out.begin() + static_cast<int64_t>(palette_at + 4 * i));
            }
            for (uint64_t i = 0; i < pixels; i += 2)
                out[pixels_at + i / 2] = static_cast<uint8_t>(encoded.texels[i] << 4 | (encoded.texels[i + 1] & 0x0F));
        }
        return out;
    });
}

Result<Bytes> encode_rgba_like(ByteSpan old, const png::RgbaImage& picture) {
    return capture([&] {
        const auto parsed = read_rgba_header(old);
        if (!parsed.ok()) throw FormatFailure(parsed.error());
        if (picture.width != static_cast<uint32_t>(parsed->width) || picture.height != static_cast<uint32_t>(parsed->height))
            fail(Errc::bad_value, 0, fmt::format("the picture is {}x{}; this one must stay {}x{}", picture.width, picture.height, parsed->width,
                                                 parsed->height));
        Bytes out(old.begin(), old.begin() + static_cast<int64_t>(kRgbaHeaderSize));
        for (uint64_t i = 0; i < picture.rgba.size(); i += 4) {
            out.insert(out.end(), picture.rgba.begin() + static_cast<int64_t>(i), picture.rgba.begin() + static_cast<int64_t>(i + 3));
            const uint8_t a = picture.rgba[i + 3];
            out.push_back(a == 255 ? 0x80 : static_cast<uint8_t>(a / 2));  // §7: PS2 alpha, 0x80 opaque
        }
        return out;
    });
}

}  // namespace gcfs::formats::pif
