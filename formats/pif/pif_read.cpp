#include <fmt/format.h>

#include <cstring>

#include "formats/export/texture_png.h"
#include "formats/pif/pif.h"

namespace gcfs::formats::pif {

uint64_t Header::data_size() const {
    const uint64_t palette = 4ull * colours();
    uint64_t pixels = 0;
    for (int level = 0; level < std::max(1, mip_levels) && (width >> level) > 0 && (height >> level) > 0; ++level)
        pixels += static_cast<uint64_t>(width >> level) * static_cast<uint64_t>(height >> level);
    return kHeaderSize + palette + (eight_bit() ? pixels : pixels / 2);
}

Result<Header> read_header(ByteSpan pif) {
    return capture([&]() -> Header {
        require(pif, 0, kHeaderSize, "PIF header");
        if (std::memcmp(pif.data(), "2FIP", 4) != 0) fail(Errc::bad_magic, 0, "PIF has no 2FIP magic");
        Header h{s32_at(pif, 4), s32_at(pif, 8), s32_at(pif, 12), s32_at(pif, 16), s32_at(pif, 20), s32_at(pif, 24), s32_at(pif, 28)};
        if (h.format != kFormat8 && h.format != kFormat4)
            fail(Errc::bad_value, 16, fmt::format("PIF format 0x{:x} (0x13 and 0x94 are known)", h.format));
        if (h.width < 1 || h.width > kMaxSide || h.height < 1 || h.height > kMaxSide)
            fail(Errc::bad_value, 8, fmt::format("PIF of {}x{} pixels (1-{} a side)", h.width, h.height, kMaxSide));
        if (!h.eight_bit() && (static_cast<int64_t>(h.width) * h.height) % 2)
            fail(Errc::bad_value, 8, fmt::format("4-bit PIF of {}x{}: an odd number of pixels", h.width, h.height));
        if (h.mip_levels < 0) fail(Errc::bad_value, 28, fmt::format("PIF declares {} mip levels", h.mip_levels));
        return h;
    });
}

uint64_t png_size(const Header& h) {
    return png::indexed_size(static_cast<uint32_t>(h.width), static_cast<uint32_t>(h.height), h.colours());
}

Result<Bytes> to_png(ByteSpan pif) {
    return capture([&]() -> Bytes {
        const auto parsed = read_header(pif);
        if (!parsed.ok()) throw FormatFailure(parsed.error());
        const Header& h = *parsed;
        if (pif.size() < h.data_size())
            fail(Errc::truncated, pif.size(),
                 fmt::format("PIF of {}x{} with {} mip levels needs {} bytes, {} are there", h.width, h.height, std::max(1, h.mip_levels),
                             h.data_size(), pif.size()));
        const auto w = static_cast<uint32_t>(h.width), ht = static_cast<uint32_t>(h.height);
        const ByteSpan palette = pif.subspan(kHeaderSize, 4ull * h.colours());
        const ByteSpan pixels = pif.subspan(kHeaderSize + palette.size());
        if (h.eight_bit()) return indexed_texture_png(w, ht, pixels.first(uint64_t{w} * ht), palette);
        std::array<png::Rgba, 16> colours{};
        for (size_t i = 0; i < colours.size(); ++i)
            colours[i] = {palette[4 * i], palette[4 * i + 1], palette[4 * i + 2], ps2_alpha_to_png(palette[4 * i + 3])};
        Bytes indices(uint64_t{w} * ht);
        for (uint64_t i = 0; i < indices.size(); ++i) indices[i] = i % 2 ? pixels[i / 2] & 0x0F : pixels[i / 2] >> 4;
        return png::write_indexed(w, ht, colours, indices);
    });
}

Result<std::vector<ByteRange>> read_texture_list(ByteSpan list) { return read_texture_list(list, list.size()); }

Result<std::vector<ByteRange>> read_texture_list(ByteSpan list, uint64_t list_size) {
    return capture([&]() -> std::vector<ByteRange> {
        const int32_t count = s32_at(list, 0);
        if (count < 0 || count >= kMaxTextures)
            fail(Errc::too_large, 0, fmt::format("texture list of {} textures (fewer than 0x1000)", count));
        require(list, 4, 4ull * static_cast<uint64_t>(count), "texture list offsets");
        std::vector<ByteRange> textures;
        for (int32_t i = 0; i < count; ++i) {
            const int32_t at = s32_at(list, 4 + 4ull * static_cast<uint64_t>(i));
            const int64_t end = i + 1 < count ? s32_at(list, 4 + 4ull * static_cast<uint64_t>(i + 1)) : static_cast<int64_t>(list_size);
            if (at % 0x10 || at < 4 + 4 * count || end < at || end > static_cast<int64_t>(list_size))
                fail(Errc::out_of_range, 4 + 4ull * static_cast<uint64_t>(i),
                     fmt::format("texture {} at 0x{:x}..0x{:x} of a {}-byte list (0x10-aligned, after the offsets, ascending)", i, at, end,
                                 list_size));
            textures.push_back({at, static_cast<int32_t>(end - at)});
        }
        return textures;
    });
}

Result<RgbaHeader> read_rgba_header(ByteSpan image) {
    return capture([&]() -> RgbaHeader {
        require(image, 0, kRgbaHeaderSize, "RGBA image header");
        const RgbaHeader h{s32_at(image, 0), s32_at(image, 4)};
        if (h.width < 1 || h.width > kMaxSide || h.height < 1 || h.height > kMaxSide)
            fail(Errc::bad_value, 0, fmt::format("RGBA image of {}x{} pixels (1-{} a side)", h.width, h.height, kMaxSide));
        return h;
    });
}

uint64_t rgba_png_size(const RgbaHeader& h) { return png::rgba_size(static_cast<uint32_t>(h.width), static_cast<uint32_t>(h.height)); }

Result<Bytes> rgba_to_png(ByteSpan image) {
    return capture([&]() -> Bytes {
        const auto parsed = read_rgba_header(image);
        if (!parsed.ok()) throw FormatFailure(parsed.error());
        const uint64_t pixels = static_cast<uint64_t>(parsed->width) * static_cast<uint64_t>(parsed->height);
        require(image, kRgbaHeaderSize, 4 * pixels, "RGBA image pixels");
        std::vector<png::Rgba> rgba(pixels);
        for (uint64_t i = 0; i < pixels; ++i) {
            const uint8_t* p = image.data() + kRgbaHeaderSize + 4 * i;
            rgba[i] = {p[0], p[1], p[2], ps2_alpha_to_png(p[3])};
        }
        return png::write_rgba(static_cast<uint32_t>(parsed->width), static_cast<uint32_t>(parsed->height), rgba);
    });
}

}  // namespace gcfs::formats::pif
