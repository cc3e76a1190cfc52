#include "formats/collision/collision_compile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace gcfs::formats {
namespace {

using Vec = std::array<double, 3>;
using Quantised = std::array<int64_t, 3>;  // x and y in 1/16 units, z in 1/64 (§8.3's packed units)

constexpr double kHalfEdge = kOctantEdge / 2.0;
constexpr std::array<double, 3> kUnits = {16, 16, 64};

Vec sub(const Vec& a, const Vec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec cross(const Vec& a, const Vec& b) { return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}; }
double dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// Whether the triangle (relative to a cube's centre) touches the closed cube
// of half edge kHalfEdge: no separating axis among the cube's three, the
// triangle's normal and the nine edge crossings (Wrench's
// test_tri_octant_intersection makes the same test).
bool touches_cube(const Vec& a, const Vec& b, const Vec& c) {
    const Vec edges[3] = {sub(b, a), sub(c, b), sub(a, c)};
    const Vec units[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    std::vector<Vec> axes(std::begin(units), std::end(units));
    axes.push_back(cross(edges[0], edges[1]));
    for (const Vec& u : units)
        for (const Vec& e : edges) axes.push_back(cross(u, e));
    for (const Vec& axis : axes) {
        const double pa = dot(a, axis), pb = dot(b, axis), pc = dot(c, axis);
        const double r = kHalfEdge * (std::fabs(axis[0]) + std::fabs(axis[1]) + std::fabs(axis[2]));
        if (std::min({pa, pb, pc}) > r || std::max({pa, pb, pc}) < -r) return false;
    }
    return true;
}

struct Building {
    CollisionOctant octant;
    std::vector<CollisionFace> quads, triangles;
};

}  // namespace

Result<std::vector<CollisionOctant>> compile_collision(const CollisionMeshIn& mesh) {
    return capture([&] {
        // Every corner rounded once to the packed units: the faces are tested and stored as they will read.
        std::vector<Quantised> quantised;
        quantised.reserve(mesh.positions.size());
        constexpr double kReach = 4.0 * 32767;  // an octant coordinate is an s16 (§8.3)
        for (size_t i = 0; i < mesh.positions.size(); ++i) {
            Quantised q{};
            for (int axis = 0; axis < 3; ++axis) {
                const double w = mesh.positions[i][axis];
                if (!std::isfinite(w) || std::fabs(w) >= kReach)
                    fail(Errc::out_of_range, 0, fmt::format("vertex {} lies at {} on axis {}: past the octant grid's ±{} units", i + 1, w, "xyz"[axis], kReach));
                q[axis] = std::llround(w * kUnits[axis]);
            }
            quantised.push_back(q);
        }
        std::map<std::array<int32_t, 3>, Building> octants;  // keyed z, y, x: the tree's order
        for (size_t n = 0; n < mesh.faces.size(); ++n) {
            const auto& face = mesh.faces[n];
            if (face.corners != 3 && face.corners != 4) fail(Errc::bad_value, 0, fmt::format("face {} has {} corners (3 or 4)", n + 1, face.corners));
            Vec world[4];
            for (int k = 0; k < face.corners; ++k) {
                if (face.v[k] >= quantised.size()) fail(Errc::out_of_range, 0, fmt::format("face {} names vertex {} of {}", n + 1, face.v[k] + 1, quantised.size()));
                for (int axis = 0; axis < 3; ++axis) world[k][axis] = static_cast<double>(quantised[face.v[k]][axis]) / kUnits[axis];
            }
            // Octant c spans [4c, 4c + 4] on an axis: those whose span meets the face's.
            std::array<int32_t, 3> lo{}, hi{};
            for (int axis = 0; axis < 3; ++axis) {
                double low = world[0][axis], high = low;
                for (int k = 1; k < face.corners; ++k) {
                    low = std::min(low, world[k][axis]);
                    high = std::max(high, world[k][axis]);
                }
                lo[axis] = static_cast<int32_t>(std::ceil(low / kOctantEdge - 1));
                hi[axis] = static_cast<int32_t>(std::floor(high / kOctantEdge));
            }
            for (int32_t z = lo[2]; z <= hi[2]; ++z)
                for (int32_t y = lo[1]; y <= hi[1]; ++y)
                    for (int32_t x = lo[0]; x <= hi[0]; ++x) {
                        const std::array<int32_t, 3> coord{x, y, z};
                        const Vec centre{x * 4.0 + kHalfEdge, y * 4.0 + kHalfEdge, z * 4.0 + kHalfEdge};
                        Vec at[4];
                        for (int k = 0; k < face.corners; ++k) at[k] = sub(world[k], centre);
                        if (!touches_cube(at[0], at[1], at[2]) && !(face.corners == 4 && touches_cube(at[2], at[3], at[0]))) continue;
                        if (std::abs(x) > 32767 || std::abs(y) > 32767 || std::abs(z) > 32767)
                            fail(Errc::out_of_range, 0, fmt::format("face {} touches octant ({}, {}, {}), past an s16 coordinate", n + 1, x, y, z));
                        Building& b = octants[{z, y, x}];
                        b.octant.coord = coord;
                        CollisionFace stored;
                        stored.type = face.type;
                        stored.quad = face.corners == 4;
                        for (int k = 0; k < face.corners; ++k) {
                            // §8.3: fields relative to the octant centre, coord × 4 + 2.
                            std::array<int16_t, 3> field{};
                            bool fits = true;
                            for (int axis = 0; axis < 3; ++axis) {
                                const int64_t v = quantised[face.v[k]][axis] - static_cast<int64_t>(centre[axis] * kUnits[axis]);
                                fits = fits && v >= std::numeric_limits<int16_t>::min() && v <= std::numeric_limits<int16_t>::max();
                                field[axis] = static_cast<int16_t>(v);
                            }
                            if (!fits || !collision_vertex_fits(field))
                                fail(Errc::out_of_range, 0,
                                     fmt::format("face {}: corner {} lies too far from the centre of octant ({}, {}, {}), which the face touches; "
                                                 "a corner must lie within 32 units of it on x and y and 32 on z (§8.3 packing): split the face",
                                                 n + 1, k + 1, x, y, z));
                            auto& vertices = b.octant.vertices;
                            auto found = std::find(vertices.begin(), vertices.end(), field);
                            if (found == vertices.end()) {
                                if (vertices.size() == 0xff)
                                    fail(Errc::too_large, 0, fmt::format("octant ({}, {}, {}) would hold more than 255 corners (§8.3's u8 count)", x, y, z));
                                vertices.push_back(field);
                                found = vertices.end() - 1;
                            }
                            // Stored in reverse: a quad's v[3] is the mesh's first corner.
                            stored.v[face.corners - 1 - k] = static_cast<uint8_t>(found - vertices.begin());
                        }
                        (stored.quad ? b.quads : b.triangles).push_back(stored);
                        if (b.quads.size() > 0xff)
                            fail(Errc::too_large, 0, fmt::format("octant ({}, {}, {}) would hold more than 255 quads (§8.3's u8 count)", x, y, z));
                        if (b.quads.size() + b.triangles.size() > 0xffff)
                            fail(Errc::too_large, 0, fmt::format("octant ({}, {}, {}) would hold more than 65,535 faces (§8.3's u16 count)", x, y, z));
                    }
        }
        std::vector<CollisionOctant> out;
        out.reserve(octants.size());
        for (auto& [key, b] : octants) {
            b.octant.faces = std::move(b.quads);  // §8.3: the quads first
            b.octant.faces.insert(b.octant.faces.end(), b.triangles.begin(), b.triangles.end());
            out.push_back(std::move(b.octant));
        }
        return out;
    });
}

}  // namespace gcfs::formats
