#include "formats/gltf/level_meshes.h"

#include "formats/export/axes.h"

#include <cmath>
#include <map>
#include <unordered_map>

#include "formats/gameplay/volume_mesh.h"

namespace gcfs::formats::gltf {
namespace {

// Triangles gathered by material key, primitives in the order keys first appear.
class Primitives {
public:
    explicit Primitives(const MaterialOf& material) : material_(material) {}
    void add(int key, uint32_t a, uint32_t b, uint32_t c) {
        auto [it, fresh] = slot_.try_emplace(key, out_.size());
        if (fresh) out_.push_back({material_ ? material_(key) : -1, Mode::triangles, {}});
        auto& indices = out_[it->second].indices;
        indices.insert(indices.end(), {a, b, c});
    }
    std::vector<Primitive> take() { return std::move(out_); }

private:
    const MaterialOf& material_;
    std::map<int, size_t> slot_;
    std::vector<Primitive> out_;
};

std::array<float, 3> to_float(const std::array<double, 3>& p) {
    return {static_cast<float>(p[0]), static_cast<float>(p[1]), static_cast<float>(p[2])};
}

}  // namespace

Matrix game_to_gltf() {
    // Columns: where the game's x, y and z axes go under the OBJ files' conversion.
    Matrix m{};
    for (int axis = 0; axis < 3; ++axis) {
        std::array<float, 3> unit{};
        unit[static_cast<size_t>(axis)] = 1;
        const auto to = obj_axes(unit);
        for (int row = 0; row < 3; ++row) m[static_cast<size_t>(4 * axis + row)] = to[static_cast<size_t>(row)];
    }
    m[15] = 1;
    return m;
}

Mesh terrain_mesh(const std::vector<TfragMesh>& patches, const MaterialOf& material) {
    Mesh out;
    out.name = "terrain";
    Primitives primitives(material);
    for (const TfragMesh& patch : patches) {
        std::unordered_map<uint64_t, uint32_t> vertex_of;  // (position << 32 | uv) -> glTF vertex
        auto vertex = [&](uint32_t position, uint32_t uv) {
            auto [it, fresh] = vertex_of.try_emplace(uint64_t{position} << 32 | uv, static_cast<uint32_t>(out.positions.size()));
            if (fresh) {
                const TfragRgba& c = patch.colours[position];
                out.positions.push_back(to_float(patch.positions[position]));
                out.uvs.push_back({static_cast<float>(patch.uvs[uv][0]), static_cast<float>(patch.uvs[uv][1])});
                out.colours.push_back({c.r, c.g, c.b, 255});
            }
            return it->second;
        };
        for (size_t t = 0; t < patch.triangles.size(); ++t) {
            const auto& p = patch.triangles[t];
            const auto& uv = patch.triangle_uvs[t];
            const uint32_t a = vertex(p[0], uv[0]), b = vertex(p[1], uv[1]), c = vertex(p[2], uv[2]);
            primitives.add(patch.triangle_texture[t], a, b, c);
        }
    }
    out.primitives = primitives.take();
    return out;
}

Mesh class_mesh(const ClassMesh& mesh, std::string name, const MaterialOf& material) {
    Mesh out;
    out.name = std::move(name);
    for (const auto& p : mesh.positions) out.positions.push_back(to_float(p));
    // ClassMesh keeps v downward as the game stores it, which is glTF's convention too (§3.7.2.1).
    for (const auto& uv : mesh.uvs) out.uvs.push_back({static_cast<float>(uv[0]), static_cast<float>(uv[1])});
    Primitives primitives(material);
    for (const auto& t : mesh.triangles) primitives.add(t.material, t.v[0], t.v[1], t.v[2]);
    out.primitives = primitives.take();
    return out;
}

Mesh sky_shell_mesh(const SkyShellMesh& shell, const SkyHeader& header, std::string name, const MaterialOf& material) {
    Mesh out;
    out.name = std::move(name);
    out.positions = shell.positions;
    if (shell.textured) out.uvs = shell.uvs;
    for (uint8_t a : shell.alpha)
        out.colours.push_back(shell.textured ? std::array<uint8_t, 4>{255, 255, 255, a} : std::array<uint8_t, 4>{header.rgba[0], header.rgba[1], header.rgba[2], a});
    Primitives primitives(material);
    for (size_t f = 0; f < shell.faces.size(); ++f) primitives.add(shell.face_texture[f], shell.faces[f][0], shell.faces[f][1], shell.faces[f][2]);
    out.primitives = primitives.take();
    return out;
}

Mesh collision_main_mesh(const CollisionWorldMesh& mesh, const MaterialOf& material) {
    Mesh out;
    out.name = "collision";
    for (const auto& p : mesh.positions)
        out.positions.push_back({static_cast<float>(p[0] / 64.0), static_cast<float>(p[1] / 64.0), static_cast<float>(p[2] / 64.0)});
    Primitives primitives(material);
    for (const auto& f : mesh.faces) {
        primitives.add(f.type, f.v[0], f.v[1], f.v[2]);
        if (f.corners == 4) primitives.add(f.type, f.v[0], f.v[2], f.v[3]);
    }
    out.primitives = primitives.take();
    return out;
}

Mesh collision_hero_mesh(const std::vector<HeroGroup>& groups, int material) {
    Mesh out;
    out.name = "collision_hero_groups";
    Primitive all{material, Mode::triangles, {}};
    for (const HeroGroup& g : groups) {
        const auto first = static_cast<uint32_t>(out.positions.size());
        // formats.md §8.3: hero vertices are absolute, u16 / 64.
        for (const auto& v : g.vertices) out.positions.push_back({v[0] / 64.0f, v[1] / 64.0f, v[2] / 64.0f});
        for (const auto& t : g.triangles) all.indices.insert(all.indices.end(), {first + t[0], first + t[1], first + t[2]});
    }
    if (!all.indices.empty()) out.primitives.push_back(std::move(all));
    return out;
}

Mesh volume_world_mesh(int kind, std::span<const float, 16> matrix, std::string name, int material) {
    const gameplay::VolumeMesh v = gameplay::volume_mesh(kind, matrix);
    Mesh out;
    out.name = std::move(name);
    out.positions = v.positions;
    Primitive p{material, Mode::triangles, {}};
    for (const auto& f : v.faces) p.indices.insert(p.indices.end(), f.begin(), f.end());
    out.primitives.push_back(std::move(p));
    return out;
}

Mesh path_mesh(const std::vector<gameplay::Vec4>& vertices, std::string name, int material) {
    Mesh out;
    out.name = std::move(name);
    for (const auto& v : vertices) out.positions.push_back({v.x, v.y, v.z});
    out.primitives.push_back({material, Mode::line_strip, {}});
    return out;
}

Matrix euler_matrix(std::array<float, 3> position, std::array<float, 3> rotation, float scale) {
    const double cx = std::cos(rotation[0]), sx = std::sin(rotation[0]);
    const double cy = std::cos(rotation[1]), sy = std::sin(rotation[1]);
    const double cz = std::cos(rotation[2]), sz = std::sin(rotation[2]);
    // Rz · Ry · Rx, row r column c.
    const double r[3][3] = {{cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx},
                            {sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx},
                            {-sy, cy * sx, cy * cx}};
    Matrix m{};
    for (int c = 0; c < 3; ++c)
        for (int row = 0; row < 3; ++row) m[4 * c + row] = static_cast<float>(r[row][c] * scale);
    m[12] = position[0], m[13] = position[1], m[14] = position[2], m[15] = 1;
    return m;
}

Matrix instance_matrix(std::span<const float, 16> stored) {
    Matrix m;
    std::copy(stored.begin(), stored.end(), m.begin());
    m[3] = m[7] = m[11] = 0;
    m[15] = 1;
    return m;
}

std::optional<Matrix> pointing_along(std::array<float, 3> direction) {
    const double len = std::sqrt(double{direction[0]} * direction[0] + double{direction[1]} * direction[1] + double{direction[2]} * direction[2]);
    if (!std::isfinite(len) || len < 1e-9) return std::nullopt;
    // z axis = -direction; x and y any orthonormal completion.
    const std::array<double, 3> z = {-direction[0] / len, -direction[1] / len, -direction[2] / len};
    const std::array<double, 3> helper = std::abs(z[1]) < 0.9 ? std::array<double, 3>{0, 1, 0} : std::array<double, 3>{1, 0, 0};
    std::array<double, 3> x = {helper[1] * z[2] - helper[2] * z[1], helper[2] * z[0] - helper[0] * z[2], helper[0] * z[1] - helper[1] * z[0]};
    const double xl = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    for (double& v : x) v /= xl;
    const std::array<double, 3> y = {z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]};
    Matrix m{};
    for (int k = 0; k < 3; ++k) {
        m[k] = static_cast<float>(x[k]);
        m[4 + k] = static_cast<float>(y[k]);
        m[8 + k] = static_cast<float>(z[k]);
    }
    m[15] = 1;
    return m;
}

}  // namespace gcfs::formats::gltf
