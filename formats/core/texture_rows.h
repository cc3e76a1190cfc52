// A new row in one of the level core's texture tables (formats.md §6.3), laid
// out as Wrench's packer lays every regular texture (level_textures.cpp ::
// write_shared_level_textures, write_level_texture_table):
// - the texels, 0x100-aligned, at the end of DAT's shared-texture region
//   (room made with grow_core, so what follows moves and keeps its bytes);
// - in the GS-RAM lump, 0x100-aligned: the 256-colour palette (a GsRamEntry
//   {psm 0 RGBA32, 0, 0, offset, offset}) and the quarter-size mip, every
//   fourth texel of every fourth row (a GsRamEntry {psm 0x13 IDTEX8, w/4,
//   h/4, offset, offset}); appended after what the lump holds, the moby
//   stash included, and their table entries put before the stash's
//   entries, which formats-moby.md §10.2 reads after gs_ram.count;
// - the TextureEntry {data_offset, w, h, type 3, palette/0x100,
//   mip/0x100, −1} at the end of its table.
// IDX grows in the middle, so every header field that places something in
// IDX past the insertion moves with it (grow_index).
#pragma once

#include <cstdint>

#include "formats/common/bytes.h"
#include "formats/common/error.h"

namespace gcfs::formats {

enum class TextureTable { tfrag, moby, tie, shrub };

// §6.3 header fields of each table's ArrayRange.
uint64_t texture_table_field(TextureTable table);

// `growth` (whole 0x10s, as IDX's tables are aligned) zero bytes inserted in
// IDX at `at`; every IDX offset the core header holds (§6.1: the ranges at
// 0x00 and 0x18-0x58, 0x6C part defs, 0x70 sound remap, 0x78 ratchet seqs,
// 0xAC moby stash list) at or past `at` moves, except the range at header
// field `kept` (the table that grows in place). Refused when a field whose
// buffer the references do not give is set (0x74 unknown_74, 0xB4
// moby_sound_remap_offset): it might point past `at`.
Result<bool> grow_index(Bytes& core_index, uint64_t at, uint64_t growth, uint64_t kept);

// The texels of a new row: `texels` are width × height palette indices,
// `palette` the 1024 stored bytes (PS2 slot order and alpha).
struct NewTextureRow {
    uint32_t width = 0, height = 0;
    Bytes texels;
    Bytes palette;
};

// The sides a new row may have: powers of two from 8 (Wrench's mip maker
// refuses less, core/texture.cpp :: generate_mipmaps) up to 1024 (the
// GS's largest texture; the references do not state one, so this is
// gcfs's bound).
constexpr uint32_t kNewTextureMinSide = 8, kNewTextureMaxSide = 1024;

// Adds `row` to `table`, changing the three buffers only when it succeeds;
// returns the row's index in its table.
Result<size_t> add_texture_row(Bytes& core_index, Bytes& dat, Bytes& gs_ram, TextureTable table, const NewTextureRow& row);

}  // namespace gcfs::formats
