#include "formats/gameplay/volume_mesh.h"

#include <cmath>
#include <numbers>

namespace gcfs::formats::gameplay {
namespace {

constexpr int kSegments = 12;  // around local z
constexpr int kRings = 8;      // pole to pole

using Point = std::array<float, 3>;

// A surface of revolution about z: `profile` lists (radius, z) from the
// bottom pole (radius 0) to the top pole (radius 0); rings between are
// joined by quads, the poles by fans.
void revolve(VolumeMesh& mesh, const std::vector<std::pair<float, float>>& profile) {
    const uint32_t bottom = 0;
    mesh.positions.push_back({0, 0, profile.front().second});
    const size_t rings = profile.size() - 2;
    for (size_t r = 1; r <= rings; ++r)
        for (int s = 0; s < kSegments; ++s) {
            const double a = 2 * std::numbers::pi * s / kSegments;
            mesh.positions.push_back({static_cast<float>(profile[r].first * std::cos(a)),
                                      static_cast<float>(profile[r].first * std::sin(a)), profile[r].second});
        }
    const auto top = static_cast<uint32_t>(mesh.positions.size());
    mesh.positions.push_back({0, 0, profile.back().second});
    auto at = [](size_t ring, int s) { return static_cast<uint32_t>(1 + (ring - 1) * kSegments + (s % kSegments)); };
    for (int s = 0; s < kSegments; ++s) {
        mesh.faces.push_back({bottom, at(1, s + 1), at(1, s)});
        for (size_t r = 1; r < rings; ++r) {
            mesh.faces.push_back({at(r, s), at(r, s + 1), at(r + 1, s + 1)});
            mesh.faces.push_back({at(r, s), at(r + 1, s + 1), at(r + 1, s)});
        }
        mesh.faces.push_back({top, at(rings, s), at(rings, s + 1)});
    }
}

void cube(VolumeMesh& mesh) {
    for (int i = 0; i < 8; ++i) mesh.positions.push_back({i & 1 ? 1.f : -1.f, i & 2 ? 1.f : -1.f, i & 4 ? 1.f : -1.f});
    // Each side as two triangles, corners by bit (x = 1, y = 2, z = 4).
    const uint32_t quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& q : quads) {
        mesh.faces.push_back({q[0], q[1], q[2]});
        mesh.faces.push_back({q[0], q[2], q[3]});
    }
}

std::vector<std::pair<float, float>> sphere_profile(float z0, float half_height, int rings) {
    std::vector<std::pair<float, float>> out;
    for (int r = 0; r <= rings; ++r) {
        const double a = std::numbers::pi * r / rings - std::numbers::pi / 2;
        out.push_back({static_cast<float>(std::cos(a)), static_cast<float>(z0 + half_height * std::sin(a))});
    }
    return out;
}

}  // namespace

VolumeMesh volume_mesh(int kind, std::span<const float, 16> m) {
    VolumeMesh mesh;
    switch (kind) {
        case 0: cube(mesh); break;
        case 1: revolve(mesh, sphere_profile(0, 1, kRings)); break;
        case 2: revolve(mesh, {{0, -1}, {1, -1}, {1, 1}, {0, 1}}); break;
        default: {
            auto lower = sphere_profile(-0.5f, 0.5f, kRings);  // bottom half-ellipsoid, then the top one
            lower.resize(kRings / 2 + 1);
            auto upper = sphere_profile(0.5f, 0.5f, kRings);
            lower.insert(lower.end(), upper.begin() + kRings / 2, upper.end());
            revolve(mesh, lower);
        }
    }
    for (Point& p : mesh.positions) {
        Point w;
        for (int r = 0; r < 3; ++r) w[r] = m[12 + r] + p[0] * m[r] + p[1] * m[4 + r] + p[2] * m[8 + r];
        p = w;
    }
    return mesh;
}

}  // namespace gcfs::formats::gameplay
