#include "formats/tie/tie_compile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "formats/import/mesh_optimizer.h"

namespace gcfs::formats::tie {
namespace {

// A strip is cut before it could not fit a packet alone: 6 ad-gif slots, a
// tag and 3 slots a vertex within 255 (A.5), and 125 dinky vertices (A.8).
constexpr size_t kMostStripVertices = 80;
constexpr int kMostPackets = 0xff;                                      // A.2: packet_count is a u8
constexpr int kMostLodVertices = std::numeric_limits<int16_t>::max();   // A.2: lods[i] totals are s16
constexpr double kFixed = 4096.0;                                       // A.5: 4.12 s and t

int16_t fixed(double value, double unit) { return static_cast<int16_t>(std::lround(value * unit)); }

}  // namespace

Result<ClassSpec> compile_tie_class(const ClassMeshIn& mesh, const TieCompileOptions& options) {
    return capture([&] {
        if (mesh.triangles.empty()) fail(Errc::bad_value, 0, "the model has no triangle");
        if (mesh.uvs.size() != mesh.positions.size()) fail(Errc::bad_value, 0, "the model's UVs are not one per position");
        for (const auto& t : mesh.triangles) {
            if (t.slot < 0 || t.slot >= options.texture_count) fail(Errc::bad_value, 0, fmt::format("a triangle names texture slot {} of {}", t.slot, options.texture_count));
            for (uint32_t c : t.corners)
                if (c >= mesh.positions.size()) fail(Errc::bad_value, 0, fmt::format("a triangle names vertex {} of {}", c, mesh.positions.size()));
        }
        ClassSpec spec;
        spec.o_class = options.o_class;
        spec.texture_count = options.texture_count;
        spec.near_dist = options.near_dist, spec.mid_dist = options.mid_dist, spec.far_dist = options.far_dist;

        // A.5/A.10 item 8: the largest coordinate fits an s16 at scale / 1024 a step.
        std::array<double, 3> low{}, high{};
        low.fill(std::numeric_limits<double>::max()), high.fill(std::numeric_limits<double>::lowest());
        double extent = 0;
        for (const auto& t : mesh.triangles)
            for (uint32_t c : t.corners)
                for (int a = 0; a < 3; ++a) {
                    const double v = mesh.positions[c][a];
                    if (!std::isfinite(v)) fail(Errc::bad_value, 0, "a position is not a finite number");
                    low[a] = std::min(low[a], v), high[a] = std::max(high[a], v), extent = std::max(extent, std::abs(v));
                }
        spec.scale = extent > 0 ? static_cast<float>(extent * 1024.0 / 32767.0) : 1.0f;
        if (!(spec.scale > 0) || !std::isfinite(spec.scale)) fail(Errc::bad_value, 0, fmt::format("the model reaches {} units, past what an f32 scale holds", extent));
        const double unit = 1024.0 / static_cast<double>(spec.scale);
        std::array<double, 3> centre{};
        for (int a = 0; a < 3; ++a) centre[a] = (low[a] + high[a]) / 2;
        double radius = 0;
        for (const auto& t : mesh.triangles)
            for (uint32_t c : t.corners)
                radius = std::max(radius, std::hypot(mesh.positions[c][0] - centre[0], mesh.positions[c][1] - centre[1], mesh.positions[c][2] - centre[2]));
        spec.bsphere = {static_cast<float>(centre[0]), static_cast<float>(centre[1]), static_cast<float>(centre[2]), static_cast<float>(radius)};

        std::vector<Vertex> stored(mesh.positions.size());
        for (size_t i = 0; i < mesh.positions.size(); ++i) {
            for (double uv : mesh.uvs[i])
                if (!(uv >= -8.0 && uv < 8.0))
                    fail(Errc::bad_value, 0, fmt::format("vertex {} has the UV ({}, {}), outside the [-8, 8) that 4.12 fixed point holds (A.5)", i + 1,
                                                         mesh.uvs[i][0], mesh.uvs[i][1]));
            const auto& p = mesh.positions[i];
            stored[i] = {fixed(p[0], unit), fixed(p[1], unit), fixed(p[2], unit), fixed(mesh.uvs[i][0], kFixed), fixed(mesh.uvs[i][1], kFixed), 0x1000};
        }
        std::vector<std::array<float, 3>> points;
        for (const auto& p : mesh.positions) points.push_back({static_cast<float>(p[0]), static_cast<float>(p[1]), static_cast<float>(p[2])});

        // Each slot's faces apart: LOD 0 as given, LOD 1 and 2 simplified from the one above.
        std::map<int, std::vector<uint32_t>> by_slot;
        for (const auto& t : mesh.triangles)
            if (t.corners[0] != t.corners[1] && t.corners[1] != t.corners[2] && t.corners[0] != t.corners[2])
                by_slot[t.slot].insert(by_slot[t.slot].end(), t.corners.begin(), t.corners.end());
        if (by_slot.empty()) fail(Errc::bad_value, 0, "every triangle of the model repeats a corner");
        std::array<std::map<int, std::vector<uint32_t>>, kLods> lods;
        lods[0] = by_slot;
        for (int lod = 1; lod < kLods; ++lod)
            for (const auto& [slot, indices] : lods[lod - 1]) {
                const double ratio = std::clamp(lod == 1 ? options.lod1_ratio : options.lod2_ratio, 0.0, 1.0);  // of LOD 0's triangles
                const size_t target = std::max<size_t>(1, static_cast<size_t>(std::lround(static_cast<double>(by_slot[slot].size() / 3) * ratio)));
                auto reduced = simplify_triangles(indices, points, target);
                if (!reduced.ok()) fail(reduced.error().code, 0, reduced.error().message);
                lods[lod][slot] = reduced->empty() ? indices : *reduced;
            }

        for (int lod = 0; lod < kLods; ++lod) {
            std::vector<StripSpec> strips;
            for (const auto& [slot, indices] : lods[lod]) {
                auto made = triangle_strips(indices, mesh.positions.size());
                if (!made.ok()) fail(made.error().code, 0, made.error().message);
                for (const auto& run : *made)
                    // Pieces overlap by two vertices; one starting at an odd index winds the other way (A.5's parity, the flip flag).
                    for (size_t at = 0; at + 2 < run.size(); at += kMostStripVertices - 2) {
                        StripSpec strip{slot, {}, at % 2 == 1};
                        for (size_t i = at; i < std::min(run.size(), at + kMostStripVertices); ++i) strip.vertices.push_back(stored[run[i]]);
                        strips.push_back(std::move(strip));
                    }
            }
            int vertices = 0;
            auto& packets = spec.lods[static_cast<size_t>(lod)];
            for (StripSpec& strip : strips) {
                vertices += static_cast<int>(strip.vertices.size());
                if (!packets.empty()) {
                    packets.back().strips.push_back(strip);
                    if (packet_fits(packets.back())) continue;
                    packets.back().strips.pop_back();
                }
                packets.push_back({});
                packets.back().strips.push_back(std::move(strip));
                if (!packet_fits(packets.back())) fail(Errc::too_large, 0, "a strip does not fit a packet alone");
            }
            if (static_cast<int>(packets.size()) > kMostPackets || vertices > kMostLodVertices)
                fail(Errc::too_large, 0, fmt::format("LOD {} takes {} packets and {} strip vertices; a tie class holds at most {} and {} (A.2's u8 "
                                                     "packet count, s16 totals)", lod, packets.size(), vertices, kMostPackets, kMostLodVertices));
        }
        return spec;
    });
}

}  // namespace gcfs::formats::tie
