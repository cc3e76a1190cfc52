#include "tree/level/core_blocks.h"

#include <fmt/format.h>

namespace gcfs::tree {

using namespace formats;

void scan_core_blocks(LevelScan& level) {
    const LevelCoreHeader& core = *level.core;
    const auto dat_size = static_cast<uint64_t>(std::max(core.assets_decompressed_size, 0));

    if (core.part_defs_offset == 0) {
        level.checks.push_back({"particle definitions", true, "none: part_defs_offset is 0 (formats.md 6.1 0x6C)"});
    } else if (auto defs = particles::parse_particle_defs(level.core_index, core.part_defs_offset, level.particle_textures.size()); !defs.ok()) {
        level.particle_defs_error = "core_index " + defs.error().describe();
        level.checks.push_back({"particle definitions", false, level.particle_defs_error});
    } else {
        size_t bad = 0;
        std::string first;
        for (const auto& p : defs->particles)
            if (!p.error.empty() && bad++ == 0) first = p.error;
        level.checks.push_back({"particle definitions", bad == 0,
                                bad == 0 ? fmt::format("{} particles of {} slots, every frame a part_textures row (formats-globals.md 13)",
                                                       defs->particles.size(), defs->particle_count)
                                         : fmt::format("{} of {} particles cannot be shown; {}", bad, defs->particles.size(), first)});
        level.particle_defs = std::move(*defs);
    }

    if (core.sound_remap_offset == 0) {
        level.checks.push_back({"sound remap", true, "none: sound_remap_offset is 0 (formats.md 6.1 0x70)"});
    } else if (auto remap = parse_sound_remap(level.core_index, core.sound_remap_offset); !remap.ok()) {
        level.sound_remap_error = "core_index " + remap.error().describe();
        level.checks.push_back({"sound remap", false, level.sound_remap_error});
    } else {
        level.checks.push_back({"sound remap", true,
                                fmt::format("{} elements, {} bytes to the last element's end (formats-globals.md 13)", remap->elements.size(),
                                            remap->size)});
        level.sound_remap = std::move(*remap);
    }

    if (core.ratchet_seqs == 0) {
        level.checks.push_back({"ratchet sequences", true, "none: ratchet_seqs is 0 (formats.md 6.1 0x78)"});
    } else if (auto seqs = parse_ratchet_seqs(level.core_index, core.ratchet_seqs, level.boundaries, dat_size); !seqs.ok()) {
        level.checks.push_back({"ratchet sequences", false, "core_index " + seqs.error().describe()});
    } else {
        level.checks.push_back({"ratchet sequences", true,
                                fmt::format("{} of 256 slots set, each inside core_data (formats-globals.md 13)", seqs->size())});
        level.ratchet_seqs = std::move(*seqs);
    }
}

}  // namespace gcfs::tree
