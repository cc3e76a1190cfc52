#include "mkdisc/shrubs.h"

#include <algorithm>
#include <cmath>

#include "formats/shrub/shrub.h"

namespace gcfs::mkdisc {
// This file's shapes, apart from its siblings' (a unity build compiles them together).
namespace shrub_shapes {

using formats::shrub::PacketSpec;

struct Point {
    std::array<double, 3> p;
    double u, v;
    std::array<double, 3> normal;
};
struct Strip {
    int texture;
    bool clamp;
    std::vector<Point> points;
    bool list = false;  // the points are triangles, three by three (PRIM type 3)
};

// The strip's triangles as a list, each as the strip draws it (odd ones with
// their first two points swapped), so the GS draws the same faces.
Strip as_list(const Strip& strip) {
    Strip out{strip.texture, strip.clamp, {}, true};
    for (size_t k = 0; k + 2 < strip.points.size(); ++k) {
        const bool odd = k % 2;
        out.points.push_back(strip.points[odd ? k + 1 : k]);
        out.points.push_back(strip.points[odd ? k : k + 1]);
        out.points.push_back(strip.points[k + 2]);
    }
    return out;
}

uint8_t nearest_normal(const std::array<double, 3>& n, const std::array<std::array<int16_t, 3>, 24>& table) {
    uint8_t best = 0;
    double best_dot = -2;
    for (size_t i = 0; i < table.size(); ++i) {
        const double dot = (n[0] * table[i][0] + n[1] * table[i][1] + n[2] * table[i][2]) / 32767.0;
        if (dot > best_dot) best_dot = dot, best = static_cast<uint8_t>(i);
    }
    return best;
}

// A vertical card in the plane through the origin along `along`, a strip per
// row of quads, facing `normal`.
std::vector<Strip> card(std::array<double, 3> along, std::array<double, 3> normal, double width, double height, int rows) {
    std::vector<Strip> out;
    for (int r = 0; r < rows; ++r) {
        Strip s{0, true, {}};
        for (int c = 0; c <= 2; ++c) {
            const double a = (c / 2.0 - 0.5) * width;
            for (int k = 0; k < 2; ++k) {
                const double z = (r + k) * height / rows;
                s.points.push_back({{a * along[0], a * along[1], z}, c / 2.0, 1.0 - (r + k) / static_cast<double>(rows), normal});
            }
        }
        out.push_back(s);
    }
    return out;
}

// A squashed sphere as latitude bands, textures alternating band by band.
std::vector<Strip> bush(double radius, double height, int bands, int sectors) {
    std::vector<Strip> out;
    for (int b = 0; b < bands; ++b) {
        Strip s{b % 2, false, {}};
        for (int i = 0; i <= sectors; ++i)
            for (int k = 1; k >= 0; --k) {
                const double lat = M_PI * ((b + k) / static_cast<double>(bands) - 0.5), lon = 2 * M_PI * i / sectors;
                const std::array<double, 3> n = {std::cos(lat) * std::cos(lon), std::cos(lat) * std::sin(lon), std::sin(lat)};
                s.points.push_back({{radius * n[0], radius * n[1], height / 2 * (1 + n[2])}, i / static_cast<double>(sectors),
                                    1.0 - (b + k) / static_cast<double>(bands), n});
            }
        out.push_back(s);
    }
    return out;
}

// Packs strips into packets within §1.7's limits (1 + G + 4T + 2R ≤ 118,
// G + 5T + 3R ≤ 168); every packet opens with a texture record (§4 item 7).
std::vector<PacketSpec> packets(const std::vector<Strip>& strips, float scale, const std::array<std::array<int16_t, 3>, 24>& normals) {
    std::vector<PacketSpec> out;
    int g = 0, t = 0, r = 0, texture = -1;
    for (const Strip& s : strips) {
        const int n = static_cast<int>(s.points.size());
        const int dt = s.texture != texture ? 1 : 0;
        if (out.empty() || 1 + g + 1 + 4 * (t + dt) + 2 * (r + n) > 118 || g + 1 + 5 * (t + dt) + 3 * (r + n) > 168) {
            out.emplace_back();
            g = 0, t = 1, r = 0;
        } else {
            t += dt;
        }
        texture = s.texture;
        g += 1, r += n;
        PacketSpec::Strip spec{s.texture, s.clamp, false, {}, s.list};
        for (const Point& p : s.points)
            spec.vertices.push_back({fixed(p.p[0], 1024.0 / scale), fixed(p.p[1], 1024.0 / scale), fixed(p.p[2], 1024.0 / scale), fixed(p.u, 4096),
                                     fixed(p.v, 4096), 0x1000, nearest_normal(p.normal, normals)});
        out.back().strips.push_back(spec);
    }
    return out;
}

ShrubBlob shrub_class(int32_t o_class, const std::vector<Strip>& strips, std::array<uint8_t, 16> textures, int billboard_edge) {
    std::array<double, 3> lo{1e9, 1e9, 1e9}, hi{-1e9, -1e9, -1e9};
    for (const Strip& s : strips)
        for (const Point& p : s.points)
            for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p.p[k]), hi[k] = std::max(hi[k], p.p[k]);
    double extent = 0, radius = 0;
    const std::array<double, 3> centre = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
    for (const Strip& s : strips)
        for (const Point& p : s.points) {
            for (int k = 0; k < 3; ++k) extent = std::max(extent, std::abs(p.p[k]));
            radius = std::max(radius, std::hypot(p.p[0] - centre[0], p.p[1] - centre[1], p.p[2] - centre[2]));
        }
    formats::shrub::ClassSpec spec;
    spec.o_class = static_cast<int16_t>(o_class);
    spec.scale = static_cast<float>(extent * 1024.0 / 32766.0);  // §1.6: the largest |coordinate| maps to 32766
    spec.mip_distance = 30;
    // §1.6: centre and radius ÷ scale; ours is the true AABB centre (no FLT_MIN quirk).
    spec.bounding_sphere = {static_cast<float>(centre[0] / spec.scale), static_cast<float>(centre[1] / spec.scale),
                            static_cast<float>(centre[2] / spec.scale), static_cast<float>(radius / spec.scale)};
    spec.normals = formats::shrub::standard_normals();
    spec.packets = packets(strips, spec.scale, spec.normals);
    formats::shrub::Billboard billboard{60, static_cast<float>(hi[0] - lo[0]), static_cast<float>(hi[2] - lo[2]),
                                        static_cast<float>((hi[2] - lo[2]) / 2), {}};
    // §1.11 (a): TEX1 lo = K(fade), hi 4; TEX0 lo 1; address bytes 0, as Wrench's builder leaves them.
    const uint32_t k = formats::shrub::lod_k(billboard.fade_distance);
    for (int b = 0; b < 4; ++b) billboard.ad[b] = static_cast<uint8_t>(k >> (8 * b));
    billboard.ad[4] = 4;
    billboard.ad[0x10] = 1;
    spec.billboard = billboard;
    formats::Bytes bytes = formats::shrub::write_shrub_class(spec);
    bytes.resize(formats::align_up(bytes.size(), 0x40), 0);  // §4 item 12: zeros to the next 0x40
    return {{o_class, std::move(bytes), textures}, billboard_edge};
}

}  // namespace shrub_shapes

std::vector<ShrubBlob> make_shrubs(Random& random, int billboard_edge) {
    using namespace shrub_shapes;
    std::array<uint8_t, 16> plant_slots, bush_slots;
    plant_slots.fill(0xff), bush_slots.fill(0xff);
    plant_slots[0] = 0;
    bush_slots[0] = 1, bush_slots[1] = 2;
    const double h = 1.2 + random.unit() * 0.6;
    std::vector<Strip> plant = card({1, 0, 0}, {0, -1, 0}, h * 0.8, h, 3);
    for (const Strip& s : card({0, 1, 0}, {1, 0, 0}, h * 0.8, h, 3)) plant.push_back(s);
    plant.back() = as_list(plant.back());  // formats-shrub.md §1.5: a shrub may draw triangle lists too
    return {shrub_class(700, plant, plant_slots, billboard_edge), shrub_class(701, bush(0.9 + random.unit() * 0.3, 1.1, 4, 8), bush_slots, billboard_edge)};
}

}  // namespace gcfs::mkdisc
