#include <cmath>

#include "formats/moby/moby.h"

namespace gcfs::formats::moby {

ClassMesh lod_mesh(const MobyClass& cls, const Lod& lod) {
    ClassMesh mesh;
    const double f = static_cast<double>(cls.header.scale) / 1024.0;
    std::vector<std::array<double, 3>> normals;
    for (const Vertex& v : lod.vertices) {
        mesh.positions.push_back({v.x * f, v.y * f, v.z * f});
        mesh.uvs.push_back({v.s / 4096.0, v.t / 4096.0});
        mesh.skins.push_back(v.skin);
        // §8.5: azimuth and elevation in units of pi/128.
        const double az = v.azimuth * M_PI / 128.0, el = v.elevation * M_PI / 128.0;
        normals.push_back({std::sin(az) * std::cos(el), std::cos(az) * std::cos(el), std::sin(el)});
    }
    for (const Triangle& t : lod.triangles) {
        std::array<uint32_t, 3> v = t.v;
        const auto& a = mesh.positions[v[0]];
        const auto& b = mesh.positions[v[1]];
        const auto& c = mesh.positions[v[2]];
        const std::array<double, 3> u = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        const std::array<double, 3> face = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
        double dot = 0;
        for (uint32_t i : v)
            for (int k = 0; k < 3; ++k) dot += face[k] * normals[i][k];
        if (dot < 0) std::swap(v[0], v[2]);  // §7.6: face the stored normals
        mesh.triangles.push_back({v, t.texture});
    }
    return mesh;
}

}  // namespace gcfs::formats::moby
