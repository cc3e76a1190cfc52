#include <algorithm>
#include <array>
#include <stdexcept>

#include "formats/tie/tie.h"

namespace gcfs::formats::tie {
namespace {

struct Stored {
    Vertex vertex;
    uint32_t slot = 0, slot2 = 0;
};

struct LaidOut {
    std::array<int32_t, 4> dest{}, src{};
    int blocks = 1;
    struct StripRecord {
        uint8_t count, slot, winding;  // vertex_count, gif_tag_offset, rc34_winding_order (A.4)
    };
    std::vector<StripRecord> strips;
    std::vector<Stored> stored;
    int real_stored = 0;
};

void check_slot(uint32_t slot) {
    if (slot > 0xff) throw std::logic_error("tie writer: a packet's GS slots pass 255 (A.10 item 5)");
}

// A.10 item 5: block 0 at slots 0-5, each strip tag where the cursor arrives,
// its vertices 3 slots apart, a 6-slot block before a strip whose material differs.
LaidOut lay_out(const PacketSpec& packet) {
    LaidOut out;
    if (packet.strips.empty()) throw std::logic_error("tie writer: a packet needs a strip");
    int material = packet.strips.front().material;
    out.src[0] = material * static_cast<int32_t>(kAdGifSize);
    uint32_t cursor = kAdGifSlots;
    for (size_t s = 0; s < packet.strips.size(); ++s) {
        const StripSpec& strip = packet.strips[s];
        if (strip.material != material) {
            if (out.blocks == kMaxBlocksPerPacket) throw std::logic_error("tie writer: more than 4 materials in a packet");
            out.dest[out.blocks - 1] = static_cast<int32_t>(cursor);
            out.src[out.blocks++] = strip.material * static_cast<int32_t>(kAdGifSize);
            material = strip.material;
            cursor += kAdGifSlots;
        }
        check_slot(cursor);
        out.strips.push_back({static_cast<uint8_t>(strip.vertices.size()), static_cast<uint8_t>(cursor), static_cast<uint8_t>(strip.flip ? 1 : 0)});
        cursor += kStripTagSlots;
        for (size_t i = 0; i < strip.vertices.size(); ++i) {
            check_slot(cursor);
            // A.5 step 1: the previous strip's last vertex serves this strip's first slot too.
            Stored* shared = i == 0 && s > 0 && !out.stored.empty() ? &out.stored.back() : nullptr;
            if (shared && shared->vertex == strip.vertices[i] && shared->slot2 == 0) shared->slot2 = cursor;
            else out.stored.push_back({strip.vertices[i], cursor, 0});
            cursor += kVertexSlots;
        }
    }
    out.real_stored = static_cast<int>(out.stored.size());
    // A.10 item 6: at least 4 stored vertices, padded with same-slot copies.
    while (out.stored.size() < 4) out.stored.push_back({out.stored.back().vertex, out.stored.back().slot, 0});
    return out;
}

void dinky(ByteWriter& w, const Stored& v) {
    w.s16(v.vertex.x), w.s16(v.vertex.y), w.s16(v.vertex.z), w.u16(static_cast<uint16_t>(v.slot));
    w.s16(v.vertex.s), w.s16(v.vertex.t), w.u16(v.vertex.q), w.u16(static_cast<uint16_t>(v.slot2));
}

void fat(ByteWriter& w, const Stored& v) {
    w.zeros(6);  // unknown_0/2/4: LOD-morph deltas by [ext-RAC1]; none here (A.4)
    w.u16(static_cast<uint16_t>(v.slot));
    w.s16(v.vertex.x), w.s16(v.vertex.y), w.s16(v.vertex.z), w.u16(0);
    w.s16(v.vertex.s), w.s16(v.vertex.t), w.u16(v.vertex.q), w.u16(static_cast<uint16_t>(v.slot2));
}

// Writes one packet's data at the writer's end; returns its 16-byte header
// with `data` still relative to the class (the caller rebases it).
Bytes packet(ByteWriter& w, const PacketSpec& spec) {
    const LaidOut l = lay_out(spec);
    const int fat_count = std::min(spec.fat_vertices, l.real_stored);
    std::vector<Stored> dinkies(l.stored.begin(), l.stored.end()), fats;
    // The last `fat_count` real vertices go fat; padding copies stay dinky.
    fats.assign(dinkies.begin() + (l.real_stored - fat_count), dinkies.begin() + l.real_stored);
    dinkies.erase(dinkies.begin() + (l.real_stored - fat_count), dinkies.begin() + l.real_stored);
    if (spec.reverse_dinky) std::reverse(dinkies.begin(), dinkies.end());

    const uint64_t start = w.size();
    const uint64_t strips_end = kStripsAt + 4 * l.strips.size();
    const uint64_t vert_ofs = align_up(strips_end, 16) / 16;
    const uint64_t vert_bytes = kDinkySize * dinkies.size() + kFatSize * fats.size();
    const uint64_t vert_size = align_up(vert_bytes, 16) / 16;  // slack < 16 < 24: no phantom fat vertex
    if (vert_ofs + vert_size > 0xff || dinkies.size() > 125) throw std::logic_error("tie writer: packet too large (A.8 range limits)");
    int strip_vertices = 0;
    for (const auto& s : l.strips) strip_vertices += s.count;
    bool any_shared = false;
    for (const Stored& v : l.stored) any_shared |= v.slot2 != 0;

    for (int32_t d : l.dest) w.s32(d);
    for (int32_t s : l.src) w.s32(s);
    // Unpack header (A.4): bytes 0-2 and 9-11 as [ext-RAC1] reads them,
    // bytes 4-7 (VU loop end slots) unknown, left 0.
    w.u8(any_shared ? 0 : 1);
    w.u8(fats.empty() ? 1 : 0);
    w.u8(l.strips.front().slot);
    w.u8(static_cast<uint8_t>(l.strips.size()));
    w.zeros(4);
    w.u8(static_cast<uint8_t>(2 * dinkies.size() + 4));
    w.u8(static_cast<uint8_t>(3 * fats.size() + 6));
    w.u8(static_cast<uint8_t>(dinkies.size()));
    w.u8(static_cast<uint8_t>(fats.size()));
    // A.10 item 7 writes winding 0 (what GC is expected to hold); a spec may ask for 1 (A.4).
    for (const auto& s : l.strips) w.u8(s.count), w.u8(0), w.u8(s.slot), w.u8(s.winding);
    w.pad_to(16);
    for (const Stored& v : dinkies) dinky(w, v);
    for (const Stored& v : fats) fat(w, v);
    w.pad_to(16);
    std::array<uint8_t, 4> regions{};  // A.3 bytes 0xa-0xd: none unless asked
    if (spec.rac1_regions) {
        const uint64_t stored = dinkies.size() + fats.size();
        regions[0] = static_cast<uint8_t>(vert_ofs + vert_size);  // [ext-RAC1]: the colour-index region follows the vertices
        regions[1] = static_cast<uint8_t>(stored);
        for (uint64_t i = 0; i < stored; ++i) w.u8(static_cast<uint8_t>(i % 4));  // an index per vertex into the class's colours
        w.pad_to(16);
        regions[2] = static_cast<uint8_t>((w.size() - start) / 16);
        for (uint64_t i = 0; i < stored; ++i) w.u8(static_cast<uint8_t>(kVertexSlots));  // the slot step to the next vertex
        w.pad_to(16);
        regions[3] = static_cast<uint8_t>((w.size() - start) / 16 - regions[2]);
        if ((w.size() - start) / 16 > 0xff) throw std::logic_error("tie writer: packet regions past a u8 qword offset");
    }

    ByteWriter h;
    h.s32(static_cast<int32_t>(start));
    h.u8(static_cast<uint8_t>(l.blocks));
    h.u8(static_cast<uint8_t>(5 * l.blocks));                             // bfc_distance [ext-RAC1]
    h.u8(static_cast<uint8_t>(3 + l.strips.size()));                      // control_count [ext-RAC1]
    h.u8(static_cast<uint8_t>(align_up(12 + 4 * l.strips.size(), 16) / 16));  // control_size [ext-RAC1]
    h.u8(static_cast<uint8_t>(vert_ofs));
    h.u8(static_cast<uint8_t>(vert_size));
    for (uint8_t b : regions) h.u8(b);  // rgba_count, multipass_ofs, scissor_ofs, scissor_size as [ext-RAC1] reads them
    h.u8(static_cast<uint8_t>(l.strips.size()));
    h.u8(static_cast<uint8_t>(strip_vertices));
    return h.bytes();
}

void ad_gif(ByteWriter& w, int slot) {
    // A.6 step 4: the register order is fixed; the payloads follow Wrench's
    // shrub writer by analogy (TEX0 and MIPTBP1 hold the slot, TEX1 hi = 4):
    // unverified for ties, and no reader interprets them.
    const std::array<std::pair<int32_t, int32_t>, 5> data = {{{slot, 0}, {0, 4}, {slot, 0}, {0, 0}, {0, 0}}};
    for (size_t i = 0; i < 5; ++i) {
        w.s32(data[i].first);
        w.s32(data[i].second);
        w.u8(kAdGifRegisters[i]);
        w.zeros(7);
    }
}

}  // namespace

bool packet_fits(const PacketSpec& spec) {
    try {
        ByteWriter scratch;
        packet(scratch, spec);
        return true;
    } catch (const std::logic_error&) {
        return false;
    }
}

Bytes write_tie_class(const ClassSpec& spec) {
    ByteWriter w;
    w.zeros(kHeaderSize);
    std::array<int32_t, 3> tables{};
    std::array<std::array<int16_t, 3>, 3> totals{};
    for (int i = 0; i < kLods; ++i) {
        const auto& packets = spec.lods[i];
        if (packets.size() > 0xff) throw std::logic_error("tie writer: packet_count is a u8");
        tables[i] = static_cast<int32_t>(w.size());
        const uint64_t table = w.size();
        w.zeros(kPacketHeaderSize * packets.size());
        for (size_t j = 0; j < packets.size(); ++j) {
            Bytes header = packet(w, packets[j]);
            const int32_t data = static_cast<int32_t>(s32_at(header, 0) - table);  // A.3: relative to the LOD table
            for (int b = 0; b < 4; ++b) header[b] = static_cast<uint8_t>(static_cast<uint32_t>(data) >> (8 * b));
            std::copy(header.begin(), header.end(), w.bytes().begin() + static_cast<int64_t>(table + kPacketHeaderSize * j));
            for (const StripSpec& s : packets[j].strips) {
                totals[i][0] = static_cast<int16_t>(totals[i][0] + s.vertices.size());
                totals[i][1] = static_cast<int16_t>(totals[i][1] + (s.vertices.size() > 2 ? s.vertices.size() - 2 : 0));
                ++totals[i][2];
            }
        }
    }
    w.pad_to(16);
    const int32_t ad_gif_ofs = static_cast<int32_t>(w.size());
    for (int m = 0; m < spec.texture_count; ++m) ad_gif(w, m);
    w.pad_to(0x40);  // A.1: classes are 0x40-aligned in the core

    ByteWriter h;
    for (int32_t t : tables) h.s32(t);
    for (const auto& packets : spec.lods) h.u8(static_cast<uint8_t>(packets.size()));
    h.u8(static_cast<uint8_t>(spec.texture_count));
    h.f32(spec.near_dist), h.f32(spec.mid_dist), h.f32(spec.far_dist);
    h.s32(ad_gif_ofs);
    h.zeros(0x40 - 0x20);  // instance_index .. instance_count: unknown, 0 as in A.9
    h.f32(spec.scale);
    h.s16(spec.o_class);
    h.zeros(10);  // t_class, mip_dist, glow_rgba
    for (float f : spec.bsphere) h.f32(f);
    for (const auto& t : totals) h.s16(t[0]), h.s16(t[1]), h.s16(t[2]), h.s16(0);
    h.zeros(8);  // glow_remap_ofs, pad
    std::copy(h.bytes().begin(), h.bytes().end(), w.bytes().begin());
    return w.bytes();
}

}  // namespace gcfs::formats::tie
