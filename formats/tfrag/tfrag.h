// Tfrag terrain patches (formats.md §7): the block header, the 0x40-byte patch
// headers, the five VIF lists and the tail arrays.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::formats {

constexpr uint64_t kTfragsHeaderSize = 0x10;  // §7.1 (the seed's 12 bytes missed +0xC)
constexpr uint64_t kTfragTableOffset = 0x40;  // §7.1: Wrench writes 0x40, the seed saw it everywhere
constexpr uint64_t kTfragHeaderSize = 0x40;   // §7.2
constexpr uint32_t kVuMemoryEnd = 0x148;      // §7.9: allocations must end at or below

// Tier of a position / vertex-info array (§7.5: concatenated common ‖ lod01 ‖ lod0).
enum Tier { kCommon = 0, kLod01 = 1, kLod0 = 2 };

struct TfragPosition { int16_t x = 0, y = 0, z = 0; };
struct TfragVertexInfo { int16_t s = 0, t = 0, parent = 0, vertex = 0; };  // vertex = 2 × position index
struct TfragStrip { int8_t x = 0, y = 0, z = 0, pad = 0; };              // §7.5 raw record
struct TfragLight { int8_t unknown = 0, intensity = 0, azimuth = 0, elevation = 0; int16_t colour = 0, pad = 0; };
struct TfragRgba { uint8_t r = 0, g = 0, b = 0, a = 0; };

// Strips and indices of one LOD, stored by LOD number, never by arrival (§7.7).
struct TfragLodData {
    std::vector<TfragStrip> strips;  // terminated by a zero-count record
    std::vector<uint8_t> indices;    // into that LOD's concatenated vertex infos
};

// Everything a patch holds, in the units the disc stores.
struct TfragPatch {
    std::array<float, 4> bsphere{};
    std::array<int32_t, 4> base{};  // §7.6: the per-patch origin (STROW base position)
    std::array<std::vector<TfragPosition>, 3> positions;      // by Tier
    std::array<std::vector<TfragVertexInfo>, 3> vertex_info;  // by Tier
    std::array<std::vector<uint8_t>, 2> parent_indices;       // LOD01, LOD0 (optional; into vertex infos, §7.5)
    std::array<std::vector<uint8_t>, 2> unknown_indices_2;    // LOD01, LOD0 (optional; meaning open, §12 item 6)
    std::array<TfragLodData, 3> lods;                         // by LOD number 0, 1, 2
    std::vector<int32_t> textures;                            // TEX0.data_lo per ad-gif (§7.5)
    std::vector<TfragRgba> rgba;                              // one per position
    std::vector<TfragLight> lights;                           // one per position
    uint16_t occl_index = 0;
    uint16_t mip_dist = 0;
    uint8_t vert_count = 0;  // header copies (§7.2); the writer fills them from the lists
    uint8_t tri_count = 0;
};

// Synthetic-disc knob: wrap extra VIF commands (STMASK, STCOL, MPG, DIRECT,
// MARK, ITOP, FLUSH) into the LOD-1 list so the walker meets every payload
// kind. Retail tfrags are not known to contain them (formats.md is silent).
struct TfragWriteOptions {
    bool exotic_vif_codes = false;
    // §7.1's two header fields whose meaning is open, passed through: an
    // import keeps the level's own.
    float thingy = 32.0f;  // the seed's "LOD distance", 32.0 on every retail level
    uint32_t mysterious_second_thingy = 0;
};

// Writes a whole tfrags block: 16-byte header, zero pad to 0x40, the patch
// table, then each patch's data padded to 0x10 (§7.1, §7.10).
Bytes write_tfrags(const std::vector<TfragPatch>& patches, const TfragWriteOptions& options = {});

// Triangles a LOD's strips form (§7.8): sum of (n - 2) over its strips.
uint32_t strip_triangle_count(const std::vector<TfragStrip>& strips);

}  // namespace gcfs::formats
