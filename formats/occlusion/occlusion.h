// The level core's occlusion grid (formats.md §8.1): a sparse z/y/x tree of
// octants, each naming a 128-byte visibility mask. Parsed to a summary.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/common/error.h"

namespace gcfs::formats {

constexpr uint64_t kOcclusionMaskSize = 128;

struct OcclusionSummary {
    int32_t masks_offset = 0;
    uint16_t z_coord = 0, z_count = 0;
    uint64_t z_nodes = 0, y_nodes = 0;
    uint64_t octants = 0;      // x entries naming a mask
    uint64_t empty_octants = 0;  // x entries of 0xFFFF
    uint64_t masks = 0;        // highest mask index + 1
};

// Checks every node offset (u16 × 4) and every mask index against the block:
// nodes lie before the masks, and masks_offset + 128 × masks fits.
Result<OcclusionSummary> parse_occlusion(ByteSpan block);

}  // namespace gcfs::formats

namespace gcfs::formats {

// The grid with bits `show` set and bits `clear` cleared in every mask
// (bit b: byte b >> 3, bit b & 7, as Wrench's wrenchvis packs them), the
// rest as it was. Fails as parse_occlusion does, or on a bit past 1023.
Result<Bytes> with_bits_everywhere(ByteSpan grid, const std::set<int32_t>& show, const std::set<int32_t>& clear);

}  // namespace gcfs::formats

namespace gcfs::formats {

// The whole grid as the game looks it up: the mask each octant names, and
// the masks. An octant is a 4×4×4 cube of the world: its coordinates times
// 4 are world coordinates (Wrench's asset schema, occlusion octants);
// formats.md §8.1 stores them as u16.
struct OcclusionGrid {
    using Octant = std::array<uint16_t, 3>;  // x, y, z
    std::map<Octant, uint16_t> octants;      // -> mask index
    std::vector<std::array<uint8_t, kOcclusionMaskSize>> masks;
};

// Every octant with a mask, and every mask (parse_occlusion's checks first).
Result<OcclusionGrid> read_occlusion_grid(ByteSpan block);

// §8.1 as Wrench's writer lays it out: the root, the z nodes, the y nodes,
// each 4-aligned, then the masks 16-aligned; a gap in a row is 0xFFFF (x)
// or 0 (z, y). Fails when a node offset passes the u16 that holds it.
Result<Bytes> write_occlusion_grid(const OcclusionGrid& grid);

}  // namespace gcfs::formats
