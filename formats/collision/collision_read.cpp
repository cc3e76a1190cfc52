// Collision reader: formats.md §8.3.
#include <fmt/format.h>

#include <functional>

#include "formats/collision/collision.h"

namespace gcfs::formats {
namespace {

// The mesh tree: z node offsets are u16 in 4-byte units, y and x node
// offsets u32 bytes, all relative to the mesh start (§8.3).
class MeshReader {
public:
    MeshReader(ByteSpan mesh, uint64_t base) : mesh_(mesh), base_(base) {}

    // Walks the tree (every node checked) and hands each octant to `visit`
    // in tree order, read into one octant reused throughout; returns how
    // many were handed over. `reserve` hears that count before the first.
    uint64_t read(const std::function<void(uint64_t)>& reserve, const std::function<void(const CollisionOctant&)>& visit) {
        const int32_t z_coord = s16_at(mesh_, 0);
        const uint16_t z_count = u16_at(mesh_, 2);
        require(mesh_, 4, 2ull * z_count, "collision z offsets", base_);
        for (uint16_t z = 0; z < z_count; ++z) {
            const uint64_t node = 4ull * u16_at(mesh_, 4 + 2ull * z);
            if (node != 0) read_z_node(node, z_coord + z);
        }
        // The tree walked first, so that a kept copy is sized once (~47,000
        // octants at full scale, grown by doubling before).
        if (reserve) reserve(entries_found_.size());
        CollisionOctant octant;
        for (const Entry& e : entries_found_) {
            read_octant(e.entry, e.coord, e.entry_at, octant);
            visit(octant);
        }
        return entries_found_.size();
    }

private:
    void read_z_node(uint64_t node, int32_t z) {
        const int32_t y_coord = s16_at(at(node, 4, "collision z node"), 0);
        const uint16_t y_count = u16_at(mesh_, node + 2);
        require(mesh_, node + 4, 4ull * y_count, "collision y offsets", base_);
        for (uint16_t y = 0; y < y_count; ++y) {
            const uint64_t child = u32_at(mesh_, node + 4 + 4ull * y);
            if (child != 0) read_y_node(child, y_coord + y, z);
        }
    }

    void read_y_node(uint64_t node, int32_t y, int32_t z) {
        const int32_t x_coord = s16_at(at(node, 4, "collision y node"), 0);
        const uint16_t x_count = u16_at(mesh_, node + 2);
        require(mesh_, node + 4, 4ull * x_count, "collision x entries", base_);
        // Distinct entries occupy distinct 4 bytes, so an honest tree has no
        // more of them than the mesh has room for; shared nodes could
        // otherwise multiply the work without bound.
        entries_ += x_count;
        if (entries_ > mesh_.size() / 4)
            fail(Errc::too_large, base_ + node,
                 fmt::format("the tree reaches {} octant entries, more than a {}-byte mesh holds", entries_, mesh_.size()));
        for (uint16_t x = 0; x < x_count; ++x) {
            const uint32_t entry = u32_at(mesh_, node + 4 + 4ull * x);
            if (entry != 0) entries_found_.push_back({{x_coord + x, y, z}, entry, node + 4 + 4ull * x});
        }
    }

    void read_octant(uint32_t entry, std::array<int32_t, 3> coord, uint64_t entry_at, CollisionOctant& octant) {
        const uint64_t offset = entry >> 8, qwords = entry & 0xff;
        if (offset % 16 != 0)
            fail(Errc::bad_value, base_ + entry_at, fmt::format("octant offset 0x{:x} is not 16-aligned", offset));
        const ByteSpan o = at(offset, 4, "collision octant");
        const uint16_t face_count = u16_at(o, 0);
        const uint8_t vertex_count = u8_at(o, 2), quad_count = u8_at(o, 3);
        if (quad_count > face_count)
            fail(Errc::bad_value, base_ + offset, fmt::format("{} quads among {} faces", quad_count, face_count));
        const uint64_t needed = collision_octant_qwords(vertex_count, face_count, quad_count);
        if (needed != qwords)
            fail(Errc::size_mismatch, base_ + entry_at,
                 fmt::format("octant ({}, {}, {}) entry declares {} qwords, its {} vertices, {} faces and {} quads need {}",
                             coord[0], coord[1], coord[2], qwords, vertex_count, face_count, quad_count, needed));
        const ByteSpan body = at(offset, 16 * qwords, "collision octant");

        octant.coord = coord;
        // The counts were checked against the octant's bytes just above.
        octant.vertices.clear();
        octant.faces.clear();
        uint64_t p = 4;
        for (int i = 0; i < vertex_count; ++i, p += 4) octant.vertices.push_back(unpack_collision_vertex(u32_at(body, p)));
        const uint64_t quads_at = p + 4ull * face_count;
        for (int i = 0; i < face_count; ++i, p += 4) {
            CollisionFace face;
            face.v = {u8_at(body, p), u8_at(body, p + 1), u8_at(body, p + 2), 0};
            face.type = u8_at(body, p + 3);
            face.quad = i < quad_count;  // §8.3: the first quad_count faces are quads
            if (face.quad) face.v[3] = u8_at(body, quads_at + i);
            for (int k = 0; k < (face.quad ? 4 : 3); ++k)
                if (face.v[k] >= vertex_count)
                    fail(Errc::out_of_range, base_ + offset + (k == 3 ? quads_at + i : p + k),
                         fmt::format("face {} names vertex {} of {}", i, face.v[k], vertex_count));
            octant.faces.push_back(face);
        }
    }

    ByteSpan at(uint64_t offset, uint64_t length, const char* what) {
        require(mesh_, offset, length, what, base_);
        return mesh_.subspan(offset);
    }

    ByteSpan mesh_;
    uint64_t base_;  // the mesh's offset in the block, for error offsets
    uint64_t entries_ = 0;
    struct Entry {
        std::array<int32_t, 3> coord;
        uint32_t entry;     // §8.3 x entry: offset << 8 | qwords
        uint64_t entry_at;  // where it is, for errors
    };
    std::vector<Entry> entries_found_;  // the non-zero x entries, in tree order
};

std::vector<HeroGroup> read_hero_groups(ByteSpan groups, uint64_t base) {
    const int32_t count = s32_at(groups, 0);
    if (count < 0) fail(Errc::bad_value, base, fmt::format("hero group count {}", count));
    require(groups, 0x10, 16ull * static_cast<uint64_t>(count), "hero group records", base);
    std::vector<HeroGroup> out;
    for (int32_t g = 0; g < count; ++g) {
        const uint64_t r = 0x10 + 16ull * g;
        HeroGroup group;
        group.bsphere = {u16_at(groups, r), u16_at(groups, r + 2), u16_at(groups, r + 4), u16_at(groups, r + 6)};
        const uint16_t triangles = u16_at(groups, r + 8), vertices = u16_at(groups, r + 10);
        const uint64_t data = u32_at(groups, r + 12);
        const ByteSpan d = slice(groups, data, 8ull * vertices + 4ull * triangles, "hero group data");
        for (uint16_t v = 0; v < vertices; ++v)
            group.vertices.push_back({u16_at(d, 8ull * v), u16_at(d, 8ull * v + 2), u16_at(d, 8ull * v + 4)});
        for (uint16_t t = 0; t < triangles; ++t) {
            const uint64_t at = 8ull * vertices + 4ull * t;
            std::array<uint8_t, 3> tri{u8_at(d, at), u8_at(d, at + 1), u8_at(d, at + 2)};
            for (uint8_t index : tri)
                if (index >= vertices)
                    fail(Errc::out_of_range, base + data + at,
                         fmt::format("hero group {} triangle {} names vertex {} of {}", g, t, index, vertices));
            group.triangles.push_back(tri);
        }
        out.push_back(std::move(group));
    }
    return out;
}

}  // namespace

uint32_t pack_collision_vertex(const std::array<int16_t, 3>& v) {
    return (static_cast<uint32_t>(v[0]) & 0x3ff) | (static_cast<uint32_t>(v[1]) & 0x3ff) << 10 |
           static_cast<uint32_t>(v[2]) << 20;
}

std::array<int16_t, 3> unpack_collision_vertex(uint32_t packed) {
    // Sign-extend each field from its top bit.
    auto field = [&](int shift, int bits) {
        const int32_t raw = static_cast<int32_t>((packed >> shift) & ((1u << bits) - 1));
        return static_cast<int16_t>(raw >= (1 << (bits - 1)) ? raw - (1 << bits) : raw);
    };
    return {field(0, 10), field(10, 10), field(20, 12)};
}

bool collision_vertex_fits(const std::array<int16_t, 3>& v) {
    return v[0] >= -512 && v[0] < 512 && v[1] >= -512 && v[1] < 512 && v[2] >= -2048 && v[2] < 2048;
}

uint64_t collision_octant_qwords(uint64_t vertices, uint64_t faces, uint64_t quads) {
    return align_up(4 + 4 * vertices + 4 * faces + quads, 16) / 16;
}

Result<Collision> walk_collision(ByteSpan block, const std::function<void(uint64_t)>& reserve,
                                 const std::function<void(const CollisionOctant&)>& visit) {
    return capture([&] {
        Collision c;
        c.mesh_offset = s32_at(block, 0);
        c.hero_groups_offset = s32_at(block, 4);
        const auto size = static_cast<int64_t>(block.size());
        if (c.mesh_offset < static_cast<int32_t>(kCollisionHeaderSize) || c.mesh_offset >= size)
            fail(Errc::out_of_range, 0, fmt::format("mesh offset 0x{:x} outside the {}-byte block", c.mesh_offset, size));
        if (c.hero_groups_offset != 0 && (c.hero_groups_offset <= c.mesh_offset || c.hero_groups_offset >= size))
            fail(Errc::out_of_range, 4,
                 fmt::format("hero groups offset 0x{:x} not between the mesh (0x{:x}) and the block end (0x{:x})",
                             c.hero_groups_offset, c.mesh_offset, size));
        // The mesh runs to the hero groups when there are any (as Wrench reads it).
        const uint64_t mesh_end = c.hero_groups_offset != 0 ? static_cast<uint64_t>(c.hero_groups_offset) : block.size();
        const auto mesh_at = static_cast<uint64_t>(c.mesh_offset);
        MeshReader(block.subspan(mesh_at, mesh_end - mesh_at), mesh_at).read(reserve, visit);
        if (c.hero_groups_offset != 0) {
            const auto groups_at = static_cast<uint64_t>(c.hero_groups_offset);
            c.hero_groups = read_hero_groups(block.subspan(groups_at), groups_at);
        }
        return c;
    });
}

Result<Collision> parse_collision(ByteSpan block) {
    std::vector<CollisionOctant> octants;
    auto walked = walk_collision(
        block, [&](uint64_t count) { octants.reserve(count); }, [&](const CollisionOctant& o) { octants.push_back(o); });
    if (walked.ok()) walked->octants = std::move(octants);
    return walked;
}

}  // namespace gcfs::formats
