#include <fmt/format.h>

#include <tuple>

#include "tree/parts/parts.h"
#include "tree/level/texture_file.h"

namespace gcfs::tree::parts {
namespace {

// The core ranges the level's textures read (those whose ranges check out):
// each table texture's texels, and each bank whole (its textures' texels and
// palettes: a particle's animation reads several of them). Null when no
// texture is in the core.
std::shared_ptr<const TexelRegions> texel_regions(LevelFolder& f) {
    const LevelScan& level = f.level;
    const uint64_t core_size = f.core->size(), gs_ram_size = f.gs_ram->size();
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    for (const char* table : {"tfrag", "moby", "tie", "shrub"}) {
        const auto& entries = level.texture_table(table);
        for (size_t i = 0; i < entries.size(); ++i) {
            const formats::TextureEntry& e = entries[i];
            if (level.stashed_row(table, i)) continue;
            if (!formats::texture_problem(e, level.core->textures_base_offset, core_size, gs_ram_size).empty()) continue;
            const auto at = static_cast<uint64_t>(int64_t{level.core->textures_base_offset} + e.data_offset);
            ranges.emplace_back(at, at + static_cast<uint64_t>(e.width) * static_cast<uint64_t>(e.height));
        }
    }
    for (auto [table, bank] : {std::pair{&level.particle_textures, level.core->part_bank_offset},
                               std::pair{&level.fx_textures, level.core->fx_bank_offset}}) {
        uint64_t from = core_size, to = 0;
        for (const formats::BankTexture& t : *table) {
            if (!formats::bank_texture_problem(t, bank, core_size).empty()) continue;
            const auto [first, end] = formats::bank_texture_span(t, bank);
            from = std::min(from, first);
            to = std::max(to, end);
        }
        if (from < to) ranges.emplace_back(from, to);
    }
    if (ranges.empty()) return nullptr;
    return std::make_shared<TexelRegions>(f.core, f.image(), f.cache(), f.core_stream, std::move(ranges));
}

}  // namespace

// textures/<table>_NNN.png: every texture table of the core as pictures
// (formats.md 6.3; ties A.6, shrubs 1.10 and mobies decode alike; particle
// and fx textures from their banks).
void textures(LevelFolder& f) {
    const LevelScan& level = f.level;
    if (!f.core || !level.core || !f.gs_ram) return;
    f.texels = texel_regions(f);
    uint64_t dir = 0;
    for (const char* table : {"tfrag", "moby", "tie", "shrub"}) {
        const auto& entries = level.texture_table(table);
        if (entries.empty()) continue;
        if (!dir) dir = f.directory(f.dir, "textures");
        for (size_t i = 0; i < entries.size(); ++i) {
            if (level.stashed_row(table, i)) {  // formats-moby.md §10.2: texels and palette both in gs_ram
                const uint64_t at = *level.moby_stash_address + static_cast<uint64_t>(entries[i].data_offset);
                const uint64_t texels = static_cast<uint64_t>(entries[i].width) * static_cast<uint64_t>(entries[i].height);
                const uint64_t palette = static_cast<uint64_t>(entries[i].palette) * formats::kPaletteUnit;
                f.file(dir, fmt::format("{}_{:03d}.png", table, i),
                       std::make_shared<TextureFile>(f.cache(), f.core, nullptr, f.gs_ram, entries[i],
                                                     level.core->textures_base_offset, level.moby_stash_address),
                       f.from_gs_ram(std::min(at, palette), std::max(at + texels, palette + formats::kPaletteBytes), "8-bit indexed PNG",
                                 fmt::format("moby texture {}, stashed: gs_ram.bin [0x{:x}, +{}) with the palette at gs_ram.bin 0x{:x} "
                                             "(formats-moby.md 10.2)",
                                             i, at, static_cast<uint64_t>(entries[i].width) * static_cast<uint64_t>(entries[i].height),
                                             static_cast<uint64_t>(entries[i].palette) * formats::kPaletteUnit)));
                continue;
            }
            const uint64_t at = static_cast<uint64_t>(level.core->textures_base_offset) + static_cast<uint64_t>(entries[i].data_offset);
            f.file(dir, fmt::format("{}_{:03d}.png", table, i),
                   std::make_shared<TextureFile>(f.cache(), f.core, f.texel_region(at, at + uint64_t(entries[i].width) * uint64_t(entries[i].height)),
                                                 f.gs_ram, entries[i], level.core->textures_base_offset),
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
            f.file(dir, fmt::format("{}_{:03d}.png", name, i), std::make_shared<BankTextureFile>(f.cache(), f.core, f.texel_region(formats::bank_texture_span(t, bank)), t, bank),
                   f.decoded(f.core_stream.offset, f.core_stream.available, LevelFolder::kWadLz + std::string(", then 8-bit indexed PNG"),
                             fmt::format("{} texture {}: core_data.bin [0x{:x}, +{}) with its palette at core_data.bin 0x{:x} "
                                         "(formats.md 6.1; fields as Wrench reads them)",
                                         name, i, int64_t{bank} + t.texels, int64_t{t.width} * t.height, int64_t{bank} + t.palette)));
        }
}

std::map<std::string, std::shared_ptr<const Source>> texture_files(LevelFolder& f) {
    std::map<std::string, std::shared_ptr<const Source>> out;
    if (const auto textures = f.tree.lookup(f.dir, "textures"))
        f.tree.for_each_child(*textures, 0, [&](const std::string& name, uint64_t ino, NodeType type) {
            if (type == NodeType::file) out[name] = f.tree.node(ino)->source;
            return true;
        });
    return out;
}

}  // namespace gcfs::tree::parts
