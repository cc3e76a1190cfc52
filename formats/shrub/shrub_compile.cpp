#include "formats/shrub/shrub_compile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "formats/import/mesh_optimizer.h"

namespace gcfs::formats::shrub {
namespace {

// A strip alone fits a packet: a texture record (5 GS qwords, 4 VU), a tag
// and 3 GS / 2 VU qwords a vertex within 168 and 118 (§1.7).
constexpr size_t kMostStripVertices = 50;
constexpr int kMostPackets = std::numeric_limits<int16_t>::max();  // §1.2 packet_count is s16
constexpr double kFixed = 4096.0;                                   // §1.6: 4.12 s and t

int16_t fixed(double value, double unit) { return static_cast<int16_t>(std::lround(value * unit)); }

using Vec = std::array<double, 3>;
Vec minus(const Vec& a, const Vec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec cross(const Vec& a, const Vec& b) { return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}; }

}  // namespace

Result<ClassSpec> compile_shrub_class(const ClassMeshIn& mesh, const ShrubCompileOptions& options) {
    return capture([&] {
        if (mesh.uvs.size() != mesh.positions.size()) fail(Errc::bad_value, 0, "the model's UVs are not one per position");
        std::map<int, std::vector<uint32_t>> by_slot;
        for (const auto& t : mesh.triangles) {
            if (t.slot < 0 || t.slot >= options.texture_count) fail(Errc::bad_value, 0, fmt::format("a triangle names texture slot {} of {}", t.slot, options.texture_count));
            for (uint32_t c : t.corners)
                if (c >= mesh.positions.size()) fail(Errc::bad_value, 0, fmt::format("a triangle names vertex {} of {}", c, mesh.positions.size()));
            if (t.corners[0] != t.corners[1] && t.corners[1] != t.corners[2] && t.corners[0] != t.corners[2])
                by_slot[t.slot].insert(by_slot[t.slot].end(), t.corners.begin(), t.corners.end());
        }
        if (by_slot.empty()) fail(Errc::bad_value, 0, "the model has no triangle with three corners");
        ClassSpec spec;
        spec.o_class = options.o_class;
        spec.mip_distance = options.mip_distance;
        spec.billboard = options.billboard;
        spec.normals = options.normals;

        // §1.6: the largest |coordinate| maps to 32766; the bounding sphere in ÷ scale units.
        Vec low, high;
        low.fill(std::numeric_limits<double>::max()), high.fill(std::numeric_limits<double>::lowest());
        double extent = 0;
        std::vector<Vec> normal_sum(mesh.positions.size(), Vec{0, 0, 0});
        for (const auto& [slot, indices] : by_slot)
            for (size_t i = 0; i < indices.size(); i += 3) {
                const Vec& a = mesh.positions[indices[i]];
                const Vec n = cross(minus(mesh.positions[indices[i + 1]], a), minus(mesh.positions[indices[i + 2]], a));  // area-weighted
                for (int k = 0; k < 3; ++k) {
                    const Vec& p = mesh.positions[indices[i + static_cast<size_t>(k)]];
                    for (int c = 0; c < 3; ++c) {
                        if (!std::isfinite(p[c])) fail(Errc::bad_value, 0, "a position is not a finite number");
                        low[c] = std::min(low[c], p[c]), high[c] = std::max(high[c], p[c]), extent = std::max(extent, std::abs(p[c]));
                        normal_sum[indices[i + static_cast<size_t>(k)]][c] += n[c];
                    }
                }
            }
        spec.scale = extent > 0 ? static_cast<float>(extent * 1024.0 / 32766.0) : 1.0f;
        if (!(spec.scale > 0) || !std::isfinite(spec.scale)) fail(Errc::bad_value, 0, fmt::format("the model reaches {} units, past what an f32 scale holds", extent));
        const double unit = 1024.0 / static_cast<double>(spec.scale);
        Vec centre;
        for (int c = 0; c < 3; ++c) centre[c] = (low[c] + high[c]) / 2;
        double radius = 0;
        for (const auto& [slot, indices] : by_slot)
            for (uint32_t v : indices) radius = std::max(radius, std::hypot(mesh.positions[v][0] - centre[0], mesh.positions[v][1] - centre[1], mesh.positions[v][2] - centre[2]));
        spec.bounding_sphere = {static_cast<float>(centre[0] / spec.scale), static_cast<float>(centre[1] / spec.scale),
                                static_cast<float>(centre[2] / spec.scale), static_cast<float>(radius / spec.scale)};

        std::vector<Vertex> stored(mesh.positions.size());
        for (const auto& [slot, indices] : by_slot)
            for (uint32_t i : indices) {
                for (double uv : mesh.uvs[i])
                    if (!(uv >= -8.0 && uv < 8.0))
                        fail(Errc::bad_value, 0, fmt::format("vertex {} has the UV ({}, {}), outside the [-8, 8) that 4.12 fixed point holds (§1.6)", i + 1,
                                                             mesh.uvs[i][0], mesh.uvs[i][1]));
                // The nearest of the table's directions to the mean of the vertex's faces' normals.
                uint8_t nearest = 0;
                double best = std::numeric_limits<double>::lowest();
                for (size_t n = 0; n < kNormalCount; ++n) {
                    const double dot = normal_sum[i][0] * options.normals[n][0] + normal_sum[i][1] * options.normals[n][1] + normal_sum[i][2] * options.normals[n][2];
                    if (dot > best) best = dot, nearest = static_cast<uint8_t>(n);
                }
                const auto& p = mesh.positions[i];
                stored[i] = {fixed(p[0], unit), fixed(p[1], unit), fixed(p[2], unit), fixed(mesh.uvs[i][0], kFixed), fixed(mesh.uvs[i][1], kFixed), 0x1000, nearest};
            }

        std::vector<PacketSpec::Strip> strips;
        for (const auto& [slot, indices] : by_slot) {
            auto made = triangle_strips(indices, mesh.positions.size());
            if (!made.ok()) fail(made.error().code, 0, made.error().message);
            for (const auto& run : *made)
                for (size_t at = 0; at + 2 < run.size(); at += kMostStripVertices - 2) {  // pieces overlap by two vertices
                    PacketSpec::Strip strip;
                    strip.texture = slot;
                    for (size_t i = at; i < std::min(run.size(), at + kMostStripVertices); ++i) strip.vertices.push_back(stored[run[i]]);
                    strips.push_back(std::move(strip));
                }
        }
        for (auto& strip : strips) {
            if (!spec.packets.empty()) {
                spec.packets.back().strips.push_back(strip);
                if (packet_fits(spec.packets.back())) continue;
                spec.packets.back().strips.pop_back();
            }
            spec.packets.push_back({});
            spec.packets.back().strips.push_back(std::move(strip));
            if (!packet_fits(spec.packets.back())) fail(Errc::too_large, 0, "a strip does not fit a packet alone");
        }
        if (static_cast<int64_t>(spec.packets.size()) > kMostPackets)
            fail(Errc::too_large, 0, fmt::format("the class takes {} packets; a shrub class holds at most {} (§1.2's s16 packet_count)", spec.packets.size(),
                                                 kMostPackets));
        return spec;
    });
}

}  // namespace gcfs::formats::shrub
