#include "formats/tfrag/tfrag_mesh.h"

#include <fmt/format.h>

namespace gcfs::formats {

std::array<double, 3> tfrag_world_position(const TfragPatch& p, const TfragPosition& v) {
    // §7.6: STMOD offset mode adds the s32 STROW row; the scale is 1/1024.
    return {(static_cast<double>(p.base[0]) + v.x) / 1024.0, (static_cast<double>(p.base[1]) + v.y) / 1024.0,
            (static_cast<double>(p.base[2]) + v.z) / 1024.0};
}

double tfrag_texture_coordinate(int16_t value) { return value < 0 ? value / 8192.0 : value / 4096.0; }

Result<TfragMesh> tfrag_lod_mesh(const TfragPatch& p, int lod) {
    return capture([&] {
        if (lod < 0 || lod > 2) fail(Errc::bad_value, 0, fmt::format("LOD {} does not exist", lod));
        const int tiers = 3 - lod;  // §7.7
        TfragMesh mesh;
        std::vector<TfragVertexInfo> infos;
        for (int t = 0; t < tiers; ++t) {
            for (const auto& v : p.positions[t]) mesh.positions.push_back(tfrag_world_position(p, v));
            infos.insert(infos.end(), p.vertex_info[t].begin(), p.vertex_info[t].end());
        }
        for (size_t i = 0; i < mesh.positions.size(); ++i)
            mesh.colours.push_back(i < p.rgba.size() ? p.rgba[i] : TfragRgba{0x80, 0x80, 0x80, 0x80});
        for (const auto& info : infos)
            mesh.uvs.push_back({tfrag_texture_coordinate(info.s), tfrag_texture_coordinate(info.t)});
        const TfragLodData& data = p.lods[lod];

        auto position_of = [&](size_t cursor, size_t record) -> uint32_t {
            const uint8_t index = data.indices[cursor];
            if (index >= infos.size())
                fail(Errc::out_of_range, record,
                     fmt::format("LOD-{} strip {}: index {} passes the {} vertex infos", lod, record, index, infos.size()));
            const int16_t vertex = infos[index].vertex;
            if (vertex < 0 || vertex % 2 != 0 || static_cast<size_t>(vertex / 2) >= mesh.positions.size())
                fail(Errc::out_of_range, record,
                     fmt::format("LOD-{} strip {}: vertex info {} names vertex {} of {} positions (needs 2 x index)", lod,
                                 record, index, vertex, mesh.positions.size()));
            return static_cast<uint32_t>(vertex / 2);
        };

        size_t cursor = 0;
        uint32_t adgif = 0;
        if (p.textures.empty()) fail(Errc::bad_value, 0, "the patch has no ad-gif");
        for (size_t record = 0; record < data.strips.size(); ++record) {
            const TfragStrip& s = data.strips[record];
            if (s.x == 0) break;  // §7.8: a zero count ends the list
            const bool flagged = s.x < 0;
            // §7.8: the first record is always the biased, flagged kind.
            if (record == 0 && !flagged)
                fail(Errc::bad_value, record, fmt::format("LOD-{} strip list opens with unflagged count {}", lod, s.x));
            const size_t n = flagged ? static_cast<size_t>(s.x + 128) : static_cast<size_t>(s.x);
            if (flagged) {
                // Texture switch: formats.md §7.8 lists three readings; the
                // writer's y = 0, z = 5 × slot satisfies all, and z ≥ 0 is
                // recover_tfrags' condition.
                if (s.z >= 0) {
                    if (s.z % 5 != 0 || static_cast<size_t>(s.z / 5) >= p.textures.size())
                        fail(Errc::out_of_range, record,
                             fmt::format("LOD-{} strip {}: ad-gif offset {} is not 5 x a slot below {}", lod, record, s.z,
                                         p.textures.size()));
                    adgif = static_cast<uint32_t>(s.z / 5);
                }
            }
            if (n > data.indices.size() - cursor)
                fail(Errc::out_of_range, record,
                     fmt::format("LOD-{} strip {} needs {} indices, {} remain", lod, record, n, data.indices.size() - cursor));
            for (size_t j = 0; j + 2 < n; ++j) {
                const uint32_t a = position_of(cursor + j, record), b = position_of(cursor + j + 1, record),
                               c = position_of(cursor + j + 2, record);
                const uint32_t ua = data.indices[cursor + j], ub = data.indices[cursor + j + 1], uc = data.indices[cursor + j + 2];
                // GS strips alternate winding; flipping odd triangles keeps one orientation.
                const bool odd = j % 2 == 1;
                mesh.triangles.push_back(odd ? std::array<uint32_t, 3>{b, a, c} : std::array<uint32_t, 3>{a, b, c});
                mesh.triangle_uvs.push_back(odd ? std::array<uint32_t, 3>{ub, ua, uc} : std::array<uint32_t, 3>{ua, ub, uc});
                mesh.triangle_texture.push_back(p.textures[adgif]);
            }
            cursor += n;
        }
        return mesh;
    });
}

}  // namespace gcfs::formats
