#include <map>
#include <tuple>

#include "formats/shrub/shrub.h"

namespace gcfs::formats::shrub {
namespace {

// The primitive's triangles as vertex numbers within it (§1.8): strips
// (i, i+1, i+2) with no alternation, lists by threes.
std::vector<std::array<uint32_t, 3>> primitive_triangles(const Primitive& p) {
    std::vector<std::array<uint32_t, 3>> out;
    const auto n = static_cast<uint32_t>(p.vertices.size());
    if (p.strip)
        for (uint32_t i = 0; i + 2 < n; ++i) out.push_back({i, i + 1, i + 2});
    else
        for (uint32_t i = 0; i + 2 < n; i += 3) out.push_back({i, i + 1, i + 2});
    return out;
}

std::array<double, 3> sub(const std::array<double, 3>& a, const std::array<double, 3>& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

}  // namespace

uint64_t raw_triangles(const ShrubClass& cls) {
    uint64_t n = 0;
    for (const Primitive& p : cls.primitives) n += primitive_triangles(p).size();
    return n;
}

ClassMesh shrub_mesh(const ShrubClass& cls) {
    ClassMesh mesh;
    std::vector<uint8_t> normal_of;  // per merged vertex
    std::map<std::tuple<int16_t, int16_t, int16_t, int16_t, int16_t, uint8_t>, uint32_t> merged;
    const double f = static_cast<double>(cls.header.scale) / 1024.0;
    auto vertex = [&](const Vertex& v) {
        const auto key = std::make_tuple(v.x, v.y, v.z, v.s, v.t, v.normal);
        auto [it, fresh] = merged.emplace(key, static_cast<uint32_t>(mesh.positions.size()));
        if (fresh) {
            mesh.positions.push_back({v.x * f, v.y * f, v.z * f});
            mesh.uvs.push_back({v.s / 4096.0, v.t / 4096.0});
            normal_of.push_back(v.normal);
        }
        return it->second;
    };
    auto normal = [&](uint32_t i) {
        const auto& n = cls.normals[normal_of[i]];
        return std::array<double, 3>{n[0] / 32767.0, n[1] / 32767.0, n[2] / 32767.0};
    };
    for (const Primitive& p : cls.primitives) {
        std::vector<uint32_t> ids;
        for (const Vertex& v : p.vertices) ids.push_back(vertex(v));
        for (const auto& t : primitive_triangles(p)) {
            std::array<uint32_t, 3> tri = {ids[t[0]], ids[t[1]], ids[t[2]]};
            if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) continue;  // zero-area joins (§1.8)
            const auto a = sub(mesh.positions[tri[1]], mesh.positions[tri[0]]);
            const auto b = sub(mesh.positions[tri[2]], mesh.positions[tri[0]]);
            const std::array<double, 3> face = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
            std::array<double, 3> mean{};
            for (uint32_t i : tri)
                for (int k = 0; k < 3; ++k) mean[k] += normal(i)[k];
            if (face[0] * mean[0] + face[1] * mean[1] + face[2] * mean[2] < 0) std::swap(tri[0], tri[2]);
            mesh.triangles.push_back({tri, p.texture});
        }
    }
    return mesh;
}

}  // namespace gcfs::formats::shrub
