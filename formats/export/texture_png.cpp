#include "formats/export/texture_png.h"

#include "formats/core/core_tables.h"
#include "formats/export/png.h"

namespace gcfs::formats {

uint8_t ps2_alpha_to_png(uint8_t alpha) { return alpha >= 0x80 ? 0xFF : static_cast<uint8_t>(alpha * 2); }

uint64_t texture_png_size(const TextureEntry& t) {
    return png::indexed_size(static_cast<uint32_t>(std::max<int16_t>(t.width, 0)),
                             static_cast<uint32_t>(std::max<int16_t>(t.height, 0)));
}

std::array<png::Rgba, 256> ps2_palette(ByteSpan stored) {
    std::array<png::Rgba, 256> palette{};
    for (size_t i = 0; i < palette.size(); ++i) {
        const uint64_t at = 4ull * ps2_palette_slot(static_cast<uint8_t>(i));
        palette[i] = {stored[at], stored[at + 1], stored[at + 2], ps2_alpha_to_png(stored[at + 3])};
    }
    return palette;
}

Bytes indexed_texture_png(uint32_t width, uint32_t height, ByteSpan texels, ByteSpan stored) {
    return png::write_indexed(width, height, ps2_palette(stored), texels);
}

png::RgbaImage indexed_texture_rgba(uint32_t width, uint32_t height, ByteSpan texels, ByteSpan stored) {
    const auto palette = ps2_palette(stored);
    png::RgbaImage out{width, height, Bytes(uint64_t{width} * height * 4)};
    for (uint64_t i = 0; i < uint64_t{width} * height; ++i) {
        const png::Rgba& c = palette[texels[i]];
        out.rgba[4 * i] = c.r;
        out.rgba[4 * i + 1] = c.g;
        out.rgba[4 * i + 2] = c.b;
        out.rgba[4 * i + 3] = c.a;
    }
    return out;
}

Result<Bytes> texture_png(const TextureEntry& t, ByteSpan core, int32_t textures_base, ByteSpan gs_ram) {
    return capture([&] {
        if (const std::string problem = texture_problem(t, textures_base, core.size(), gs_ram.size()); !problem.empty())
            fail(Errc::out_of_range, static_cast<uint64_t>(std::max<int64_t>(0, int64_t{textures_base} + t.data_offset)),
                 "texture " + problem);
        const uint64_t pixels = static_cast<uint64_t>(t.width) * static_cast<uint64_t>(t.height);
        return indexed_texture_png(static_cast<uint32_t>(t.width), static_cast<uint32_t>(t.height),
                                   core.subspan(static_cast<uint64_t>(int64_t{textures_base} + t.data_offset), pixels),
                                   gs_ram.subspan(static_cast<uint64_t>(t.palette) * kPaletteUnit, 1024));
    });
}

}  // namespace gcfs::formats
