#include "formats/tfrag/tfrag_compile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <variant>

#include "formats/import/mesh_optimizer.h"

namespace gcfs::formats {
namespace {

using Point = std::array<int64_t, 3>;  // 1/1024 world units (§7.6)

constexpr size_t kMaxPatchTriangles = 255;  // §7.2 0x3D tri_count, u8
constexpr size_t kMaxPatchPositions = 255;  // §7.2 0x3C vert_count, u8
constexpr int kMaxSlot = 25;                // §7.8: a flagged strip's z = 5 × slot, s8
constexpr size_t kMaxStripIndices = 126;    // §7.8: a strip's count is an s8 (flagged: n − 128); kept even in triangles

struct Triangle {
    std::array<uint32_t, 3> p{};  // welded positions
    std::array<std::array<int16_t, 2>, 3> st{};
    int32_t texture = 0;
    size_t source = 0;  // the input's triangle number, for refusals
};

struct Welded {
    std::vector<Point> points;
    std::vector<TfragRgba> colours;
    std::vector<std::optional<TfragLight>> lights;
    std::vector<std::array<double, 3>> normals;  // area-weighted, game axes
    std::vector<Triangle> triangles;
    uint64_t dropped = 0;
};

int16_t quantise_st(double value, size_t triangle) {
    // §7.6: s / 4096 at or above zero, s / 8192 below.
    const double q = std::round(value >= 0 ? value * 4096.0 : value * 8192.0);
    if (!std::isfinite(value) || q < -32768 || q > 32767)
        fail(Errc::out_of_range, triangle,
             fmt::format("triangle {}: the texture coordinate {} lies outside [-4, 8), the range formats.md 7.6's s16 holds", triangle + 1, value));
    return static_cast<int16_t>(q);
}

Welded weld(const TerrainMeshIn& mesh) {
    Welded w;
    std::map<Point, uint32_t> seen;
    std::vector<uint32_t> of(mesh.positions.size());
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
        Point q{};
        for (int a = 0; a < 3; ++a) {
            const double v = std::round(mesh.positions[i][a] * 1024.0);
            if (!std::isfinite(v) || std::abs(v) > 2e9)
                fail(Errc::out_of_range, i, fmt::format("vertex {}: the coordinate {} is past the s32 origin formats.md 7.6 adds", i + 1, mesh.positions[i][a]));
            q[a] = static_cast<int64_t>(v);
        }
        const auto [it, fresh] = seen.emplace(q, static_cast<uint32_t>(w.points.size()));
        if (fresh) {
            w.points.push_back(q);
            w.colours.push_back(mesh.colours.at(i));
            w.lights.push_back(mesh.lights.at(i));
        }
        of[i] = it->second;
    }
    w.normals.assign(w.points.size(), {0, 0, 0});
    for (size_t n = 0; n < mesh.triangles.size(); ++n) {
        const auto& in = mesh.triangles[n];
        Triangle t;
        t.texture = in.texture;
        t.source = n;
        for (int c = 0; c < 3; ++c) {
            if (in.corners[c] >= of.size()) fail(Errc::out_of_range, n, fmt::format("triangle {} names vertex {} of {}", n + 1, in.corners[c] + 1, of.size()));
            t.p[c] = of[in.corners[c]];
            t.st[c] = {quantise_st(in.st[c][0], n), quantise_st(in.st[c][1], n)};
        }
        if (t.p[0] == t.p[1] || t.p[1] == t.p[2] || t.p[0] == t.p[2]) {
            ++w.dropped;
            continue;
        }
        const Point &a = w.points[t.p[0]], &b = w.points[t.p[1]], &c = w.points[t.p[2]];
        const double u[3] = {double(b[0] - a[0]), double(b[1] - a[1]), double(b[2] - a[2])};
        const double v[3] = {double(c[0] - a[0]), double(c[1] - a[1]), double(c[2] - a[2])};
        const std::array<double, 3> face = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
        for (uint32_t p : t.p)
            for (int k = 0; k < 3; ++k) w.normals[p][k] += face[k];
        w.triangles.push_back(t);
    }
    return w;
}

// formats.md 7.3 gives a light record per position with the normal as two
// angles of π/128 but not which is which; the moby format's vertices
// (formats-moby.md 8.5) state azimuth and elevation so, and gcfs reads both
// the same way. Intensity and colour are not described: written as zero.
TfragLight light_of(const std::array<double, 3>& normal) {
    const double length = std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    TfragLight light;
    if (length == 0) return light;
    const double el = std::asin(std::clamp(normal[2] / length, -1.0, 1.0)), az = std::atan2(normal[0], normal[1]);
    light.azimuth = static_cast<int8_t>(std::clamp(std::lround(az * 128.0 / M_PI), -128L, 127L));
    light.elevation = static_cast<int8_t>(std::clamp(std::lround(el * 128.0 / M_PI), -128L, 127L));
    return light;
}

class PatchBuilder {
public:
    PatchBuilder(const Welded& w, const TerrainCompileOptions& o) : w_(w), o_(o) {}

    // The patch, or why these triangles do not fit one.
    std::variant<TfragPatch, std::string> build(const std::vector<uint32_t>& tris) {
        if (tris.size() > kMaxPatchTriangles) return fmt::format("{} triangles (a patch holds {})", tris.size(), kMaxPatchTriangles);
        local_.clear();
        positions_.clear();
        std::map<std::array<int32_t, 3>, uint32_t> vi_of;  // (position, s, t)
        vis_.clear();
        std::vector<int32_t> slots;
        groups_.clear();
        for (uint32_t n : tris) {
            const Triangle& t = w_.triangles[n];
            auto slot = std::find(slots.begin(), slots.end(), t.texture);
            if (slot == slots.end()) slot = slots.insert(slots.end(), t.texture);
            const auto s = static_cast<size_t>(slot - slots.begin());
            if (s >= groups_.size()) groups_.resize(s + 1);
            std::array<uint32_t, 3> tri{};
            for (int c = 0; c < 3; ++c) {
                const auto [it, fresh] = local_.emplace(t.p[c], static_cast<uint32_t>(positions_.size()));
                if (fresh) positions_.push_back(t.p[c]);
                const auto [vi, made] = vi_of.emplace(std::array<int32_t, 3>{static_cast<int32_t>(it->second), t.st[c][0], t.st[c][1]},
                                                      static_cast<uint32_t>(vis_.size()));
                if (made) vis_.push_back({it->second, t.st[c][0], t.st[c][1]});
                tri[c] = vi->second;
            }
            groups_[s].lods[0].push_back(tri);
        }
        if (slots.size() > kMaxSlot + 1) return fmt::format("{} textures (a flagged strip names {} at most)", slots.size(), kMaxSlot + 1);
        if (positions_.size() > kMaxPatchPositions) return fmt::format("{} positions (a patch holds {})", positions_.size(), kMaxPatchPositions);
        if (vis_.size() > 256) return fmt::format("{} vertex infos (a u8 index names 256)", vis_.size());
        Point low = w_.points[positions_[0]], high = low;
        for (uint32_t p : positions_)
            for (int a = 0; a < 3; ++a) {
                low[a] = std::min(low[a], w_.points[p][a]);
                high[a] = std::max(high[a], w_.points[p][a]);
            }
        for (int a = 0; a < 3; ++a)
            if (high[a] - low[a] > 65535)
                return fmt::format("a span of {:.3f} world units along {} (a patch's s16 positions span 64, formats.md 7.6)", (high[a] - low[a]) / 1024.0,
                                   "xyz"[a]);
        for (auto& g : groups_) simplify(g);
        TfragPatch patch = assemble(slots, low, high);
        try {
            (void)write_tfrags({patch});
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return patch;
    }

private:
    struct VertexInfo {
        uint32_t position;
        int16_t s, t;
    };
    struct Group {
        std::array<std::vector<std::array<uint32_t, 3>>, 3> lods;  // vertex infos, by LOD
    };

    // LOD 1 and 2 of one texture's faces: simplified over positions, each
    // corner then given the vertex info its position had in this group.
    void simplify(Group& g) {
        std::map<uint32_t, uint32_t> vi_at;  // position -> first vertex info of this group
        std::vector<uint32_t> indices;
        for (const auto& tri : g.lods[0])
            for (uint32_t vi : tri) {
                vi_at.emplace(vis_[vi].position, vi);
                indices.push_back(vis_[vi].position);
            }
        std::vector<std::array<float, 3>> points;
        for (uint32_t p : positions_)
            points.push_back({static_cast<float>(w_.points[p][0]), static_cast<float>(w_.points[p][1]), static_cast<float>(w_.points[p][2])});
        const size_t full = g.lods[0].size();
        for (int lod = 1; lod < 3; ++lod) {
            const double ratio = lod == 1 ? o_.lod1_ratio : o_.lod2_ratio;
            const auto target = std::max<size_t>(1, static_cast<size_t>(std::lround(static_cast<double>(full) * ratio)));
            const auto reduced = simplify_triangles(indices, points, target).value();
            if (reduced.empty()) {
                g.lods[lod] = g.lods[lod - 1];
                continue;
            }
            g.lods[lod].clear();
            for (size_t i = 0; i < reduced.size(); i += 3)
                g.lods[lod].push_back({vi_at.at(reduced[i]), vi_at.at(reduced[i + 1]), vi_at.at(reduced[i + 2])});
            indices = reduced;
        }
    }

    TfragPatch assemble(const std::vector<int32_t>& slots, const Point& low, const Point& high) {
        TfragPatch patch;
        patch.textures = slots;
        patch.mip_dist = o_.mip_dist;
        // §7.7: LOD 2 reaches the common tier, LOD 1 common ‖ LOD01, LOD 0 all:
        // each position and vertex info goes in the coarsest tier a LOD that uses it reaches.
        std::vector<int> position_tier(positions_.size(), kLod0), vi_tier(vis_.size(), kLod0);
        for (const auto& g : groups_)
            for (int lod = 2; lod >= 1; --lod)
                for (const auto& tri : g.lods[lod])
                    for (uint32_t vi : tri) {
                        const int tier = lod == 2 ? kCommon : kLod01;
                        vi_tier[vi] = std::min(vi_tier[vi], tier);
                        position_tier[vis_[vi].position] = std::min(position_tier[vis_[vi].position], tier);
                    }
        std::vector<uint32_t> position_index(positions_.size()), vi_index(vis_.size());
        std::array<std::vector<uint32_t>, 3> tier_positions, tier_vis;
        for (uint32_t p = 0; p < positions_.size(); ++p) tier_positions[position_tier[p]].push_back(p);
        for (uint32_t v = 0; v < vis_.size(); ++v) tier_vis[vi_tier[v]].push_back(v);
        uint32_t next = 0;
        for (const auto& tier : tier_positions)
            for (uint32_t p : tier) position_index[p] = next++;
        next = 0;
        for (const auto& tier : tier_vis)
            for (uint32_t v : tier) vi_index[v] = next++;

        // The origin: the middle of the patch's bounds (§7.6 STROW base).
        for (int a = 0; a < 3; ++a) patch.base[a] = static_cast<int32_t>((low[a] + high[a]) / 2);
        double radius = 0;
        for (int t = 0; t < 3; ++t)
            for (uint32_t p : tier_positions[t]) {
                const Point& q = w_.points[positions_[p]];
                patch.positions[t].push_back({static_cast<int16_t>(q[0] - patch.base[0]), static_cast<int16_t>(q[1] - patch.base[1]),
                                              static_cast<int16_t>(q[2] - patch.base[2])});
                const double dx = q[0] - patch.base[0], dy = q[1] - patch.base[1], dz = q[2] - patch.base[2];
                radius = std::max(radius, std::sqrt(dx * dx + dy * dy + dz * dz));
            }
        patch.bsphere = {patch.base[0] / 1024.0f, patch.base[1] / 1024.0f, patch.base[2] / 1024.0f, static_cast<float>(radius / 1024.0)};

        // §7.5 parents: each LOD01 position names the nearest common one, each
        // LOD0 position the nearest of common ‖ LOD01, by a vertex info of that
        // tier (for the LOD morph); a vertex info's parent is 2 × that position.
        std::vector<uint32_t> parent_position(positions_.size());
        std::vector<uint32_t> vi_of_position(positions_.size(), UINT32_MAX);
        for (uint32_t v = 0; v < vis_.size(); ++v) {
            uint32_t& held = vi_of_position[vis_[v].position];
            if (held == UINT32_MAX || vi_index[v] < vi_index[held]) held = v;
        }
        for (uint32_t p = 0; p < positions_.size(); ++p) {
            parent_position[p] = p;
            if (position_tier[p] == kCommon) continue;
            double best = INFINITY;
            for (uint32_t q = 0; q < positions_.size(); ++q) {
                if (position_tier[q] >= position_tier[p]) continue;
                const Point &a = w_.points[positions_[p]], &b = w_.points[positions_[q]];
                const double d = double(a[0] - b[0]) * double(a[0] - b[0]) + double(a[1] - b[1]) * double(a[1] - b[1]) + double(a[2] - b[2]) * double(a[2] - b[2]);
                if (d < best) best = d, parent_position[p] = q;
            }
        }
        for (int t = 1; t < 3; ++t)
            for (uint32_t p : tier_positions[t]) patch.parent_indices[t - 1].push_back(static_cast<uint8_t>(vi_index[vi_of_position[parent_position[p]]]));
        for (int t = 0; t < 3; ++t)
            for (uint32_t v : tier_vis[t]) {
                const VertexInfo& vi = vis_[v];
                patch.vertex_info[t].push_back({vi.s, vi.t, static_cast<int16_t>(2 * position_index[parent_position[vi.position]]),
                                                static_cast<int16_t>(2 * position_index[vi.position])});
            }
        for (const auto& tier : tier_positions)
            for (uint32_t p : tier) {
                const uint32_t welded = positions_[p];
                patch.rgba.push_back(w_.colours[welded]);
                patch.lights.push_back(w_.lights[welded] ? *w_.lights[welded] : light_of(w_.normals[welded]));
            }
        for (int lod = 0; lod < 3; ++lod) strips(patch.lods[lod], lod, vi_index);
        return patch;
    }

    // §7.8: one run of strips per texture, the first flagged with z = 5 × slot.
    void strips(TfragLodData& data, int lod, const std::vector<uint32_t>& vi_index) {
        for (size_t slot = 0; slot < groups_.size(); ++slot) {
            std::vector<uint32_t> tris;
            for (const auto& tri : groups_[slot].lods[lod])
                for (uint32_t vi : tri) tris.push_back(vi_index[vi]);
            bool first = true;
            const auto made = triangle_strips(tris, vis_.size()).value();
            for (const auto& strip : made)
                for (size_t at = 0; at + 2 < strip.size(); at += kMaxStripIndices - 2) {
                    const size_t n = std::min(kMaxStripIndices, strip.size() - at);  // pieces overlap by two: an even cut keeps the parity
                    data.strips.push_back(first ? TfragStrip{static_cast<int8_t>(static_cast<int>(n) - 128), 0, static_cast<int8_t>(5 * slot), 0}
                                                : TfragStrip{static_cast<int8_t>(n), 0, 0, 0});
                    first = false;
                    for (size_t i = at; i < at + n; ++i) data.indices.push_back(static_cast<uint8_t>(strip[i]));
                }
        }
        data.strips.push_back({0, 0, 0, 0});
    }

    const Welded& w_;
    const TerrainCompileOptions& o_;
    std::map<uint32_t, uint32_t> local_;  // welded -> local position
    std::vector<uint32_t> positions_;     // local -> welded
    std::vector<VertexInfo> vis_;
    std::vector<Group> groups_;
};

class Cutter {
public:
    Cutter(const Welded& w, const TerrainCompileOptions& o) : w_(w), builder_(w, o) {}

    void cut(std::vector<uint32_t> tris) {
        if (tris.empty()) return;
        auto built = builder_.build(tris);
        if (auto* patch = std::get_if<TfragPatch>(&built)) {
            if (patches_.size() >= 0xFFFF) fail(Errc::too_large, 0, "more than 65,535 patches (formats.md 7.2 occl_index is a u16)");
            patch->occl_index = static_cast<uint16_t>(patches_.size());
            patches_.push_back(std::move(*patch));
            return;
        }
        if (tris.size() == 1)
            fail(Errc::too_large, w_.triangles[tris[0]].source,
                 fmt::format("triangle {} does not fit a tfrag patch alone: {}; split it", w_.triangles[tris[0]].source + 1, std::get<std::string>(built)));
        // Halve along the longest side of the centroids' bounds, at the median.
        std::array<double, 3> low{INFINITY, INFINITY, INFINITY}, high{-INFINITY, -INFINITY, -INFINITY};
        auto centre = [&](uint32_t n, int a) {
            const auto& t = w_.triangles[n];
            return double(w_.points[t.p[0]][a] + w_.points[t.p[1]][a] + w_.points[t.p[2]][a]);
        };
        for (uint32_t n : tris)
            for (int a = 0; a < 3; ++a) low[a] = std::min(low[a], centre(n, a)), high[a] = std::max(high[a], centre(n, a));
        int axis = 0;
        for (int a = 1; a < 3; ++a)
            if (high[a] - low[a] > high[axis] - low[axis]) axis = a;
        const auto middle = tris.begin() + static_cast<int64_t>(tris.size() / 2);
        std::nth_element(tris.begin(), middle, tris.end(), [&](uint32_t a, uint32_t b) {
            const double ca = centre(a, axis), cb = centre(b, axis);
            return ca != cb ? ca < cb : a < b;
        });
        cut(std::vector<uint32_t>(tris.begin(), middle));
        cut(std::vector<uint32_t>(middle, tris.end()));
    }

    std::vector<TfragPatch> take() { return std::move(patches_); }

private:
    const Welded& w_;
    PatchBuilder builder_;
    std::vector<TfragPatch> patches_;
};

}  // namespace

Result<CompiledTerrain> compile_terrain(const TerrainMeshIn& mesh, const TerrainCompileOptions& options) {
    return capture([&] {
        if (mesh.colours.size() != mesh.positions.size() || mesh.lights.size() != mesh.positions.size())
            fail(Errc::bad_value, 0, "a colour and a light slot are needed per position");
        const Welded welded = weld(mesh);
        if (welded.triangles.empty()) fail(Errc::bad_value, 0, "no triangle is larger than a quantum (1/1024 of a world unit, formats.md 7.6)");
        Cutter cutter(welded, options);
        std::vector<uint32_t> all(welded.triangles.size());
        for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
        cutter.cut(std::move(all));
        return CompiledTerrain{cutter.take(), welded.dropped};
    });
}

}  // namespace gcfs::formats
