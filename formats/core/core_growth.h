// Room made inside a level core's DAT (formats.md §6.2: no block stores its
// size, each ends at the next boundary): `growth` zero bytes inserted at DAT
// offset `at`, and every field that places something at or past `at` moved
// with it, so every block keeps its bytes and every reader finds them. The
// block that ends at `at` may then fill the room.
//
// Moved: the core header's DAT offsets (§6.1 0x08 tfrags, 0x0C occlusion,
// 0x10 sky, 0x14 collision, 0x60 textures_base_offset, 0x64 part_bank_offset,
// 0x68 fx_bank_offset), its DAT sizes (0x7C scene_view_size, the DAT size
// after the classes; 0x8C assets_decompressed_size), every class entry's
// offset_in_asset_wad (§6.3) and the ratchet-seq table's DAT offsets (0x78).
// Texture rows count from textures_base_offset and the particle and fx
// banks' rows from their banks (§6.3), so they follow their bases; IDX does
// not change size. Refused, naming the field: a set header field whose
// target the references do not place (0xA4 heightmap_offset, 0xA8
// occlusion_oct_offset, 0xB0 occlusion_rad_offset, 0xB8
// occlusion_rad2_offset; 0xB4 moby_sound_remap_offset, a DAT boundary in
// §6.2 but an IDX offset in Wrench's packer), since moving what follows
// might break what it points at.
#pragma once

#include <cstdint>

#include "formats/common/bytes.h"
#include "formats/common/error.h"

namespace gcfs::formats {

// Wrench aligns the shared textures and the particle and fx banks to 0x100
// in DAT (level_textures.cpp), the classes to 0x40: a growth of whole
// 0x100s keeps every block where its alignment wants it.
constexpr uint64_t kCoreGrowthAlign = 0x100;

// `core_index` is IDX (the core header first), `dat` the decoded core_data.
// Both are changed only when it succeeds.
Result<bool> grow_core(Bytes& core_index, Bytes& dat, uint64_t at, uint64_t growth);

}  // namespace gcfs::formats
