// What a level's collision.obj shows: the main collision mesh with the
// octants' duplicate copies merged, grouped by surface type, and each hero
// group as its own object. Pure functions over a parsed block.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/collision/collision.h"

namespace gcfs::formats {

struct CollisionSourceInfo {
    std::string level;          // "LEVEL00"
    int32_t level_id = 0;
    uint64_t block_offset = 0;  // of the collision block in core_data.bin
};

// The main mesh in world space: positions in 1/64 units (exact for every
// packed field), faces deduplicated, ordered by surface type.
struct CollisionWorldMesh {
    struct Face {
        std::array<uint32_t, 4> v{};
        uint8_t corners = 3;
        uint8_t type = 0;
    };
    std::vector<std::array<int64_t, 3>> positions;
    std::vector<Face> faces;
};
CollisionWorldMesh merge_collision_octants(const std::vector<CollisionOctant>& octants);

// A collision block as its files show it: the header and hero groups, the
// stored counts, and the main mesh merged.
struct MergedCollision {
    Collision header;  // octants empty
    uint64_t octants = 0, stored_vertices = 0, stored_faces = 0;
    CollisionWorldMesh mesh;
};
// Straight from the block: each octant merged as walk_collision reads it,
// none kept (a full-scale level's ~47,000 parsed octants held ~6 MB).
Result<MergedCollision> merge_collision(ByteSpan block);
MergedCollision merged_collision(const Collision& parsed);

struct CollisionSummary {
    int32_t mesh_offset = 0, hero_groups_offset = 0;               // from the header, in the block
    uint64_t octants = 0, stored_vertices = 0, stored_faces = 0;  // as stored, copies included
    uint64_t vertices = 0, quads = 0, triangles = 0;              // merged main mesh
    uint64_t surface_types = 0;
    uint64_t hero_groups = 0, hero_vertices = 0, hero_triangles = 0;
    uint64_t obj_size = 0;  // exact byte size of render_collision_obj
};
CollisionSummary summarize_collision(const MergedCollision& collision, const CollisionSourceInfo& source);
CollisionSummary summarize_collision(const Collision& collision, const CollisionSourceInfo& source);
// What merge_collision holds at its peak for a collision of these counts, in
// bytes: the scratch a render holds beside its output, for the cache's budget.
uint64_t collision_merge_peak(const CollisionSummary& summary);

std::string render_collision_obj(const MergedCollision& collision, const CollisionSourceInfo& source);
std::string render_collision_obj(const Collision& collision, const CollisionSourceInfo& source);
// One material per surface type (col_00..col_ff) and "hero"; colours are
// gcfs's own choice, spread so that neighbouring types differ.
std::string collision_materials_mtl();
// A surface type's colour (gcfs's own), shared by the MTL and level.glb.
std::array<double, 3> collision_type_colour(uint8_t type);
std::string collision_material_name(uint8_t type);

}  // namespace gcfs::formats
