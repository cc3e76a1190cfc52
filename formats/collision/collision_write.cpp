// Collision writer: formats.md §8.3, in the order Wrench lays a block out
// (header, mesh at 0x40, hero groups at the next 0x40; in the mesh the root,
// then every z node, then every y node, then the 16-aligned octants).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "formats/collision/collision.h"

namespace gcfs::formats {
namespace {

// Octants by z, then y, then x coordinate.
using Tree = std::map<int32_t, std::map<int32_t, std::map<int32_t, const CollisionOctant*>>>;

Tree build_tree(const std::vector<CollisionOctant>& octants) {
    Tree tree;
    for (const auto& o : octants) {
        const CollisionOctant*& slot = tree[o.coord[2]][o.coord[1]][o.coord[0]];
        if (slot) throw std::invalid_argument(fmt::format("two octants at ({}, {}, {})", o.coord[0], o.coord[1], o.coord[2]));
        slot = &o;
    }
    return tree;
}

template <class Map>
std::pair<int32_t, uint16_t> span_of(const Map& m) {
    const int32_t first = m.begin()->first, last = m.rbegin()->first;
    if (last - first >= 0xffff) throw std::invalid_argument("collision tree wider than a u16 count");
    return {first, static_cast<uint16_t>(last - first + 1)};
}

void write_octant(ByteWriter& out, const CollisionOctant& o) {
    const auto quads = std::count_if(o.faces.begin(), o.faces.end(), [](const auto& f) { return f.quad; });
    if (o.vertices.size() > 0xff || quads > 0xff || o.faces.size() > 0xffff)
        throw std::invalid_argument("octant counts exceed their fields");
    out.u16(static_cast<uint16_t>(o.faces.size()));
    out.u8(static_cast<uint8_t>(o.vertices.size()));
    out.u8(static_cast<uint8_t>(quads));
    for (const auto& v : o.vertices) {
        if (!collision_vertex_fits(v)) throw std::invalid_argument("collision vertex outside its packed range");
        out.u32(pack_collision_vertex(v));
    }
    for (size_t i = 0; i < o.faces.size(); ++i) {
        const CollisionFace& f = o.faces[i];
        if (f.quad != (static_cast<int64_t>(i) < quads)) throw std::invalid_argument("octant faces must list quads first");
        out.u8(f.v[0]); out.u8(f.v[1]); out.u8(f.v[2]); out.u8(f.type);
    }
    for (const auto& f : o.faces)
        if (f.quad) out.u8(f.v[3]);
}

void write_mesh(ByteWriter& out, const std::vector<CollisionOctant>& octants) {
    const uint64_t base = out.size();
    const Tree tree = build_tree(octants);
    const auto [z_first, z_count] = tree.empty() ? std::pair<int32_t, uint16_t>{0, 0} : span_of(tree);
    out.s16(static_cast<int16_t>(z_first));
    out.u16(z_count);
    const uint64_t z_slots = out.size();
    out.zeros(2ull * z_count);

    // z nodes: s16 y_coord, u16 y_count, u32 y offsets (§8.3).
    std::map<std::pair<int32_t, int32_t>, uint64_t> y_slots;  // (z, y) -> its slot in the z node
    for (const auto& [z, ys] : tree) {
        out.pad_to(4);
        const uint64_t node = out.size() - base;
        if (node / 4 > 0xffff) throw std::invalid_argument("collision z node beyond a u16 offset");
        out.patch_u16(z_slots + 2ull * (z - z_first), static_cast<uint16_t>(node / 4));
        const auto [y_first, y_count] = span_of(ys);
        out.s16(static_cast<int16_t>(y_first));
        out.u16(y_count);
        for (const auto& entry : ys) y_slots[{z, entry.first}] = out.size() + 4ull * (entry.first - y_first);
        out.zeros(4ull * y_count);
    }
    // y nodes: s16 x_coord, u16 x_count, u32 x entries.
    std::vector<std::pair<uint64_t, const CollisionOctant*>> x_slots;
    for (const auto& [z, ys] : tree)
        for (const auto& [y, xs] : ys) {
            out.pad_to(4);
            out.patch_u32(y_slots.at({z, y}), static_cast<uint32_t>(out.size() - base));
            const auto [x_first, x_count] = span_of(xs);
            out.s16(static_cast<int16_t>(x_first));
            out.u16(x_count);
            for (const auto& [x, octant] : xs) x_slots.emplace_back(out.size() + 4ull * (x - x_first), octant);
            out.zeros(4ull * x_count);
        }
    // Octants, each entry (offset << 8) | size in qwords.
    for (const auto& [slot, octant] : x_slots) {
        out.pad_to(16);
        const uint64_t at = out.size() - base;
        write_octant(out, *octant);
        out.pad_to(16);
        const uint64_t qwords = (out.size() - base - at) / 16;
        if (qwords > 0xff || at > 0xffffff) throw std::invalid_argument("octant too large or too far for its entry");
        out.patch_u32(slot, static_cast<uint32_t>(at << 8 | qwords));
    }
}

void write_hero_groups(ByteWriter& out, const std::vector<HeroGroup>& groups) {
    const uint64_t base = out.size();
    out.s32(static_cast<int32_t>(groups.size()));
    out.pad_to(16);
    const uint64_t records = out.size();
    out.zeros(16 * groups.size());
    for (size_t g = 0; g < groups.size(); ++g) {
        const HeroGroup& group = groups[g];
        out.pad_to(16);
        const uint64_t data = out.size() - base;
        for (const auto& v : group.vertices) {
            out.u16(v[0]); out.u16(v[1]); out.u16(v[2]); out.u16(0);
        }
        for (const auto& t : group.triangles) {
            out.u8(t[0]); out.u8(t[1]); out.u8(t[2]); out.u8(0);
        }
        const uint64_t r = records + 16 * g;
        for (int i = 0; i < 4; ++i) out.patch_u16(r + 2ull * i, group.bsphere[i]);
        out.patch_u16(r + 8, static_cast<uint16_t>(group.triangles.size()));
        out.patch_u16(r + 10, static_cast<uint16_t>(group.vertices.size()));
        out.patch_u32(r + 12, static_cast<uint32_t>(data));
    }
}

}  // namespace

Bytes write_collision(const Collision& collision) {
    ByteWriter out;
    out.zeros(kCollisionHeaderSize);
    out.pad_to(0x40);
    const uint64_t mesh = out.size();
    write_mesh(out, collision.octants);
    uint64_t groups = 0;
    if (!collision.hero_groups.empty()) {
        out.pad_to(0x40);
        groups = out.size();
        write_hero_groups(out, collision.hero_groups);
    }
    out.pad_to(0x10);
    out.patch_u32(0, static_cast<uint32_t>(mesh));
    out.patch_u32(4, static_cast<uint32_t>(groups));
    return out.bytes();
}

}  // namespace gcfs::formats
