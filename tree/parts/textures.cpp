#include <fmt/format.h>

#include "tree/parts/parts.h"
#include "tree/texture_file.h"

namespace gcfs::tree::parts {

// textures/tfrag_NNN.png: the tfrag texture table as pictures.
void textures(LevelFolder& f) {
    const LevelScan& level = f.level;
    if (!f.core || !level.core || !f.gs_ram) return;
    const auto& tfrag = level.texture_table("tfrag");
    if (tfrag.empty()) return;
    const uint64_t dir = f.directory(f.dir, "textures");
    for (size_t i = 0; i < tfrag.size(); ++i) {
        const uint64_t at = static_cast<uint64_t>(level.core->textures_base_offset) + static_cast<uint64_t>(tfrag[i].data_offset);
        f.file(dir, fmt::format("tfrag_{:03d}.png", i),
               std::make_shared<TextureFile>(f.cache(), f.core, f.gs_ram, tfrag[i], level.core->textures_base_offset),
               f.decoded(f.core_stream.offset, f.core_stream.available, LevelFolder::kWadLz + std::string(", then 8-bit indexed PNG"),
                         fmt::format("tfrag texture {}: core_data.bin [0x{:x}, +{}) with the 256-colour palette at "
                                     "gs_ram.bin 0x{:x} (formats.md 6.3)",
                                     i, at, static_cast<uint64_t>(tfrag[i].width) * static_cast<uint64_t>(tfrag[i].height),
                                     static_cast<uint64_t>(tfrag[i].palette) * formats::kPaletteUnit)));
    }
}

}  // namespace gcfs::tree::parts
