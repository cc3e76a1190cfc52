#include "mkdisc/terrain.h"

#include <algorithm>
#include <cmath>

namespace gcfs::mkdisc {
namespace {

using formats::TfragPatch;
using formats::TfragStrip;
using formats::TfragVertexInfo;

constexpr int kPatchPitch = 24576;  // s16 units per patch edge; ÷1024 gives 24 world units (§7.6)

// Height (z: formats-gameplay.md §0's grids span x and y, so z is up) over
// the ground plane x, y, in s16 units.
struct Field {
    double phase_x, phase_y, amplitude;
    double operator()(double x, double y) const {
        return amplitude * (std::sin(x / 9000.0 + phase_x) + 0.5 * std::cos(y / 5000.0 + phase_y) +
                            0.25 * std::sin((x + y) / 2500.0));
    }
};

// Which tier a grid vertex's position lives in: corners are shared by every
// LOD, even rows and columns join at LOD 1, the rest only at LOD 0.
int tier_of(int row, int col, int w, int h) {
    const bool corner = (row == 0 || row == h - 1) && (col == 0 || col == w - 1);
    if (corner) return formats::kCommon;
    if (row % 2 == 0 && col % 2 == 0) return formats::kLod01;
    return formats::kLod0;
}

std::vector<int> lod_lines(int count, int lod) {
    std::vector<int> lines;
    if (lod == 2) return {0, count - 1};
    const int step = lod == 1 ? 2 : 1;
    for (int i = 0; i < count; i += step) lines.push_back(i);
    return lines;
}

TfragPatch make_patch(int px, int py, int w, int h, const Field& field, Random& random, int texture_count,
                      bool with_unknown_2) {
    TfragPatch p;
    const int base_z = random.between(-2000, 2000) * 4;
    p.base = {px * kPatchPitch, py * kPatchPitch, base_z, 0};
    const int cell_x = kPatchPitch / (w - 1);
    const int cell_y = kPatchPitch / (h - 1);

    // Positions, grouped by tier in grid order; remember each vertex's global index.
    std::vector<int> tier(w * h), in_tier(w * h), global(w * h);
    for (int r = 0; r < h; ++r)
        for (int c = 0; c < w; ++c) {
            const int v = r * w + c;
            tier[v] = tier_of(r, c, w, h);
            in_tier[v] = static_cast<int>(p.positions[tier[v]].size());
            const double wx = p.base[0] + c * cell_x, wy = p.base[1] + r * cell_y;
            const int z = static_cast<int>(std::lround(field(wx, wy))) - base_z;
            p.positions[tier[v]].push_back({static_cast<int16_t>(c * cell_x), static_cast<int16_t>(r * cell_y),
                                            static_cast<int16_t>(z)});
        }
    const int offsets[3] = {0, static_cast<int>(p.positions[0].size()),
                            static_cast<int>(p.positions[0].size() + p.positions[1].size())};
    for (int v = 0; v < w * h; ++v) global[v] = offsets[tier[v]] + in_tier[v];

    // Vertex infos: one per position, stored in reverse order inside each
    // tier so that a strip index is never equal to its position index
    // (§7.5: indices address vertex infos, which address positions).
    std::vector<int> vi_index(w * h);
    for (int t = 0; t < 3; ++t) {
        std::vector<int> members;
        for (int v = 0; v < w * h; ++v)
            if (tier[v] == t) members.push_back(v);
        std::reverse(members.begin(), members.end());
        for (int v : members) {
            const int r = v / w, c = v % w;
            vi_index[v] = static_cast<int>(p.vertex_info[t].size());
            const int parent = global[(r - r % 2) * w + (c - c % 2)];
            p.vertex_info[t].push_back({static_cast<int16_t>(c * 4096 / (w - 1)), static_cast<int16_t>(r * 4096 / (h - 1)),
                                        static_cast<int16_t>(2 * parent), static_cast<int16_t>(2 * global[v])});
        }
    }
    const int vi_offsets[3] = {0, static_cast<int>(p.vertex_info[0].size()),
                               static_cast<int>(p.vertex_info[0].size() + p.vertex_info[1].size())};

    // One or two ad-gifs naming level textures.
    const int own_textures = 1 + static_cast<int>(random.below(2));
    for (int i = 0; i < own_textures; ++i) p.textures.push_back(static_cast<int32_t>(random.below(texture_count)));

    // Strips per LOD: one per row band. The first record of a list is always
    // flagged (biased by -128, §7.8); later bands alternate between a flagged
    // strip and a plain positive count.
    for (int lod = 0; lod < 3; ++lod) {
        const auto rows = lod_lines(h, lod);
        const auto cols = lod_lines(w, lod);
        auto& data = p.lods[lod];
        for (size_t band = 0; band + 1 < rows.size(); ++band) {
            const int n = static_cast<int>(2 * cols.size());
            const bool flagged = band % 2 == 0;
            const int adgif = static_cast<int>(band / 2) % own_textures;
            data.strips.push_back(flagged ? TfragStrip{static_cast<int8_t>(n - 128), 0, static_cast<int8_t>(5 * adgif), 0}
                                          : TfragStrip{static_cast<int8_t>(n), 0, 0, 0});
            // Far row first: the strip's first triangle then winds counter-clockwise seen from +z.
            for (int c : cols)
                for (int r : {rows[band + 1], rows[band]}) {
                    const int v = r * w + c;
                    data.indices.push_back(static_cast<uint8_t>(vi_offsets[tier[v]] + vi_index[v]));
                }
        }
        data.strips.push_back({0, 0, 0, 0});  // zero count ends the list
    }

    // §7.3, §7.5: every LOD01 and LOD0 position names its parent vertex info
    // (the LOD morph's), as the seed's LOD 0+1 list and Wrench's writer show:
    // LOD01 positions the nearest corner, LOD0 positions the even-row,
    // even-column vertex at or before them; in position order.
    for (int v = 0; v < w * h; ++v) {
        const int r = v / w, c = v % w;
        if (tier[v] == formats::kCommon) continue;
        const int parent = tier[v] == formats::kLod01 ? (r < h / 2 ? 0 : h - 1) * w + (c < w / 2 ? 0 : w - 1)
                                                      : (r - r % 2) * w + (c - c % 2);
        p.parent_indices[tier[v] - 1].push_back(static_cast<uint8_t>(vi_offsets[tier[parent]] + vi_index[parent]));
    }
    // The "unknown indices 2" arrays (§7.3, meaning open) on one patch in
    // three, so readers meet them: the parents again, padded to 4 bytes as
    // the VIF unpack stores them.
    if (with_unknown_2)
        for (int slot = 0; slot < 2; ++slot)
            if (!p.parent_indices[slot].empty()) {
                p.unknown_indices_2[slot] = p.parent_indices[slot];
                p.unknown_indices_2[slot].resize((p.unknown_indices_2[slot].size() + 3) / 4 * 4, 0);
            }

    // Per-position colour (0x80 alpha = opaque on the GS) and a light record.
    for (int t = 0; t < 3; ++t)
        for (const auto& pos : p.positions[t]) {
            const uint8_t shade = static_cast<uint8_t>(std::clamp(96 + (pos.z + base_z) / 128, 16, 250));
            p.rgba.push_back({shade, static_cast<uint8_t>(shade / 2 + 60), static_cast<uint8_t>(255 - shade), 0x80});
            p.lights.push_back({0, static_cast<int8_t>(random.between(0, 127)), static_cast<int8_t>(random.between(-128, 127)),
                                static_cast<int8_t>(random.between(0, 64)), static_cast<int16_t>(random.below(0x7fff)), 0});
        }

    // Bounding sphere in world units.
    const float half = kPatchPitch / 2048.0f;
    p.bsphere = {(p.base[0] + kPatchPitch / 2) / 1024.0f, (p.base[1] + kPatchPitch / 2) / 1024.0f, base_z / 1024.0f,
                 half * 1.5f + 16.0f};
    p.mip_dist = static_cast<uint16_t>(random.between(64, 512));
    return p;
}

}  // namespace

Terrain make_terrain(const TerrainSpec& spec, Random& random) {
    const Field field{random.unit() * 6.28, random.unit() * 6.28, 2000.0 + random.unit() * 3000.0};
    const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(spec.patches))));
    std::vector<formats::TfragPatch> patches;
    // Grid sizes per column and per row of patches, not per patch: neighbours
    // then put the same vertices on the edge they share (the same heights come
    // from one field), so LOD 0 is closed but for the outer border, as a real
    // level's terrain is up to its LOD seams.
    static constexpr int kSizes[] = {3, 5, 7};
    std::vector<int> widths(static_cast<size_t>(side)), heights(static_cast<size_t>(side));
    for (int& w : widths) w = kSizes[random.below(3)];
    for (int& h : heights) h = kSizes[random.below(3)];
    for (int i = 0; i < spec.patches; ++i) {
        const int w = widths[static_cast<size_t>(i % side)], h = heights[static_cast<size_t>(i / side)];
        auto patch = make_patch(i % side, i / side, w, h, field, random, spec.texture_count, i % 3 == 1);
        patch.occl_index = static_cast<uint16_t>(i);
        patches.push_back(std::move(patch));
    }
    // Positions are s16 units, 1024 to the world unit (§7.6).
    return {std::move(patches), [field](double x, double y) { return field(x * 1024, y * 1024) / 1024; },
            side * kPatchPitch / 1024.0};
}

}  // namespace gcfs::mkdisc
