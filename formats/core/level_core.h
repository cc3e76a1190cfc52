// The level core: header and index tables in core_index (IDX), regions in the
// decompressed core_data (DAT). formats.md §6.
#pragma once

#include <array>
#include <set>
#include <string>
#include <vector>

#include "formats/common/ranges.h"

namespace gcfs::formats {

constexpr uint64_t kLevelCoreHeaderSize = 0xBC;
constexpr uint64_t kClassEntrySize = 0x20;        // §6.3 moby / tie
constexpr uint64_t kShrubClassEntrySize = 0x30;   // §6.3 shrub
constexpr uint64_t kTextureEntrySize = 0x10;      // §6.3
constexpr uint64_t kRatchetSeqSlots = 256;        // §6.1 0x78: s32 offsets into DAT

struct LevelCoreHeader {
    ArrayRange gs_ram;
    int32_t tfrags = 0, occlusion = 0, sky = 0, collision = 0;
    ArrayRange moby_classes, tie_classes, shrub_classes;
    ArrayRange tfrag_textures, moby_textures, tie_textures, shrub_textures, part_textures, fx_textures;
    int32_t textures_base_offset = 0, part_bank_offset = 0, fx_bank_offset = 0;
    int32_t part_defs_offset = 0, sound_remap_offset = 0, unknown_74 = 0, ratchet_seqs = 0, scene_view_size = 0;
    int32_t index_into_some1_texs = 0, moby_gs_stash_count = 0;
    int32_t assets_compressed_size = 0, assets_decompressed_size = 0;
    int32_t chrome_map_texture = 0, chrome_map_palette = 0, glass_map_texture = 0, glass_map_palette = 0;
    int32_t unknown_a0 = 0, heightmap_offset = 0, occlusion_oct_offset = 0, moby_gs_stash_list = 0;
    int32_t occlusion_rad_offset = 0, moby_sound_remap_offset = 0, occlusion_rad2_offset = 0;
};

Result<LevelCoreHeader> parse_level_core_header(ByteSpan core_index);
void write_level_core_header(ByteWriter& out, const LevelCoreHeader& header);
// Every field of the header in §6.1's order, named as there (a range's two
// words as "<name>.count" and "<name>.offset"), for info.json.
struct CoreHeaderField {
    std::string name;
    int32_t value = 0;
};
std::vector<CoreHeaderField> core_header_fields(const LevelCoreHeader& header);

// The bytes of core_index from the block a header field points at (field
// offset `field`, named `name`), after checking the offset is set and the
// block's `header_size`-byte header lies inside: formats-globals.md §13's
// blocks begin this way.
ByteSpan core_index_block(ByteSpan core_index, int32_t offset, uint64_t field, const char* name, uint64_t header_size, const char* what);

// §6.3 MobyClassEntry / TieClassEntry / ShrubClassEntry (first 0x20 bytes shared).
struct ClassEntry {
    int32_t offset_in_asset_wad = 0;  // into DAT; 0 = no model data
    int32_t o_class = 0;
    int32_t unknown_8 = 0, unknown_c = 0;
    std::array<uint8_t, 16> textures{};  // indices into that class type's texture table
    // Shrubs only (0x30-byte entries): texture_width, texture_height, max_mip,
    // palette_offset, texture_offset, mip1, mip2, mip3 (offsets in 0x100 units).
    std::array<int16_t, 8> billboard{};
};
// Reads `range.count` entries of `entry_size` at `range.offset` in IDX; the
// count is checked against the bytes available before anything is allocated.
Result<std::vector<ClassEntry>> parse_class_table(ByteSpan core_index, ArrayRange range, uint64_t entry_size);

// §6.3 TextureEntry (0x10): pixels are 8-bit indices, width × height bytes at
// textures_base_offset + data_offset in DAT; the 256-entry RGBA32 palette is at
// gs_ram + palette × 0x100.
struct TextureEntry {
    int32_t data_offset = 0;
    int16_t width = 0, height = 0, type = 0, palette = 0, mipmap = -1, pad = -1;
};
Result<std::vector<TextureEntry>> parse_texture_table(ByteSpan core_index, ArrayRange range);

// A named region of DAT, [offset, offset + size).
struct CoreRegion {
    std::string name;  // "tfrag", "occlusion", "sky", "collision", "textures"
    uint64_t offset;
    uint64_t size;
};

// §6.2 (formats-tie-sky.md A.1, formats-shrub.md §1.1): every offset a block
// or class can end at: the region offsets, the decompressed size, each class's
// offset_in_asset_wad, moby_sound_remap_offset if set, and each positive entry
// of the 256-entry ratchet-seq table in IDX (skipped when it does not fit).
std::set<uint64_t> block_boundaries(const LevelCoreHeader& header, const std::vector<int32_t>& class_offsets, ByteSpan core_index);

// §6.1/§6.2: the header offsets must strictly increase in DAT order and lie
// inside the decompressed size; a region ends at the next block boundary.
Result<std::vector<CoreRegion>> core_regions(const LevelCoreHeader& header, const std::set<uint64_t>& boundaries);

// A.1 item 2-3: a class at `offset` runs to the smallest boundary above it;
// empty when the offset is 0 (no model), outside DAT, or nothing follows.
CoreRegion class_extent(const std::set<uint64_t>& boundaries, int32_t offset, uint64_t dat_size, std::string name);

}  // namespace gcfs::formats
