#include "mkdisc/mobies.h"

#include <algorithm>
#include <cmath>

#include "formats/moby/moby.h"

namespace gcfs::mkdisc {
// This file's shapes, apart from its siblings' (a unity build compiles them together).
namespace moby_shapes {

using formats::moby::ClassSpec;
using formats::moby::PacketSpec;
using formats::moby::RecordSpec;
using formats::moby::Vertex;

struct Point {
    double x, y, z, u, v;
    std::array<double, 3> normal;
};

// §8.5: the normal as azimuth and elevation in units of pi/128; straight up adds 0x80 to the azimuth.
std::pair<uint8_t, uint8_t> encode_normal(const std::array<double, 3>& n) {
    const double length = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    const auto az = static_cast<int>(std::lround(std::atan2(n[0], n[1]) * 128 / M_PI));
    const auto el = static_cast<int>(std::lround(std::asin(std::clamp(n[2] / length, -1.0, 1.0)) * 128 / M_PI));
    return {static_cast<uint8_t>(el == 0x40 ? az + 0x80 : az), static_cast<uint8_t>(el)};
}

Vertex vertex(const Point& p, float scale) {
    const auto [az, el] = encode_normal(p.normal);
    auto raw = [&](double v) { return static_cast<int16_t>(std::lround(v * 1024.0 / scale)); };
    return {raw(p.x), raw(p.y), raw(p.z), az, el, static_cast<int16_t>(std::lround(p.u * 4096)), static_cast<int16_t>(std::lround(p.v * 4096))};
}

RecordSpec main_record(const Point& p, float scale, uint16_t id, uint8_t load = 0x00) {
    RecordSpec r;
    r.vertex = vertex(p, scale);
    r.id = id;
    r.skin = {load, formats::moby::kDiscardSlot, 0, 0, 0, 0};  // §15: load a matrix, keep no transfer
    return r;
}

// A joint's bind frame: a column-major 3x3, a rotation times a uniform scale
// (uniform, so a glTF node's matrix built from two of them is still
// translation, rotation and scale).
using Frame = std::array<double, 9>;
constexpr Frame kUnturned{1, 0, 0, 0, 1, 0, 0, 0, 1};

// `degrees` about `axis` (Rodrigues' formula), times `scale`.
Frame turned(std::array<double, 3> axis, double degrees, double scale) {
    const double n = std::hypot(axis[0], axis[1], axis[2]), x = axis[0] / n, y = axis[1] / n, z = axis[2] / n;
    const double a = degrees * M_PI / 180, c = std::cos(a), s = std::sin(a), t = 1 - c;
    Frame f{t * x * x + c,     t * x * y + s * z, t * x * z - s * y,   // column 0
            t * x * y - s * z, t * y * y + c,     t * y * z + s * x,   // column 1
            t * x * z + s * y, t * y * z - s * x, t * z * z + c};      // column 2
    for (double& v : f) v *= scale;
    return f;
}

// A joint at `p` (class space, world units) with bind frame `frame`. §11 as
// Wrench's recover_moby_joints reads the skeleton: the stored 3x3 is the
// inverse of the inverse bind matrix's, so the frame itself, and m_3.xyz the
// inverse bind's translation, -frame⁻¹·p, in raw vertex units (× 1024/scale).
// common_trans holds p (what its x, y, z mean is not published, §11).
formats::moby::Joint joint(int parent, std::array<float, 3> p, float scale, const Frame& frame = kUnturned) {
    formats::moby::Joint j;
    j.parent = parent;
    j.translation = p;
    const double squared_scale = frame[0] * frame[0] + frame[1] * frame[1] + frame[2] * frame[2];
    const double raw = 1024.0 / scale;
    for (int c = 0; c < 3; ++c) {
        double inverse_p = 0;  // (frame⁻¹ p)_c = (frameᵀ p)_c / scale² for a scaled rotation
        for (int r = 0; r < 3; ++r) {
            j.matrix[static_cast<size_t>(4 * c + r)] = static_cast<float>(frame[static_cast<size_t>(3 * c + r)]);
            inverse_p += frame[static_cast<size_t>(3 * c + r)] * p[static_cast<size_t>(r)];
        }
        j.matrix[static_cast<size_t>(12 + c)] = static_cast<float>(-inverse_p / squared_scale * raw);
    }
    j.matrix[15] = 1;
    return j;
}

// A square plate `half` across at height z (inside the class's scale), four records from cache ID
// `id`, textured with slot `texture`: what the builder's bangles are made of.
PacketSpec plate(double half, double z, float scale, uint16_t id, int texture) {
    PacketSpec p;
    for (int k = 0; k < 4; ++k) {
        const double su = k % 2 ? 1 : -1, sv = k / 2 ? 1 : -1;
        p.records.push_back(main_record({half * su, half * sv, z, (su + 1) / 2, (sv + 1) / 2, {0, 0, 1}}, scale, static_cast<uint16_t>(id + k)));
    }
    p.strips = {{texture, {0, 1, 2, 3}}};
    return p;
}

// formats-moby.md §4.4: a sound def, 0x20 bytes. Its fields as Wrench's
// MobySoundDef names them (the reference gives only the size): f32 min and
// max range, s32 min and max volume, min and max pitch, u8 loop, u8 flags,
// s16 index, s32 bank index.
std::array<uint8_t, 0x20> sound_def(float max_range, int16_t index, bool loop) {
    formats::ByteWriter w;
    w.f32(max_range / 4), w.f32(max_range), w.s32(0x400), w.s32(0x1000), w.s32(-64), w.s32(64);
    w.u8(loop ? 1 : 0), w.u8(0), w.s16(index), w.s32(0);
    std::array<uint8_t, 0x20> out{};
    std::copy(w.bytes().begin(), w.bytes().end(), out.begin());
    return out;
}

// A box, a 4-vertex strip per face (its own UVs), every vertex on joint 0.
ClassSpec crate(double half, float scale) {
    ClassSpec spec;
    spec.scale = scale ? scale : static_cast<float>(std::ceil(2 * half * 1024.0 / 32000.0 * 64.0) / 64.0);  // z reaches 2 × half
    spec.bounding_sphere = {0, 0, static_cast<float>(half), static_cast<float>(half * 1.8)};
    spec.joints = {joint(-1, {0, 0, 0}, spec.scale)};
    PacketSpec p;
    const std::array<std::array<double, 3>, 6> normals = {{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}};
    uint16_t id = 1;
    for (const auto& n : normals) {
        // Two axes across the face.
        const std::array<double, 3> a = n[0] != 0 ? std::array<double, 3>{0, 1, 0} : std::array<double, 3>{1, 0, 0};
        const std::array<double, 3> b = {n[1] * a[2] - n[2] * a[1], n[2] * a[0] - n[0] * a[2], n[0] * a[1] - n[1] * a[0]};
        formats::moby::StripSpec strip{0, {}};
        for (int k = 0; k < 4; ++k) {
            const double su = k % 2 ? 1 : -1, sv = k / 2 ? 1 : -1;
            Point pt{half * (n[0] + su * a[0] + sv * b[0]), half * (n[1] + su * a[1] + sv * b[1]), half * (1 + n[2] + su * a[2] + sv * b[2]),
                     (su + 1) / 2, (sv + 1) / 2, n};
            strip.vertices.push_back(static_cast<uint8_t>(p.records.size()));
            p.records.push_back(main_record(pt, spec.scale, id++));
        }
        p.strips.push_back(strip);
    }
    spec.high = {p};
    // §4.2: a collision block, its points the box's corners (s16 / 1024 as
    // §4.2 reads them), its first and third parts bytes of unknown meaning; §4.4: two sound defs.
    formats::moby::CollisionSpec collision{1, 2, {8, 0, 0, 0, 1, 0, 0, 0}, {0xaa, 0xbb, 0xcc, 0xdd}, {}};
    for (int k = 0; k < 8; ++k)
        collision.points.push_back({static_cast<int16_t>(std::lround((k & 1 ? half : -half) * 1024)),
                                    static_cast<int16_t>(std::lround((k & 2 ? half : -half) * 1024)),
                                    static_cast<int16_t>(std::lround((k & 4 ? 2 * half : 0) * 1024))});
    spec.collision = collision;
    spec.sound_defs = {sound_def(30, 3, false), sound_def(12, 7, true)};
    // §12: a lid as a bangle, high LOD only (its low LOD entry absent).
    spec.bangles = {{{plate(half * 0.8, 2 * half, spec.scale, 40, 0)}, {}, {0, 0, static_cast<int16_t>(2 * half * 1024 / spec.scale), 0, 1, 2, 3, 4}}};
    return spec;
}

// A tube along y in rings of 6, bent over a chain of four joints, each bind
// frame turned its own way and scaled (so §11's convention shows in every
// pose): packet 0 holds rings 0-2 with blends, packet 1 rings 3-4 on the last
// two joints and re-sends ring 2 as duplicates of packet 0's cache entries
// with new texture coordinates (§8.5).
ClassSpec worm(double length, float scale) {
    ClassSpec spec;
    spec.scale = scale ? scale : static_cast<float>(std::ceil(length * 1024.0 / 32000.0 * 64.0) / 64.0);
    spec.bounding_sphere = {0, static_cast<float>(length / 2), 0, static_cast<float>(length)};
    auto along = [&](double part) { return std::array<float, 3>{0, static_cast<float>(length * part), 0}; };
    // One scale for the whole chain: a Blender bone keeps no scale of its own at rest, so its
    // glTF importer cannot give a chain whose joints differ in scale its bind pose back.
    constexpr double kChainScale = 1.25;
    spec.joints = {joint(-1, along(0), spec.scale, turned({0, 0, 1}, 30, kChainScale)),
                   joint(0, along(0.25), spec.scale, turned({1, 0, 0}, 40, kChainScale)),
                   joint(1, along(0.5), spec.scale, turned({1, 1, 0}, -55, kChainScale)),
                   joint(2, along(0.75), spec.scale, turned({0, 1, 1}, 70, kChainScale))};
    const int sides = 6;
    auto ring_point = [&](int ring, int k, double v) {
        const double a = 2 * M_PI * k / sides, y = length * ring / 4.0;
        return Point{0.4 * std::cos(a), y, 0.4 * std::sin(a), static_cast<double>(k) / sides, v, {std::cos(a), 0, std::sin(a)}};
    };
    // Packet 0: rings 0, 1, 2 (18 records). Record 0 is a two-way blend of joints 0 and 1
    // (storing joint 2 on the way), record 1 a three-way blend of joints 0, 1 and 2; the rest
    // are main records on joint 0, the blends, or joint 1.
    PacketSpec p0;
    p0.transfers = {{0, 0x00}, {1, 0x04}};
    // Cache IDs are 9 bits (§8.4); the worm's start at 300, past the 8 bits
    // Wrench's writer keeps, so that bit 8 is written and read (whether real
    // classes use it is unknown, §8.4).
    constexpr uint16_t kFirstCacheId = 300;
    uint16_t id = kFirstCacheId;
    for (int ring = 0; ring < 3; ++ring)
        for (int k = 0; k < sides; ++k) {
            const Point pt = ring_point(ring, k, ring / 4.0);
            RecordSpec r = main_record(pt, spec.scale, id++, ring == 0 ? 0x00 : ring == 1 ? 0x10 : 0x04);
            if (ring == 0 && k == 0) {
                r.kind = RecordSpec::Kind::two_way;
                r.joint_field = 2;
                r.skin = {0x00, 0x04, 128, 127, 0x08, 0x10};  // store joint 2 at 0x08, blend 0 and 1 into 0x10
            } else if (ring == 0 && k == 1) {
                r.kind = RecordSpec::Kind::three_way;
                r.joint_field = 4;                             // C = 4 × 2 = 0x08: joint 2
                r.skin = {0x00, 0x04, 100, 100, 55, 0x14};    // blend into 0x14
            } else if (ring == 2 && k % 2) {
                r.skin[0] = 0x14;
            }
            p0.records.push_back(r);
        }
    auto band = [&](int texture, int lower, int upper) {  // a strip round two rings of VU1 vertices
        formats::moby::StripSpec s{texture, {}};
        for (int k = 0; k <= sides; ++k) {
            s.vertices.push_back(static_cast<uint8_t>(lower + k % sides));
            s.vertices.push_back(static_cast<uint8_t>(upper + k % sides));
        }
        return s;
    };
    p0.strips = {band(0, 0, 6), band(1, 6, 12)};
    // Packet 1: ring 2 again as duplicates (VU1 0-5 come after 12 records: 12-17), ring 3 on
    // joint 2 and ring 4 on joint 3, the end of the chain.
    PacketSpec p1;
    p1.transfers = {{2, 0x08}, {3, 0x0c}};
    for (int ring = 3; ring < 5; ++ring)
        for (int k = 0; k < sides; ++k)
            p1.records.push_back(main_record(ring_point(ring, k, ring / 4.0), spec.scale, id++, ring == 3 ? 0x08 : 0x0c));
    for (int k = 0; k < sides; ++k)
        p1.duplicates.push_back({static_cast<uint16_t>(kFirstCacheId + 2 * sides + k), static_cast<int16_t>(4096 * k / sides), 4096 / 2});
    p1.strips = {band(1, 12, 0), band(0, 0, 6)};
    spec.high = {p0, p1};
    // §2 0x0f: two shadow records before the skeleton (bytes of unknown meaning);
    // §4.5: a corncob of two kernels, one with three vertices, one a zero vector
    // (Wrench reads no vertices for it), in entries 2 and 9, the others 0xff.
    spec.shadows = {{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}}, {{0x80, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x80, 0}}};
    spec.corncob[2] = formats::moby::CornCobKernel{{0, static_cast<float>(length / 2), 0, 0.5f}, {{0, 100, 0, 0}, {50, 200, 0, 0}, {-50, 300, 0, 0}}};
    spec.corncob[9] = formats::moby::CornCobKernel{};
    return spec;
}

// A square pyramid in the R&C1 vertex-table layout (§1.4, §8.6): a strip per side.
ClassSpec pyramid(double half, float scale) {
    ClassSpec spec;
    spec.scale = scale ? scale : static_cast<float>(std::ceil(2 * half * 1024.0 / 32000.0 * 64.0) / 64.0);
    spec.rac1_layout = true;
    spec.dummy_sequence = true;
    spec.bounding_sphere = {0, 0, static_cast<float>(half), static_cast<float>(half * 1.5)};
    PacketSpec p;
    for (int k = 0; k < 4; ++k) {
        const double a = M_PI / 2 * k + M_PI / 4;
        p.records.push_back(main_record({half * std::cos(a), half * std::sin(a), 0, k / 4.0, 1, {std::cos(a), std::sin(a), 0.5}}, spec.scale,
                                        static_cast<uint16_t>(k + 1)));
    }
    p.records.push_back(main_record({0, 0, 2 * half, 0.5, 0, {0, 0, 1}}, spec.scale, 5));
    for (uint8_t k = 0; k < 4; ++k) p.strips.push_back({0, {k, static_cast<uint8_t>((k + 1) % 4), 4}});
    spec.high = {p};
    return spec;
}

// An octahedron pickup (a strip per face, its halves in two textures); its
// low LOD a flat diamond; a chrome packet over its waist (§9).
ClassSpec pickup(double r, float scale) {
    ClassSpec spec;
    spec.scale = scale ? scale : static_cast<float>(std::ceil(2 * r * 1024.0 / 32000.0 * 64.0) / 64.0);
    spec.bounding_sphere = {0, 0, static_cast<float>(r), static_cast<float>(r)};
    spec.joints = {joint(-1, {0, 0, 0}, spec.scale)};
    PacketSpec high;
    const std::array<std::array<double, 3>, 4> ring = {{{r, 0, r}, {0, r, r}, {-r, 0, r}, {0, -r, r}}};
    for (int k = 0; k < 4; ++k)
        high.records.push_back(main_record({ring[k][0], ring[k][1], ring[k][2], k / 4.0, 0.5, {ring[k][0], ring[k][1], 0}}, spec.scale,
                                           static_cast<uint16_t>(k + 1)));
    high.records.push_back(main_record({0, 0, 2 * r, 0.5, 0, {0, 0, 1}}, spec.scale, 5));
    high.records.push_back(main_record({0, 0, 0, 0.5, 1, {0, 0, -1}}, spec.scale, 6));
    for (uint8_t tip = 4; tip < 6; ++tip)
        for (uint8_t k = 0; k < 4; ++k) high.strips.push_back({tip - 4, {k, static_cast<uint8_t>((k + 1) % 4), tip}});
    spec.high = {high};
    PacketSpec low;
    for (int k = 0; k < 4; ++k)
        low.records.push_back(main_record({ring[k][0], ring[k][1], r, k % 2 ? 1.0 : 0.0, k / 2 ? 1.0 : 0.0, {0, 0, 1}}, spec.scale,
                                          static_cast<uint16_t>(k + 1)));
    low.strips = {{0, {0, 1, 3, 2}}};
    spec.low = {low};
    formats::moby::MetalPacketSpec chrome;
    for (const auto& q : ring)
        chrome.vertices.push_back({static_cast<int16_t>(std::lround(q[0] * 1024 / spec.scale)), static_cast<int16_t>(std::lround(q[1] * 1024 / spec.scale)),
                                   static_cast<int16_t>(std::lround(q[2] * 1024 / spec.scale))});
    chrome.strip = {0, 1, 3, 2};
    spec.metal = {chrome};
    // §12: two bangles after the chrome packet: a halo over the tip with both
    // LODs (the low one a smaller plate), and a shadow plate under it, high only,
    // in the second texture (the GIF usage table lists bangle packets too).
    spec.sound_defs = {sound_def(20, 1, true)};
    spec.bangles = {{{plate(r * 0.6, 1.9 * r, spec.scale, 20, 0)}, {plate(r * 0.4, 1.9 * r, spec.scale, 24, 0)}, {1, 2, 3, 4, 5, 6, 7, 8}},
                    {{plate(r * 0.9, 0.02, spec.scale, 30, 1)}, {}, {-1, -2, -3, -4, 0, 0, 0, 0}}};
    return spec;
}

}  // namespace moby_shapes

formats::moby::ClassSpec moby_design(int design, double size, float scale) {
    using namespace moby_shapes;
    switch (design % 4) {
        case 0: return crate(size, scale);
        case 1: return worm(2 * size + 1, scale);
        case kStashedMobyDesign: return pyramid(size, scale);
        default: return pickup(size, scale);
    }
}

ClassBlob make_moby(int32_t o_class, int design, Random& random) {
    const double size = 0.5 + random.unit();
    const auto rows = design % 4 == 0 ? texture_slots({0}) : design % 4 == 1 ? texture_slots({1, 2}) : design % 4 == kStashedMobyDesign ? texture_slots({kStashedMobyRow}) : texture_slots({0, 3});
    return {o_class, formats::moby::write_moby_class(moby_design(design, size)), rows};
}

}  // namespace gcfs::mkdisc
