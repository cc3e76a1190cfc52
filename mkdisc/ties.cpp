#include "mkdisc/ties.h"

#include <algorithm>
#include <cmath>

#include "formats/tie/tie.h"

namespace gcfs::mkdisc {
// This file's shapes, apart from its siblings' (a unity build compiles them together).
namespace tie_shapes {

using formats::tie::PacketSpec;
using formats::tie::StripSpec;

struct Point {
    double x, y, z, u, v;
    bool operator==(const Point&) const = default;
};
struct Strip {
    int material;
    std::vector<Point> points;
    bool flip = false;  // written reversed with the winding flag set (A.4): the same faces
};
struct Box {
    std::array<double, 3> lo, hi;
    int side_material, cap_material;
};

// A box as the A.5 walk draws it: one strip round the sides, then the top
// cap, whose strip opens on the sides' last vertex (stored once, two slots).
std::vector<Strip> box_strips(const Box& b, bool top, bool bottom) {
    const double x[4] = {b.lo[0], b.hi[0], b.hi[0], b.lo[0]}, y[4] = {b.lo[1], b.lo[1], b.hi[1], b.hi[1]};
    Strip sides{b.side_material, {}};
    for (int i = 0; i <= 4; ++i) {
        sides.points.push_back({x[i % 4], y[i % 4], b.lo[2], static_cast<double>(i), 1});
        sides.points.push_back({x[i % 4], y[i % 4], b.hi[2], static_cast<double>(i), 0});
    }
    std::vector<Strip> out{sides};
    if (top) {
        const Point& last = sides.points.back();  // (x0, y0, top) at u 4, v 0
        out.push_back({b.cap_material,
                       {last, {x[1], y[1], b.hi[2], 5, 0}, {x[3], y[3], b.hi[2], 4, 1}, {x[2], y[2], b.hi[2], 5, 1}}});
    }
    if (bottom)
        out.push_back({b.cap_material,
                       {{x[0], y[0], b.lo[2], 0, 0}, {x[3], y[3], b.lo[2], 0, 1}, {x[1], y[1], b.lo[2], 1, 0}, {x[2], y[2], b.lo[2], 1, 1}}});
    return out;
}

// Packs strips into packets within the A.10 limits: GS slots < 256, at most
// 4 ad-gif blocks; every other packet stores its dinky vertices reversed.
std::vector<PacketSpec> packets(const std::vector<Strip>& strips, float scale, int fat, int lod) {
    std::vector<PacketSpec> out;
    uint32_t cursor = 0;
    int blocks = 0, material = -1;
    for (const Strip& s : strips) {
        const bool switches = s.material != material;
        const auto drawn = static_cast<uint32_t>(formats::tie::kStripTagSlots + formats::tie::kVertexSlots * s.points.size());
        if (out.empty() || cursor + (switches ? formats::tie::kAdGifSlots : 0) + drawn > 256 ||
            (switches && blocks == formats::tie::kMaxBlocksPerPacket)) {
            out.emplace_back();
            out.back().fat_vertices = fat;
            out.back().reverse_dinky = (lod + out.size()) % 2 == 0;
            cursor = formats::tie::kAdGifSlots;  // block 0
            blocks = 1;
        } else if (switches) {
            cursor += formats::tie::kAdGifSlots;
            ++blocks;
        }
        material = s.material;
        cursor += drawn;
        StripSpec spec{s.material, {}, s.flip};
        for (const Point& p : s.points)
            spec.vertices.push_back({fixed(p.x, 1024.0 / scale), fixed(p.y, 1024.0 / scale), fixed(p.z, 1024.0 / scale), fixed(p.u, 4096),
                                     fixed(p.v, 4096), 0x1000});
        out.back().strips.push_back(spec);
    }
    return out;
}

// A fin standing on the last box's top, one triangle: written as an
// odd-length strip reversed with the winding flag set (formats-tie-sky.md A.4),
// which draws the same face as the strip in order without it. The flag is
// expected 0 on GC (A.4 [derived]); the builder sets it once so the reader's
// parity rule is exercised.
Strip fin(const Box& top) {
    const double cx = (top.lo[0] + top.hi[0]) / 2, cy = (top.lo[1] + top.hi[1]) / 2;
    Strip s{top.cap_material, {{top.lo[0], cy, top.hi[2], 0, 1}, {top.hi[0], cy, top.hi[2], 1, 1}, {cx, cy, top.hi[2] + 0.5, 0.5, 0}}, true};
    std::reverse(s.points.begin(), s.points.end());
    return s;
}

// `with_fin`: a fin strip with the winding flag (above); `rac1_regions`: LOD 0's
// packets carry the colour-index and slot-step regions (A.10 item 11).
ClassBlob tie_class(int32_t o_class, const std::vector<Box>& boxes, int texture_count, std::array<uint8_t, 16> textures, bool with_fin = false,
                    bool rac1_regions = false) {
    double extent = with_fin ? boxes.back().hi[2] + 0.5 : 0;
    std::array<double, 3> lo{1e9, 1e9, 1e9}, hi{-1e9, -1e9, -1e9};
    for (const Box& b : boxes)
        for (int k = 0; k < 3; ++k) {
            extent = std::max({extent, std::abs(b.lo[k]), std::abs(b.hi[k])});
            lo[k] = std::min(lo[k], b.lo[k]), hi[k] = std::max(hi[k], b.hi[k]);
        }
    if (with_fin) hi[2] += 0.5;
    formats::tie::ClassSpec spec;
    spec.o_class = static_cast<int16_t>(o_class);
    spec.scale = static_cast<float>(std::ceil(extent * 1024.0 / 32000.0 * 64.0) / 64.0);  // the largest coordinate fits s16 (A.10 item 8)
    spec.texture_count = texture_count;
    spec.near_dist = 40, spec.mid_dist = 80, spec.far_dist = 160;
    const std::array<double, 3> centre = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
    const double radius = std::sqrt(std::pow(hi[0] - centre[0], 2) + std::pow(hi[1] - centre[1], 2) + std::pow(hi[2] - centre[2], 2));
    spec.bsphere = {static_cast<float>(centre[0]), static_cast<float>(centre[1]), static_cast<float>(centre[2]), static_cast<float>(radius)};
    std::vector<Strip> lod[3];
    for (const Box& b : boxes) {
        for (const Strip& s : box_strips(b, true, true)) lod[0].push_back(s);
        for (const Strip& s : box_strips(b, true, false)) lod[1].push_back(s);
    }
    if (with_fin) lod[0].push_back(fin(boxes.back()));
    lod[2] = box_strips({lo, hi, boxes.front().side_material, boxes.front().cap_material}, false, false);  // the hull alone
    for (int i = 0; i < 3; ++i) spec.lods[i] = packets(lod[i], spec.scale, i == 0 ? 2 : 0, i);
    for (PacketSpec& p : spec.lods[0]) p.rac1_regions = rac1_regions;
    return {o_class, formats::tie::write_tie_class(spec), textures};
}

}  // namespace tie_shapes

std::vector<ClassBlob> make_ties(Random& random) {
    using namespace tie_shapes;
    const double w = 1.0 + random.unit() * 0.5, h = 4.0 + random.unit() * 2.0;
    std::vector<ClassBlob> out;
    // An arch: two legs and a lintel, three materials.
    out.push_back(tie_class(500, {{{-3 * w, -w, 0}, {-w, w, h}, 0, 1}, {{w, -w, 0}, {3 * w, w, h}, 0, 1}, {{-3 * w, -w, h}, {3 * w, w, h + 1.5}, 2, 1}}, 3,
                            texture_slots({0, 1, 2})));
    // A pillar: a shaft and a capital.
    out.push_back(tie_class(501, {{{-w / 2, -w / 2, 0}, {w / 2, w / 2, 2 * h}, 0, 1}, {{-w, -w, 2 * h}, {w, w, 2 * h + 0.5}, 1, 1}}, 2, texture_slots({1, 3}), true));
    // A stair block: four steps.
    std::vector<Box> steps;
    for (int i = 0; i < 4; ++i) steps.push_back({{i * w, -2 * w, 0}, {(i + 1) * w, 2 * w, (i + 1) * 0.5}, i % 2, (i + 1) % 2});
    out.push_back(tie_class(502, steps, 2, texture_slots({4, 5}), false, true));
    return out;
}

}  // namespace gcfs::mkdisc
