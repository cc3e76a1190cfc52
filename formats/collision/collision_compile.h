// A collision mesh in the game's world units compiled into the octants of
// formats.md §8.3, filed as Wrench's builder files them (collision.cpp ::
// build_collision_octants, test_tri_octant_intersection): each face in every
// 4×4×4 octant its triangles touch (a separating-axis test against the
// octant's closed cube), its corners as fields relative to that octant's
// centre, corners alike within an octant shared, quads first, and corners
// stored in the reverse of the mesh's order (Wrench reverses them when it
// writes and again when it reads, so collision.obj shows the mesh's order).
// Where gcfs differs: corners are rounded to the packed units (x and y
// 1/16, z 1/64: each within half a unit) where Wrench truncates, and a
// corner or count the fields cannot hold is refused where Wrench's packing
// wraps it; octants at negative coordinates are kept (§8.3's coordinates
// are s16), where Wrench's builder clamps its search to 0.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "formats/collision/collision.h"
#include "formats/common/error.h"

namespace gcfs::formats {

struct CollisionMeshIn {
    struct Face {
        std::array<uint32_t, 4> v{};  // into positions; v[3] only for a quad
        uint8_t corners = 3;
        uint8_t type = 0;  // surface type (§8.3 face byte 3)
    };
    std::vector<std::array<double, 3>> positions;  // world units, the game's axes (z up)
    std::vector<Face> faces;
};

// The octants in tree order (z, then y, then x). Fails naming the face or
// octant the format cannot hold: a corner out of its packed field's range
// from the centre of an octant its face touches (about 32 units), more than
// 255 corners or quads or 65,535 faces in one octant, an octant coordinate
// past s16, a face index past the positions, a position not finite.
Result<std::vector<CollisionOctant>> compile_collision(const CollisionMeshIn& mesh);

}  // namespace gcfs::formats
