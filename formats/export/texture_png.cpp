#include "formats/export/texture_png.h"

#include "formats/core/core_tables.h"
#include "formats/export/png.h"

namespace gcfs::formats {

uint8_t ps2_alpha_to_png(uint8_t alpha) { return alpha >= 0x80 ? 0xFF : static_cast<uint8_t>(alpha * 2); }

uint64_t texture_png_size(const TextureEntry& t) {
    return png::indexed_size(static_cast<uint32_t>(std::max<int16_t>(t.width, 0)),
                             static_cast<uint32_t>(std::max<int16_t>(t.height, 0)));
}

Result<Bytes> texture_png(const TextureEntry& t, ByteSpan core, int32_t textures_base, ByteSpan gs_ram) {
    return capture([&] {
        if (const std::string problem = texture_problem(t, textures_base, core.size(), gs_ram.size()); !problem.empty())
            fail(Errc::out_of_range, static_cast<uint64_t>(std::max<int64_t>(0, int64_t{textures_base} + t.data_offset)),
                 "texture " + problem);
        const uint64_t palette_at = static_cast<uint64_t>(t.palette) * kPaletteUnit;
        std::array<png::Rgba, 256> palette{};
        for (size_t i = 0; i < palette.size(); ++i) {
            const uint64_t at = palette_at + 4 * i;
            palette[i] = {gs_ram[at], gs_ram[at + 1], gs_ram[at + 2], ps2_alpha_to_png(gs_ram[at + 3])};
        }
        const uint64_t pixels = static_cast<uint64_t>(t.width) * static_cast<uint64_t>(t.height);
        return png::write_indexed(static_cast<uint32_t>(t.width), static_cast<uint32_t>(t.height), palette,
                                  core.subspan(static_cast<uint64_t>(int64_t{textures_base} + t.data_offset), pixels));
    });
}

}  // namespace gcfs::formats
