#include "mkdisc/collision.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace gcfs::mkdisc {
namespace {

using formats::CollisionFace;
using formats::CollisionOctant;
using formats::kOctantEdge;

// formats.md does not say which axis is up; formats-gameplay.md §0's grids
// span x and y, so the synthetic terrain puts height on z, and so does its
// collision: x and y are the ground plane (z also has the finest packed unit).
struct Corner {
    int64_t x16, y16, z64;  // world position in the packed fields' units
};

// Surface types are opaque in formats.md; the builder uses three values so
// that faces are grouped by type. They carry no claimed meaning.
uint8_t surface_type(double low, double high) {
    if (high - low > 1.5) return 0x0b;  // steep
    return low < -2.0 ? 0x05 : 0x1f;
}

class OctantSet {
public:
    // Files one face (corners clockwise seen from +z, as stored: §8.3 is
    // silent on winding; Wrench reverses the stored order when it reads, and
    // the reversed order faces up) in the octant at `coord`.
    void add(std::array<int32_t, 3> coord, const std::vector<Corner>& corners, uint8_t type) {
        CollisionOctant& o = octants_[{coord[2], coord[1], coord[0]}];
        o.coord = coord;
        CollisionFace face;
        face.type = type;
        face.quad = corners.size() == 4;
        for (size_t k = 0; k < corners.size(); ++k) face.v[k] = vertex(o, corners[k]);
        auto first_triangle = std::find_if(o.faces.begin(), o.faces.end(), [](const auto& f) { return !f.quad; });
        o.faces.insert(face.quad ? first_triangle : o.faces.end(), face);  // §8.3: quads first
    }

    std::vector<CollisionOctant> take() {
        std::vector<CollisionOctant> out;
        for (auto& [key, octant] : octants_) out.push_back(std::move(octant));
        return out;
    }

private:
    static uint8_t vertex(CollisionOctant& o, const Corner& c) {
        // §8.3: fields relative to the octant centre, coord × 4 + 2.
        const std::array<int16_t, 3> v{static_cast<int16_t>(c.x16 - (o.coord[0] * kOctantEdge + 2) * 16),
                                       static_cast<int16_t>(c.y16 - (o.coord[1] * kOctantEdge + 2) * 16),
                                       static_cast<int16_t>(c.z64 - (o.coord[2] * kOctantEdge + 2) * 64)};
        const auto found = std::find(o.vertices.begin(), o.vertices.end(), v);
        if (found != o.vertices.end()) return static_cast<uint8_t>(found - o.vertices.begin());
        o.vertices.push_back(v);
        return static_cast<uint8_t>(o.vertices.size() - 1);
    }

    std::map<std::array<int32_t, 3>, CollisionOctant> octants_;  // keyed z, y, x: the tree's order
};

int32_t octant_of(double world) { return static_cast<int32_t>(std::floor(world / kOctantEdge)); }

formats::HeroGroup fence(double x, double y, double length, const Terrain& terrain) {
    // A wall of two triangles per post gap; hero vertices are u16 / 64, so
    // the wall stands at height max(0, ground).
    formats::HeroGroup g;
    const int posts = 4;
    double top = 0;
    for (int i = 0; i < posts; ++i) {
        const double px = x + length * i / (posts - 1);
        const double ground = std::max(0.0, terrain.height(px, y));
        top = std::max(top, ground + 2);
        for (double z : {ground, ground + 2})
            g.vertices.push_back({static_cast<uint16_t>(std::lround(px * 64)), static_cast<uint16_t>(std::lround(y * 64)),
                                  static_cast<uint16_t>(std::lround(z * 64))});
    }
    for (int i = 0; i + 1 < posts; ++i) {
        const auto b = static_cast<uint8_t>(2 * i);
        g.triangles.push_back({b, static_cast<uint8_t>(b + 2), static_cast<uint8_t>(b + 1)});
        g.triangles.push_back({static_cast<uint8_t>(b + 1), static_cast<uint8_t>(b + 2), static_cast<uint8_t>(b + 3)});
    }
    g.bsphere = {static_cast<uint16_t>(std::lround((x + length / 2) * 64)), static_cast<uint16_t>(std::lround(y * 64)),
                 static_cast<uint16_t>(std::lround(top / 2 * 64)), static_cast<uint16_t>(std::lround((length / 2 + 2) * 64))};
    return g;
}

}  // namespace

formats::Collision make_collision(const Terrain& terrain, double cell, Random& random) {
    const int cells = static_cast<int>(terrain.extent / cell);
    auto corner = [&](int i, int j) {
        const double x = i * cell, y = j * cell;
        return Corner{std::llround(x * 16), std::llround(y * 16), std::llround(terrain.height(x, y) * 64)};
    };
    OctantSet octants;
    for (int j = 0; j < cells; ++j)
        for (int i = 0; i < cells; ++i) {
            const Corner c00 = corner(i, j), c10 = corner(i + 1, j), c01 = corner(i, j + 1), c11 = corner(i + 1, j + 1);
            const double low = std::min({c00.z64, c10.z64, c01.z64, c11.z64}) / 64.0;
            const double high = std::max({c00.z64, c10.z64, c01.z64, c11.z64}) / 64.0;
            const uint8_t type = surface_type(low, high);
            // Every fourth cell is stored as two triangles instead of a quad.
            const bool split = random.below(4) == 0;
            // Seen from +z, c00 c10 c11 c01 run counter-clockwise; faces are stored clockwise.
            const int32_t ox = octant_of((i + 0.5) * cell), oy = octant_of((j + 0.5) * cell);
            for (int32_t oz = octant_of(low); oz <= octant_of(high); ++oz) {
                if (split) {
                    octants.add({ox, oy, oz}, {c00, c11, c10}, type);
                    octants.add({ox, oy, oz}, {c00, c01, c11}, type);
                } else {
                    octants.add({ox, oy, oz}, {c00, c01, c11, c10}, type);
                }
            }
        }
    formats::Collision collision;
    collision.octants = octants.take();
    collision.hero_groups = {fence(cell, cell, terrain.extent / 4, terrain),
                             fence(terrain.extent / 2, terrain.extent / 3, terrain.extent / 5, terrain)};
    return collision;
}

}  // namespace gcfs::mkdisc
