#include "formats/core/level_core.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace gcfs::formats {

Result<LevelCoreHeader> parse_level_core_header(ByteSpan b) {
    return capture([&] {
        require(b, 0, kLevelCoreHeaderSize, "level core header");
        LevelCoreHeader h;
        h.gs_ram = array_range_at(b, 0x00);
        h.tfrags = s32_at(b, 0x08);
        h.occlusion = s32_at(b, 0x0c);
        h.sky = s32_at(b, 0x10);
        h.collision = s32_at(b, 0x14);
        h.moby_classes = array_range_at(b, 0x18);
        h.tie_classes = array_range_at(b, 0x20);
        h.shrub_classes = array_range_at(b, 0x28);
        h.tfrag_textures = array_range_at(b, 0x30);
        h.moby_textures = array_range_at(b, 0x38);
        h.tie_textures = array_range_at(b, 0x40);
        h.shrub_textures = array_range_at(b, 0x48);
        h.part_textures = array_range_at(b, 0x50);
        h.fx_textures = array_range_at(b, 0x58);
        int32_t* scalars[] = {&h.textures_base_offset, &h.part_bank_offset, &h.fx_bank_offset,
                              &h.part_defs_offset, &h.sound_remap_offset, &h.unknown_74,
                              &h.ratchet_seqs, &h.scene_view_size, &h.index_into_some1_texs,
                              &h.moby_gs_stash_count, &h.assets_compressed_size, &h.assets_decompressed_size,
                              &h.chrome_map_texture, &h.chrome_map_palette, &h.glass_map_texture,
                              &h.glass_map_palette, &h.unknown_a0, &h.heightmap_offset,
                              &h.occlusion_oct_offset, &h.moby_gs_stash_list, &h.occlusion_rad_offset,
                              &h.moby_sound_remap_offset, &h.occlusion_rad2_offset};
        uint64_t at = 0x60;
        for (int32_t* field : scalars) {
            *field = s32_at(b, at);
            at += 4;
        }
        if (h.assets_compressed_size < static_cast<int32_t>(0x10))
            fail(Errc::bad_value, 0x88, fmt::format("core_data compressed size {} is below a WAD header", h.assets_compressed_size));
        if (h.assets_decompressed_size <= 0)
            fail(Errc::bad_value, 0x8c, fmt::format("core_data decompressed size {} is not positive", h.assets_decompressed_size));
        return h;
    });
}

void write_level_core_header(ByteWriter& w, const LevelCoreHeader& h) {
    put(w, h.gs_ram);
    w.s32(h.tfrags);
    w.s32(h.occlusion);
    w.s32(h.sky);
    w.s32(h.collision);
    for (const ArrayRange& r : {h.moby_classes, h.tie_classes, h.shrub_classes, h.tfrag_textures, h.moby_textures,
                                h.tie_textures, h.shrub_textures, h.part_textures, h.fx_textures})
        put(w, r);
    for (int32_t v : {h.textures_base_offset, h.part_bank_offset, h.fx_bank_offset, h.part_defs_offset,
                      h.sound_remap_offset, h.unknown_74, h.ratchet_seqs, h.scene_view_size,
                      h.index_into_some1_texs, h.moby_gs_stash_count, h.assets_compressed_size,
                      h.assets_decompressed_size, h.chrome_map_texture, h.chrome_map_palette, h.glass_map_texture,
                      h.glass_map_palette, h.unknown_a0, h.heightmap_offset, h.occlusion_oct_offset,
                      h.moby_gs_stash_list, h.occlusion_rad_offset, h.moby_sound_remap_offset,
                      h.occlusion_rad2_offset})
        w.s32(v);
}

ByteSpan core_index_block(ByteSpan idx, int32_t offset, uint64_t field, const char* name, uint64_t header_size, const char* what) {
    if (offset <= 0) fail(Errc::bad_value, field, fmt::format("{} {} (formats.md 6.1 0x{:X})", name, offset, field));
    require(idx, static_cast<uint64_t>(offset), header_size, what);
    return idx.subspan(static_cast<uint64_t>(offset));
}

std::vector<CoreHeaderField> core_header_fields(const LevelCoreHeader& h) {
    std::vector<CoreHeaderField> out;
    auto range = [&](const char* name, ArrayRange r) {
        out.push_back({fmt::format("{}.count", name), r.count});
        out.push_back({fmt::format("{}.offset", name), r.offset});
    };
    range("gs_ram", h.gs_ram);
    for (auto [name, v] : {std::pair{"tfrags", h.tfrags}, {"occlusion", h.occlusion}, {"sky", h.sky}, {"collision", h.collision}})
        out.push_back({name, v});
    for (auto [name, r] : {std::pair{"moby_classes", h.moby_classes}, {"tie_classes", h.tie_classes}, {"shrub_classes", h.shrub_classes},
                           {"tfrag_textures", h.tfrag_textures}, {"moby_textures", h.moby_textures}, {"tie_textures", h.tie_textures},
                           {"shrub_textures", h.shrub_textures}, {"part_textures", h.part_textures}, {"fx_textures", h.fx_textures}})
        range(name, r);
    for (auto [name, v] : {std::pair{"textures_base_offset", h.textures_base_offset}, {"part_bank_offset", h.part_bank_offset},
                           {"fx_bank_offset", h.fx_bank_offset}, {"part_defs_offset", h.part_defs_offset},
                           {"sound_remap_offset", h.sound_remap_offset}, {"unknown_74", h.unknown_74}, {"ratchet_seqs", h.ratchet_seqs},
                           {"scene_view_size", h.scene_view_size}, {"index_into_some1_texs", h.index_into_some1_texs},
                           {"moby_gs_stash_count", h.moby_gs_stash_count}, {"assets_compressed_size", h.assets_compressed_size},
                           {"assets_decompressed_size", h.assets_decompressed_size}, {"chrome_map_texture", h.chrome_map_texture},
                           {"chrome_map_palette", h.chrome_map_palette}, {"glass_map_texture", h.glass_map_texture},
                           {"glass_map_palette", h.glass_map_palette}, {"unknown_a0", h.unknown_a0}, {"heightmap_offset", h.heightmap_offset},
                           {"occlusion_oct_offset", h.occlusion_oct_offset}, {"moby_gs_stash_list", h.moby_gs_stash_list},
                           {"occlusion_rad_offset", h.occlusion_rad_offset}, {"moby_sound_remap_offset", h.moby_sound_remap_offset},
                           {"occlusion_rad2_offset", h.occlusion_rad2_offset}})
        out.push_back({name, v});
    return out;
}

namespace {

// §6.1 ArrayRange: (count, offset into IDX). Checks the whole table lies in
// IDX before anything is sized by the count; returns the entry count.
size_t checked_table(ByteSpan idx, ArrayRange range, uint64_t entry_size, const char* what) {
    if (range.count < 0) fail(Errc::bad_value, 0, fmt::format("{} count {} is negative", what, range.count));
    if (range.count == 0) return 0;
    if (range.offset < 0) fail(Errc::out_of_range, 0, fmt::format("{} offset {} is negative", what, range.offset));
    require(idx, static_cast<uint64_t>(range.offset), static_cast<uint64_t>(range.count) * entry_size, what);
    return static_cast<size_t>(range.count);
}

}  // namespace

Result<std::vector<ClassEntry>> parse_class_table(ByteSpan idx, ArrayRange range, uint64_t entry_size) {
    return capture([&] {
        std::vector<ClassEntry> entries(checked_table(idx, range, entry_size, "class table"));
        for (size_t i = 0; i < entries.size(); ++i) {
            const uint64_t at = static_cast<uint64_t>(range.offset) + i * entry_size;
            ClassEntry& e = entries[i];
            e = {s32_at(idx, at), s32_at(idx, at + 4), s32_at(idx, at + 8), s32_at(idx, at + 12), {}, {}};
            for (int t = 0; t < 16; ++t) e.textures[t] = u8_at(idx, at + 16 + t);
            if (entry_size == kShrubClassEntrySize)
                for (int b = 0; b < 8; ++b) e.billboard[b] = s16_at(idx, at + 0x20 + 2ull * b);
        }
        return entries;
    });
}

Result<std::vector<TextureEntry>> parse_texture_table(ByteSpan idx, ArrayRange range) {
    return capture([&] {
        std::vector<TextureEntry> entries(checked_table(idx, range, kTextureEntrySize, "texture table"));
        for (size_t i = 0; i < entries.size(); ++i) {
            const uint64_t at = static_cast<uint64_t>(range.offset) + i * kTextureEntrySize;
            entries[i] = {s32_at(idx, at),      s16_at(idx, at + 4),  s16_at(idx, at + 6), s16_at(idx, at + 8),
                          s16_at(idx, at + 10), s16_at(idx, at + 12), s16_at(idx, at + 14)};
        }
        return entries;
    });
}

std::set<uint64_t> block_boundaries(const LevelCoreHeader& h, const std::vector<int32_t>& class_offsets, ByteSpan core_index) {
    const uint64_t dat_size = static_cast<uint64_t>(std::max(h.assets_decompressed_size, 0));
    std::set<uint64_t> boundaries = {dat_size};
    auto add = [&](int32_t offset) {
        if (offset > 0 && static_cast<uint64_t>(offset) <= dat_size) boundaries.insert(static_cast<uint64_t>(offset));
    };
    boundaries.insert(static_cast<uint64_t>(std::max(h.tfrags, 0)));
    for (int32_t offset : {h.occlusion, h.sky, h.collision, h.textures_base_offset, h.moby_sound_remap_offset}) add(offset);
    for (int32_t c : class_offsets) add(c);
    if (h.ratchet_seqs > 0 && static_cast<uint64_t>(h.ratchet_seqs) + 4 * kRatchetSeqSlots <= core_index.size())
        for (uint64_t i = 0; i < kRatchetSeqSlots; ++i) add(s32_at(core_index, static_cast<uint64_t>(h.ratchet_seqs) + 4 * i));
    return boundaries;
}

Result<std::vector<CoreRegion>> core_regions(const LevelCoreHeader& h, const std::set<uint64_t>& boundaries) {
    return capture([&] {
        const uint64_t dat_size = static_cast<uint64_t>(h.assets_decompressed_size);
        struct Named { const char* name; int32_t offset; uint64_t field; };
        // tfrags is legitimately 0 (§6.1); occlusion and sky use 0 for "none".
        const Named ordered[] = {{"tfrag", h.tfrags, 0x08}, {"occlusion", h.occlusion, 0x0c},
                                 {"sky", h.sky, 0x10}, {"collision", h.collision, 0x14},
                                 {"textures", h.textures_base_offset, 0x60}};
        std::vector<Named> present;
        for (const auto& n : ordered) {
            if (n.offset == 0 && std::string_view(n.name) != "tfrag") continue;
            if (n.offset < 0 || static_cast<uint64_t>(n.offset) >= dat_size)
                fail(Errc::out_of_range, n.field,
                     fmt::format("{} offset {} lies outside the {}-byte core", n.name, n.offset, dat_size));
            if (!present.empty() && n.offset <= present.back().offset)
                fail(Errc::bad_value, n.field,
                     fmt::format("{} offset {} does not follow {} offset {}", n.name, n.offset,
                                 present.back().name, present.back().offset));
            present.push_back(n);
        }
        std::vector<CoreRegion> regions;
        for (const auto& n : present) {
            const uint64_t start = static_cast<uint64_t>(n.offset);
            const auto next = boundaries.upper_bound(start);
            regions.push_back({n.name, start, (next == boundaries.end() ? start : *next) - start});
        }
        return regions;
    });
}

CoreRegion class_extent(const std::set<uint64_t>& boundaries, int32_t offset, uint64_t dat_size, std::string name) {
    if (offset <= 0 || static_cast<uint64_t>(offset) >= dat_size) return {std::move(name), 0, 0};
    const auto next = boundaries.upper_bound(static_cast<uint64_t>(offset));
    if (next == boundaries.end()) return {std::move(name), static_cast<uint64_t>(offset), 0};
    return {std::move(name), static_cast<uint64_t>(offset), *next - static_cast<uint64_t>(offset)};
}

}  // namespace gcfs::formats
