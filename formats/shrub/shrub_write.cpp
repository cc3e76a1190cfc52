#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "formats/shrub/shrub.h"
#include "formats/vif/vif.h"

namespace gcfs::formats::shrub {
namespace {

constexpr uint64_t kPrimStrip = 0x7C;  // §1.5 PRIM: strip | IIP | TME | FGE | ABE
constexpr uint64_t kPrimList = 0x7B;   // the same with type 3, a triangle list (§1.5: lists and strips)

void gif_tag(ByteWriter& w, uint32_t nloop, bool eop, bool list, int32_t gs) {
    const uint64_t low = nloop | (eop ? 1ull << 15 : 0) | 1ull << 46 | (list ? kPrimList : kPrimStrip) << 47 | 3ull << 60;
    w.u32(static_cast<uint32_t>(low));
    w.u32(static_cast<uint32_t>(low >> 32));
    w.u32(kGifRegs);
    w.s32(gs);
}

void texture_record(ByteWriter& w, int slot, uint32_t k, bool clamp_s, bool clamp_t, int32_t gs) {
    w.u32(k), w.s32(4), w.u8(kAdRegisters[0]), w.zeros(3), w.s32(gs);  // TEX1: K, hi 4, then the GS offset (§1.5)
    w.s32(clamp_s ? 1 : 0), w.s32(clamp_t ? 1 : 0), w.u8(kAdRegisters[1]), w.zeros(7);
    w.s32(slot), w.s32(0), w.u8(kAdRegisters[2]), w.zeros(7);
    w.s32(slot), w.s32(0), w.u8(kAdRegisters[3]), w.zeros(7);
}

Bytes packet(const PacketSpec& spec, uint32_t k) {
    // §4 item 5: the GS offsets run gap-free from 0, a texture record first (item 7).
    ByteWriter tags, records;
    std::vector<std::pair<Vertex, int32_t>> vertices;
    int32_t gs = 0;
    int current = -1;
    int t = 0, g = 0;
    for (size_t s = 0; s < spec.strips.size(); ++s) {
        const auto& strip = spec.strips[s];
        if (strip.vertices.size() < 3) throw std::logic_error("shrub writer: a strip needs 3 vertices");
        if (strip.list && strip.vertices.size() % 3) throw std::logic_error("shrub writer: a list's vertices come in threes");
        if (strip.texture != current) {
            texture_record(records, strip.texture, k, strip.clamp_s, strip.clamp_t, gs);
            current = strip.texture;
            ++t;
            gs += kTextureSlots;
        }
        gif_tag(tags, static_cast<uint32_t>(strip.vertices.size()), s + 1 == spec.strips.size(), strip.list, gs);
        ++g;
        gs += kGifTagSlots;
        for (const Vertex& v : strip.vertices) {
            vertices.emplace_back(v, gs);
            gs += kVertexSlots;
        }
    }
    const int real = static_cast<int>(vertices.size());
    if (g + 5 * t + 3 * real > 168 || 1 + g + 4 * t + 2 * real > 118) throw std::logic_error("shrub writer: packet past the §1.7 limits");
    while (vertices.size() < static_cast<size_t>(kMinStoredVertices)) vertices.push_back(vertices.back());  // §4 item 9
    const auto v = static_cast<uint32_t>(vertices.size());
    const auto vo = static_cast<uint32_t>(1 + g + 4 * t);

    ByteWriter w;
    w.u32(vif::code(vif::STCYCL, 0, 0x0404));
    w.u32(vif::code(vif::NOP));
    w.u32(vif::code(vif::STMOD));
    w.u32(vif::unpack(vif::Format::V4_32, vo, 0, false));
    w.s32(t), w.s32(g), w.s32(static_cast<int32_t>(v)), w.s32(static_cast<int32_t>(vo));
    w.append(tags.bytes());
    w.append(records.bytes());
    w.u32(vif::code(vif::STMOD));
    w.u32(vif::unpack(vif::Format::V4_16, v, vo, false));
    for (const auto& [vertex, offset] : vertices) w.s16(vertex.x), w.s16(vertex.y), w.s16(vertex.z), w.s16(static_cast<int16_t>(offset));
    w.u32(vif::code(vif::STMOD));
    w.u32(vif::unpack(vif::Format::V4_16, v, vo + v, false));
    for (uint32_t i = 0; i < v; ++i) {
        const Vertex& vertex = vertices[i].first;
        w.s16(vertex.s), w.s16(vertex.t), w.s16(vertex.h);
        w.u16(static_cast<uint16_t>(vertex.normal | (i == v - 4 ? 0x8000 : 0)));  // §4 item 9: stop flag on V − 4
    }
    return w.bytes();
}

}  // namespace

uint32_t lod_k(float distance) {
    const double k = std::round(-16.0 * std::log2(std::max(static_cast<double>(distance), 1e-4)) - 73.0);
    return static_cast<uint16_t>(static_cast<int16_t>(k));
}

std::array<std::array<int16_t, 3>, kNormalCount> standard_normals() {
    // §1.9 names index 0 (up) and 23 (down) of the builder's set; the 22 in
    // between are not given, so these are ours: a spiral of even spacing.
    std::array<std::array<int16_t, 3>, kNormalCount> out{};
    const double golden = M_PI * (3.0 - std::sqrt(5.0));
    for (size_t i = 0; i < kNormalCount; ++i) {
        const double y = 1.0 - 2.0 * static_cast<double>(i) / (kNormalCount - 1);
        const double r = std::sqrt(std::max(0.0, 1.0 - y * y));
        const double a = golden * static_cast<double>(i);
        out[i] = {static_cast<int16_t>(std::lround(32767 * r * std::cos(a))), static_cast<int16_t>(std::lround(32767 * y)),
                  static_cast<int16_t>(std::lround(32767 * r * std::sin(a)))};
    }
    return out;
}

bool packet_fits(const PacketSpec& spec) {
    try {
        packet(spec, 0);
        return true;
    } catch (const std::logic_error&) {
        return false;
    }
}

Bytes write_shrub_class(const ClassSpec& spec) {
    const uint32_t k = lod_k(spec.mip_distance);
    ByteWriter w;
    w.zeros(kHeaderSize);
    const uint64_t table = w.size();
    w.zeros(kPacketEntrySize * spec.packets.size());
    w.pad_to(16);
    for (size_t i = 0; i < spec.packets.size(); ++i) {
        const Bytes p = packet(spec.packets[i], k);
        w.patch_u32(table + kPacketEntrySize * i, static_cast<uint32_t>(w.size()));
        w.patch_u32(table + kPacketEntrySize * i + 4, static_cast<uint32_t>(p.size()));
        w.append(p);
    }
    int32_t billboard_offset = 0;
    if (spec.billboard) {  // §1.11 (a): right after the packets; Wrench leaves the AD address bytes 0
        w.pad_to(16);
        billboard_offset = static_cast<int32_t>(w.size());
        w.f32(spec.billboard->fade_distance), w.f32(spec.billboard->width), w.f32(spec.billboard->height), w.f32(spec.billboard->z_ofs);
        w.append(spec.billboard->ad);
    }
    w.pad_to(16);
    const auto normals_offset = static_cast<int32_t>(w.size());
    for (const auto& n : spec.normals) w.s16(n[0]), w.s16(n[1]), w.s16(n[2]), w.s16(0);

    ByteWriter h;
    for (float f : spec.bounding_sphere) h.f32(f);
    h.f32(spec.mip_distance);
    h.u16(0), h.s16(0), h.s32(0);  // mode_bits, instance_count, instances_pointer: 0 (§1.2)
    h.s32(billboard_offset);
    h.f32(spec.scale);
    h.s16(spec.o_class), h.s16(0);
    h.s16(static_cast<int16_t>(spec.packets.size())), h.s16(0);
    h.s32(normals_offset);
    h.zeros(kHeaderSize - h.size());
    std::copy(h.bytes().begin(), h.bytes().end(), w.bytes().begin());
    return w.bytes();
}

}  // namespace gcfs::formats::shrub
