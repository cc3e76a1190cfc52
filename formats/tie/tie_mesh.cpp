#include "formats/tie/tie.h"

namespace gcfs::formats::tie {

std::array<double, 3> position(const Vertex& v, float scale) {
    const double f = static_cast<double>(scale) / 1024.0;
    return {v.x * f, v.y * f, v.z * f};
}

std::array<double, 2> texcoord(const Vertex& v) { return {v.s / 4096.0, v.t / 4096.0}; }

std::vector<std::array<uint32_t, 3>> strip_triangles(const Strip& strip) {
    std::vector<std::array<uint32_t, 3>> out;
    const uint32_t winding = strip.flip ? 1 : 0;
    for (uint32_t i = 2; i < strip.vertices.size(); ++i) {
        if (i % 2 == winding) out.push_back({i - 2, i - 1, i});
        else out.push_back({i, i - 1, i - 2});
    }
    return out;
}

ClassMesh lod_mesh(const TieClass& cls, int lod) {
    ClassMesh mesh;
    for (const Strip& strip : cls.lods[lod].strips) {
        const auto base = static_cast<uint32_t>(mesh.positions.size());
        for (const Vertex& v : strip.vertices) {
            mesh.positions.push_back(position(v, cls.header.scale));
            mesh.uvs.push_back(texcoord(v));
        }
        for (const auto& t : strip_triangles(strip)) mesh.triangles.push_back({{base + t[0], base + t[1], base + t[2]}, strip.material});
    }
    return mesh;
}

uint64_t degenerate_triangles(const ClassMesh& mesh) {
    uint64_t n = 0;
    for (const auto& t : mesh.triangles) {
        const auto& a = mesh.positions[t.v[0]];
        const auto& b = mesh.positions[t.v[1]];
        const auto& c = mesh.positions[t.v[2]];
        n += a == b || b == c || a == c;
    }
    return n;
}

}  // namespace gcfs::formats::tie
