// The level core's collision block (formats.md §8.3): an 8-byte header, the
// main mesh as a z/y/x tree over 4×4×4 octants, and optional hero groups.
// Reader and writer; both keep the packed integers, so a round trip is exact.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/common/error.h"

namespace gcfs::formats {

constexpr uint64_t kCollisionHeaderSize = 8;  // s32 mesh, s32 hero_groups
constexpr int32_t kOctantEdge = 4;            // world units per octant edge

struct CollisionFace {
    std::array<uint8_t, 4> v{};  // v[3] only when `quad`
    uint8_t type = 0;            // surface type; its meanings are not in formats.md
    bool quad = false;
};

struct CollisionOctant {
    std::array<int32_t, 3> coord{};  // x, y, z octant coordinates
    // Packed vertex fields relative to the octant centre: x and y in 1/16
    // units (10 signed bits), z in 1/64 units (12 signed bits).
    std::vector<std::array<int16_t, 3>> vertices;
    std::vector<CollisionFace> faces;  // as stored: the quads first
};

struct HeroGroup {
    std::array<uint16_t, 4> bsphere{};                // x, y, z, radius in 1/64 units
    std::vector<std::array<uint16_t, 3>> vertices;    // 1/64 units
    std::vector<std::array<uint8_t, 3>> triangles;
};

struct Collision {
    int32_t mesh_offset = 0;         // from the header, relative to the block
    int32_t hero_groups_offset = 0;  // 0 = none
    std::vector<CollisionOctant> octants;  // tree order: z, then y, then x
    std::vector<HeroGroup> hero_groups;
};

// §8.3 vertex packing: x bits 0–9, y bits 10–19, z bits 20–31, all signed.
uint32_t pack_collision_vertex(const std::array<int16_t, 3>& v);
std::array<int16_t, 3> unpack_collision_vertex(uint32_t packed);
// Whether the fields fit their bit widths.
bool collision_vertex_fits(const std::array<int16_t, 3>& v);

// An octant's stored size in 16-byte units: the counts, the vertices, the
// faces and one v3 byte per quad, padded to 16 (§8.3 x entry low byte).
uint64_t collision_octant_qwords(uint64_t vertices, uint64_t faces, uint64_t quads);

// Every declared count and offset is checked against the block: tree nodes
// and octants inside the mesh, each x entry's size equal to its octant's
// counts, face indices below the vertex count, quads no more than faces.
Result<Collision> parse_collision(ByteSpan block);
// The same reading and checks, each octant handed to `visit` in tree order
// as it is read (one octant object reused) and not kept: the result's
// `octants` stays empty. `reserve` (may be empty) hears the octant count
// before the first. A block that fails a check fails whole, though octants
// before the failing one may have been visited.
Result<Collision> walk_collision(ByteSpan block, const std::function<void(uint64_t)>& reserve,
                                 const std::function<void(const CollisionOctant&)>& visit);

// Writes the layout Wrench writes (header, mesh at 0x40, hero groups at the
// next 0x40): octants must be distinct coordinates, faces quads first.
Bytes write_collision(const Collision& collision);

}  // namespace gcfs::formats
