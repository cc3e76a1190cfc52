#include <fmt/format.h>

#include <tuple>

#include "tree/parts/parts.h"
#include "tree/texture_file.h"

namespace gcfs::tree::parts {

// textures/<table>_NNN.png: every texture table of the core as pictures
// (formats.md 6.3; ties A.6, shrubs 1.10 and mobies decode alike; particle
// and fx textures from their banks).
void textures(LevelFolder& f) {
    const LevelScan& level = f.level;
    if (!f.core || !level.core || !f.gs_ram) return;
    uint64_t dir = 0;
    for (const char* table : {"tfrag", "moby", "tie", "shrub"}) {
        const auto& entries = level.texture_table(table);
        if (entries.empty()) continue;
        if (!dir) dir = f.directory(f.dir, "textures");
        for (size_t i = 0; i < entries.size(); ++i) {
            const bool stashed = std::string_view(table) == "moby" && level.stashed_moby_rows.contains(i);
            if (stashed) {  // formats-moby.md §10.2: texels and palette both in gs_ram
                const uint64_t at = *level.moby_stash_address + static_cast<uint64_t>(entries[i].data_offset);
                f.file(dir, fmt::format("{}_{:03d}.png", table, i),
                       std::make_shared<TextureFile>(f.cache(), f.core, f.gs_ram, entries[i], level.core->textures_base_offset,
                                                     level.moby_stash_address),
                       f.decoded(0, 0, "8-bit indexed PNG",
                                 fmt::format("moby texture {}, stashed: gs_ram.bin [0x{:x}, +{}) with the palette at gs_ram.bin 0x{:x} "
                                             "(formats-moby.md 10.2)",
                                             i, at, static_cast<uint64_t>(entries[i].width) * static_cast<uint64_t>(entries[i].height),
                                             static_cast<uint64_t>(entries[i].palette) * formats::kPaletteUnit)));
                continue;
            }
            const uint64_t at = static_cast<uint64_t>(level.core->textures_base_offset) + static_cast<uint64_t>(entries[i].data_offset);
            f.file(dir, fmt::format("{}_{:03d}.png", table, i),
                   std::make_shared<TextureFile>(f.cache(), f.core, f.gs_ram, entries[i], level.core->textures_base_offset),
                   f.decoded(f.core_stream.offset, f.core_stream.available, LevelFolder::kWadLz + std::string(", then 8-bit indexed PNG"),
                             fmt::format("{} texture {}: core_data.bin [0x{:x}, +{}) with the 256-colour palette at gs_ram.bin 0x{:x} "
                                         "(formats.md 6.3)",
                                         table, i, at, static_cast<uint64_t>(entries[i].width) * static_cast<uint64_t>(entries[i].height),
                                         static_cast<uint64_t>(entries[i].palette) * formats::kPaletteUnit)));
        }
    }
    // Particle and fx textures: texels and palette in their banks (part_bank_offset, fx_bank_offset).
    for (auto [name, table, bank] : {std::tuple{"part", &level.particle_textures, level.core->part_bank_offset},
                                     std::tuple{"fx", &level.fx_textures, level.core->fx_bank_offset}})
        for (size_t i = 0; i < table->size(); ++i) {
            if (!dir) dir = f.directory(f.dir, "textures");
            const formats::BankTexture& t = (*table)[i];
            f.file(dir, fmt::format("{}_{:03d}.png", name, i), std::make_shared<BankTextureFile>(f.cache(), f.core, t, bank),
                   f.decoded(f.core_stream.offset, f.core_stream.available, LevelFolder::kWadLz + std::string(", then 8-bit indexed PNG"),
                             fmt::format("{} texture {}: core_data.bin [0x{:x}, +{}) with its palette at core_data.bin 0x{:x} "
                                         "(formats.md 6.1; fields as Wrench reads them)",
                                         name, i, int64_t{bank} + t.texels, int64_t{t.width} * t.height, int64_t{bank} + t.palette)));
        }
}

}  // namespace gcfs::tree::parts
