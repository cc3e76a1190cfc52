#include "formats/sky/sky_mesh.h"

#include "formats/export/axes.h"

#include <fmt/format.h>

namespace gcfs::formats {
namespace {

constexpr uint8_t kNoTexture = 0xff;

uint8_t sky_alpha(int16_t stored) { return stored >= 0x80 ? 255 : static_cast<uint8_t>(std::max<int16_t>(stored, 0) * 2); }

}  // namespace

Result<std::vector<SkyShellMesh>> sky_meshes(ByteSpan b, const Sky& sky) {
    return capture([&] {
        std::vector<SkyShellMesh> out;
        for (size_t s = 0; s < sky.shells.size(); ++s) {
            const SkyShell& shell = sky.shells[s];
            SkyShellMesh mesh;
            mesh.textured = (shell.flags & 1) == 0;
            for (size_t c = 0; c < shell.clusters.size(); ++c) {
                const SkyCluster& cl = shell.clusters[c];
                // parse_sky checked every array of the cluster lies in its data_size.
                const ByteSpan data = b.subspan(static_cast<uint64_t>(cl.data), static_cast<uint64_t>(cl.data_size));
                const auto base = static_cast<uint32_t>(mesh.positions.size());
                for (int16_t v = 0; v < cl.vertex_count; ++v) {
                    const uint64_t at = static_cast<uint64_t>(cl.vertex_offset) + 8ull * static_cast<uint64_t>(v);
                    mesh.positions.push_back({s16_at(data, at) / 1024.0f, s16_at(data, at + 2) / 1024.0f, s16_at(data, at + 4) / 1024.0f});
                    mesh.alpha.push_back(sky_alpha(s16_at(data, at + 6)));
                    if (mesh.textured) {
                        const uint64_t st = static_cast<uint64_t>(cl.st_offset) + 4ull * static_cast<uint64_t>(v);
                        mesh.uvs.push_back({s16_at(data, st) / 4096.0f, s16_at(data, st + 2) / 4096.0f});
                    } else {
                        mesh.uvs.push_back({0, 0});
                    }
                }
                for (int16_t t = 0; t < cl.tri_count; ++t) {
                    const uint64_t at = static_cast<uint64_t>(cl.tri_offset) + 4ull * static_cast<uint64_t>(t);
                    const uint8_t texture = u8_at(data, at + 3);
                    const uint64_t where = static_cast<uint64_t>(cl.data) + at + 3;
                    if (texture != kNoTexture && texture >= sky.header.texture_count)
                        fail(Errc::out_of_range, where,
                             fmt::format("shell {} cluster {} face {} names texture {} of {}", s, c, t, texture,
                                         sky.header.texture_count));
                    if ((texture == kNoTexture) == mesh.textured)
                        fail(Errc::bad_value, where,
                             fmt::format("shell {} is {} but cluster {} face {} has texture byte 0x{:02x}", s,
                                         mesh.textured ? "textured" : "untextured", c, t, texture));
                    // B.4: stored reversed; face indices were checked < vertex_count by parse_sky.
                    mesh.faces.push_back({base + u8_at(data, at + 2), base + u8_at(data, at + 1), base + u8_at(data, at)});
                    mesh.face_texture.push_back(texture == kNoTexture ? -1 : texture);
                }
            }
            out.push_back(std::move(mesh));
        }
        return out;
    });
}

std::string sky_obj(const std::vector<SkyShellMesh>& shells, const SkyHeader& header) {
    std::string out = std::string(kObjAxesLine) + "# the level's sky shells (formats-tie-sky.md B.4): units s16/1024 as Wrench reads them; the\n"
                      "# game's scale and placement of the sky relative to the camera are not known (B.8)\nmtllib sky.mtl\n";
    uint64_t vertices = 0, uvs = 0;
    for (size_t s = 0; s < shells.size(); ++s) {
        const SkyShellMesh& m = shells[s];
        out += fmt::format("o shell_{}\n", s);
        for (size_t v = 0; v < m.positions.size(); ++v) {
            const auto p = obj_axes(m.positions[v]);
            if (m.textured) {
                out += fmt::format("v {} {} {}\n", p[0], p[1], p[2]);
            } else {
                const float a = m.alpha[v] / 255.0f;
                out += fmt::format("v {} {} {} {:.4f} {:.4f} {:.4f}\n", p[0], p[1], p[2], header.rgba[0] / 255.0f * a,
                                   header.rgba[1] / 255.0f * a, header.rgba[2] / 255.0f * a);
            }
        }
        if (m.textured)
            for (const auto& uv : m.uvs) out += fmt::format("vt {} {}\n", uv[0], 1.0f - uv[1]);
        int material = -2;
        for (size_t f = 0; f < m.faces.size(); ++f) {
            if (m.face_texture[f] != material) {
                material = m.face_texture[f];
                out += material < 0 ? std::string("usemtl sky_gradient\n") : fmt::format("usemtl sky_{:03d}\n", material);
            }
            const auto& t = m.faces[f];
            if (m.textured)
                out += fmt::format("f {0}/{3} {1}/{4} {2}/{5}\n", vertices + t[0] + 1, vertices + t[1] + 1, vertices + t[2] + 1,
                                   uvs + t[0] + 1, uvs + t[1] + 1, uvs + t[2] + 1);
            else
                out += fmt::format("f {} {} {}\n", vertices + t[0] + 1, vertices + t[1] + 1, vertices + t[2] + 1);
        }
        vertices += m.positions.size();
        if (m.textured) uvs += m.uvs.size();
    }
    return out;
}

std::string sky_mtl(size_t texture_count) {
    std::string out = "# sky materials: one per texture def, and the untextured (gradient) shells'\n"
                      "newmtl sky_gradient\nKd 1.000 1.000 1.000\n";
    for (size_t i = 0; i < texture_count; ++i)
        out += fmt::format("newmtl sky_{0:03d}\nKd 1.000 1.000 1.000\nmap_Kd sky_{0:03d}.png\n", i);
    return out;
}

}  // namespace gcfs::formats
