#include <algorithm>
#include <stdexcept>

#include "formats/moby/moby.h"

namespace gcfs::formats::moby {
namespace {

constexpr uint32_t kStAddress = 0x0c2;  // §6.2: where the ST UNPACK lands in VU memory
constexpr uint32_t kUnpackFlg = 0x8000;                        // add VIF1 TOPS
constexpr uint32_t kStCmd = 0x75, kIndexCmd = 0x6e, kAdGifCmd = 0x6c;  // V2_16 with the mask bit, V4_8, V4_32 (§6.2)

uint32_t unpack_code(uint32_t cmd, uint32_t num, uint32_t addr) { return cmd << 24 | (num & 0xff) << 16 | kUnpackFlg | addr; }

// §10.1: one ad-gif block; the secret slots are filled in afterwards.
void ad_gif(ByteWriter& w, int texture) {
    w.u32(0x0000ff92), w.u32(4), w.u8(0x14), w.u8(0), w.u16(0x41a0), w.u32(0);  // TEX1_1 as Wrench's builder writes it
    w.u32(0), w.u32(0), w.u8(0x08), w.zeros(3), w.u32(0);                      // CLAMP_1: repeat
    w.s32(texture), w.u32(0), w.u8(0x06), w.zeros(3), w.u32(0);                // TEX0_1: the class slot
    w.u32(0), w.u32(0), w.u8(0x34), w.zeros(3), w.u32(0);                      // MIPTBP1_1
}

struct IndexBlock {
    Bytes bytes;                 // header + index bytes, padded to 4
    std::vector<int> ad_gifs;    // TEX0 of each block
    std::vector<uint8_t> secrets;
};

// §7.2-§7.4, §17 item 4: two no-kick indices open each strip; a texture
// change opens it with 0 and a secret; the packet ends 01 01 01 00.
IndexBlock index_block(const std::vector<StripSpec>& strips, int& texture, bool force_first_switch) {
    IndexBlock out;
    ByteWriter w;
    w.zeros(4);
    for (size_t s = 0; s < strips.size(); ++s) {
        const StripSpec& strip = strips[s];
        if (strip.vertices.size() < 3) throw std::logic_error("moby writer: a strip needs 3 vertices");
        for (size_t i = 0; i < strip.vertices.size(); ++i) {
            const auto index = static_cast<uint8_t>(strip.vertices[i] + 1);
            if (index > 0x7f) throw std::logic_error("moby writer: 127 vertices per packet at most");
            const bool kick = i >= 2;
            if (i == 0 && (strip.texture != texture || (s == 0 && force_first_switch))) {
                out.ad_gifs.push_back(strip.texture);
                out.secrets.push_back(index);  // bit 7 clear: read back as a no-kick vertex
                texture = strip.texture;
                w.u8(0);
            } else {
                w.u8(kick ? index : static_cast<uint8_t>(index | 0x80));
            }
        }
    }
    for (int i = 0; i < 3; ++i) w.u8(1);  // the pipeline fillers
    w.u8(0);
    out.secrets.push_back(0);  // the terminator's
    w.pad_to(4);
    out.bytes = w.bytes();
    out.bytes[2] = out.secrets.front();
    return out;
}

// VIF list: ST (regular packets only), indices, then NOPs to 0xc mod 16 and the ad-gifs (§6.2).
Bytes vif_list(const std::vector<std::array<int16_t, 2>>* st, IndexBlock& index) {
    ByteWriter w;
    if (st) {
        w.u32(unpack_code(kStCmd, static_cast<uint32_t>(st->size()), kStAddress));
        for (const auto& c : *st) w.s16(c[0]), w.s16(c[1]);
    }
    const auto index_qwords = static_cast<uint32_t>(index.bytes.size() / 4);
    if (!index.ad_gifs.empty()) index.bytes[1] = static_cast<uint8_t>(index_qwords);  // §7.1 byte 1
    w.u32(unpack_code(kIndexCmd, index_qwords, kIndexVuAddress));
    w.append(index.bytes);
    if (!index.ad_gifs.empty()) {
        while (w.size() % 16 != 0xc) w.u32(0);
        w.u32(unpack_code(kAdGifCmd, 4 * static_cast<uint32_t>(index.ad_gifs.size()), kIndexVuAddress + index_qwords));
        const uint64_t payload = w.size();
        for (int texture : index.ad_gifs) ad_gif(w, texture);
        for (size_t k = 1; k < index.secrets.size(); ++k) w.bytes()[payload + 0x0c + 16 * (k - 1)] = index.secrets[k];  // §7.3
    }
    w.pad_to(16);
    return w.bytes();
}

// §8.1-§8.4: header, transfers, duplicates, records with IDs shifted by 7, padding and final records.
Bytes vertex_table(const PacketSpec& p, bool rac1) {
    uint32_t counts[3] = {0, 0, 0};
    for (const RecordSpec& r : p.records) ++counts[static_cast<int>(r.kind)];
    const uint64_t n = p.records.size(), hsize = rac1 ? 32 : 16;
    const auto total = static_cast<uint32_t>(n + p.duplicates.size());
    ByteWriter body;
    for (const auto& [joint, addr] : p.transfers) body.u8(joint), body.u8(addr);
    while ((hsize + body.size()) % 8) body.u8(0);
    for (const auto& d : p.duplicates) body.u16(static_cast<uint16_t>(d.slot << 7));
    while ((hsize + body.size()) % 16) body.u8(0);
    const uint64_t vto = hsize + body.size();
    for (uint64_t i = 0; i < n; ++i) {
        const RecordSpec& r = p.records[i];
        const uint16_t shifted = i >= 7 ? static_cast<uint16_t>(p.records[i - 7].id & 0x1ff) : 0;
        body.u16(static_cast<uint16_t>(shifted | r.joint_field << 9));
        for (uint8_t b : r.skin) body.u8(b);
        body.u8(r.vertex.azimuth), body.u8(r.vertex.elevation);
        body.s16(r.vertex.x), body.s16(r.vertex.y), body.s16(r.vertex.z);
    }
    std::array<uint16_t, 7> epilogue{};
    for (uint64_t j = 0; j < 7; ++j)
        if (n + j >= 7) epilogue[j] = p.records[n + j - 7].id;
    uint64_t pad = 0;
    while ((n + pad) % 4 != 2) ++pad;
    for (uint64_t j = 0; j < pad; ++j) body.u16(epilogue[j]), body.zeros(14);
    body.u16(epilogue[pad]), body.u16(0);
    for (uint64_t j = pad + 1; j < 7; ++j) body.u16(epilogue[j]);
    body.pad_to(16);
    const uint64_t tail = hsize + body.size();
    if (rac1) body.append(Bytes{0x52, 0x43, 0x31, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});  // §8.6: opaque, copied through; ours
    ByteWriter w;
    const uint32_t fields[8] = {static_cast<uint32_t>(p.transfers.size()), counts[0], counts[1], counts[2],
                                static_cast<uint32_t>(p.duplicates.size()), total, static_cast<uint32_t>(vto),
                                rac1 ? static_cast<uint32_t>(tail) : 0};
    for (uint32_t f : fields) rac1 ? w.u32(f) : w.u16(static_cast<uint16_t>(f));
    w.append(body.bytes());
    return w.bytes();
}

struct WrittenPacket {
    Bytes vif, vertices;
    uint32_t transfer_vertices = 0;
    int ad_gifs = 0;
    std::vector<int> textures;
    uint64_t ad_gif_payload = 0;  // within the VIF list
};

WrittenPacket regular_packet(const PacketSpec& p, bool rac1, int& texture, bool first_of_list) {
    WrittenPacket out;
    std::vector<std::array<int16_t, 2>> st;
    for (const RecordSpec& r : p.records) st.push_back({r.vertex.s, r.vertex.t});
    for (const auto& d : p.duplicates) st.push_back({d.s, d.t});
    IndexBlock index = index_block(p.strips, texture, first_of_list);
    out.vif = vif_list(&st, index);
    out.vertices = vertex_table(p, rac1);
    out.transfer_vertices = static_cast<uint32_t>(st.size());
    out.ad_gifs = static_cast<int>(index.ad_gifs.size());
    out.textures = index.ad_gifs;
    out.ad_gif_payload = out.ad_gifs ? out.vif.size() - 16 * ((64 * out.ad_gifs + 15) / 16) : 0;
    return out;
}

WrittenPacket metal_packet(const MetalPacketSpec& m) {
    WrittenPacket out;
    int texture = 0;
    IndexBlock index = index_block({{m.texture, m.strip}}, texture, true);
    out.vif = vif_list(nullptr, index);
    ByteWriter v;
    v.s32(static_cast<int32_t>(m.vertices.size())), v.zeros(12);  // §9: count, then three unknown words
    for (const auto& p : m.vertices) v.s16(p[0]), v.s16(p[1]), v.s16(p[2]), v.zeros(10);
    out.vertices = v.bytes();
    out.transfer_vertices = static_cast<uint32_t>(m.vertices.size());
    return out;
}

// §3 item 13: high LOD, low LOD, metal, then each bangle's high and low
// packets (§12); `listed` says which the GIF usage table covers (all but metal, §10.3).
struct PacketList {
    std::vector<WrittenPacket> packets;
    std::vector<bool> listed;
};

PacketList build_packets(const ClassSpec& spec) {
    PacketList out;
    auto regular = [&](const std::vector<PacketSpec>& list) {
        int texture = 0;  // §7.5: each list starts from slot 0; Wrench's first packet switches anyway
        for (size_t i = 0; i < list.size(); ++i) {
            out.packets.push_back(regular_packet(list[i], spec.rac1_layout, texture, i == 0));
            out.listed.push_back(true);
        }
    };
    regular(spec.high);
    regular(spec.low);
    for (const MetalPacketSpec& m : spec.metal) {
        out.packets.push_back(metal_packet(m));
        out.listed.push_back(false);
    }
    for (const BangleSpec& b : spec.bangles) {
        regular(b.high);
        regular(b.low);
    }
    return out;
}

// §4.5: whether any corncob kernel is set (the block is written only then).
bool has_corncob(const ClassSpec& spec) {
    return std::any_of(spec.corncob.begin(), spec.corncob.end(), [](const auto& kernel) { return kernel.has_value(); });
}

// §12: the bangle block; packet-table entries from `first` on, in build_packets' order.
Bytes bangle_block(const std::vector<BangleSpec>& bangles, size_t first) {
    if (bangles.size() > static_cast<size_t>(kBangleEntries)) throw std::invalid_argument("moby class: more than 15 bangles");
    ByteWriter b;
    b.zeros(4);  // MobyBangleHeader: unknown, Wrench writes zeros
    size_t at = first;
    for (int e = 0; e < kBangleEntries; ++e) {
        if (static_cast<size_t>(e) >= bangles.size()) {
            b.zeros(4);
            continue;
        }
        const BangleSpec& bangle = bangles[static_cast<size_t>(e)];
        for (const auto* list : {&bangle.high, &bangle.low}) {
            if (at + list->size() > 0xff) throw std::invalid_argument("moby class: bangle packets past entry 255");
            b.u8(list->empty() ? 0 : static_cast<uint8_t>(at)), b.u8(static_cast<uint8_t>(list->size()));  // begin 0: absent
            at += list->size();
        }
    }
    for (const BangleSpec& bangle : bangles)
        for (int16_t v : bangle.vectors) b.s16(v);
    return std::move(b.bytes());
}

// The packets after what `w` holds, their entries filled in the table at
// `table`, then the GIF usage table (§10.3); returns its offset (0: none).
uint64_t write_packets(ByteWriter& w, uint64_t table, const PacketList& list) {
    const std::vector<WrittenPacket>& packets = list.packets;
    std::vector<uint64_t> ad_gif_payloads;
    for (size_t i = 0; i < packets.size(); ++i) {
        const WrittenPacket& p = packets[i];
        w.pad_to(16);
        const uint64_t vif_at = w.size();
        w.append(p.vif);
        w.pad_to(16);
        const uint64_t vertex_at = w.size();
        w.append(p.vertices);
        w.pad_to(16);
        const uint64_t e = table + kPacketEntrySize * i;
        const uint32_t t = p.transfer_vertices;
        w.patch_u32(e, static_cast<uint32_t>(vif_at));
        w.patch_u16(e + 4, static_cast<uint16_t>(p.vif.size() / 16));
        w.patch_u16(e + 6, static_cast<uint16_t>(4 * p.ad_gifs));
        w.patch_u32(e + 8, static_cast<uint32_t>(vertex_at));
        w.bytes()[e + 0xc] = static_cast<uint8_t>((w.size() - vertex_at) / 16);
        w.bytes()[e + 0xd] = static_cast<uint8_t>((0xf + 6 * t) / 16);
        w.bytes()[e + 0xe] = static_cast<uint8_t>((3 + t) / 4);
        w.bytes()[e + 0xf] = static_cast<uint8_t>(t);
        ad_gif_payloads.push_back(p.ad_gifs && list.listed[i] ? vif_at + p.ad_gif_payload : 0);
    }
    // §10.3: one entry per regular or bangle packet with ad-gifs; metal packets are not listed.
    uint64_t gif_usage = 0;
    std::vector<size_t> textured;
    for (size_t i = 0; i < ad_gif_payloads.size(); ++i)
        if (ad_gif_payloads[i]) textured.push_back(i);
    if (!textured.empty()) {
        w.pad_to(16);
        gif_usage = w.size();
        for (size_t k = 0; k < textured.size(); ++k) {
            const WrittenPacket& p = packets[textured[k]];
            for (size_t b = 0; b < 12; ++b) w.u8(b < p.textures.size() ? static_cast<uint8_t>(p.textures[b]) : 0xff);
            w.u32(static_cast<uint32_t>(ad_gif_payloads[textured[k]] - 0x10) | (k + 1 == textured.size() ? 0x80000000u : 0));
        }
    }
    w.pad_to(16);  // the packer, not the class, aligns the next class to 0x40 (§1.2)
    return gif_usage;
}

}  // namespace

Bytes write_moby_class(const ClassSpec& spec) {
    const PacketList list = build_packets(spec);
    const std::vector<WrittenPacket>& packets = list.packets;
    ByteWriter w;
    w.zeros(kHeaderSize);
    if (spec.dummy_sequence) w.s32(0);  // §16.4: its offset, patched below
    uint64_t bangles = 0;
    if (!spec.bangles.empty()) {  // §3 item 4: after the sequence offsets, before the sequences
        w.pad_to(16);
        bangles = w.size();
        w.append(bangle_block(spec.bangles, spec.high.size() + spec.low.size() + spec.metal.size()));
    }
    uint64_t corncob = 0;
    if (has_corncob(spec)) {  // §3 item 4, §4.5
        w.pad_to(16);
        corncob = w.size();
        w.zeros(kCornCobKernels);
        for (int k = 0; k < kCornCobKernels; ++k) {
            const auto& kernel = spec.corncob[static_cast<size_t>(k)];
            if (!kernel) {
                w.bytes()[corncob + static_cast<uint64_t>(k)] = 0xff;
                continue;
            }
            w.pad_to(16);
            const uint64_t at = w.size();
            if ((at - corncob) / 16 >= 0xff) throw std::invalid_argument("moby class: corncob kernel past its u8 offset");
            w.bytes()[corncob + static_cast<uint64_t>(k)] = static_cast<uint8_t>((at - corncob) / 16);
            for (float f : kernel->vec) w.f32(f);
            for (const auto& v : kernel->vertices) w.s16(v[0]), w.s16(v[1]), w.s16(v[2]), w.s16(v[3]);
            if (!kernel->vertices.empty()) w.patch_u16(at + 0x16, static_cast<uint16_t>(kernel->vertices.size()));  // §4.5, as Wrench writes it
        }
    }
    int32_t sequence = 0;
    if (spec.dummy_sequence) {  // §16.4
        w.pad_to(16);
        sequence = static_cast<int32_t>(w.size());
        for (float f : spec.bounding_sphere) w.f32(f);
        w.u8(1), w.u8(0xff), w.u8(0), w.u8(0), w.u32(0), w.u32(0);
        w.s32(static_cast<int32_t>(w.size() + 4));  // frame 0 follows its offset
        w.zeros(16);                                 // an all-zero frame header
        w.patch_u32(kHeaderSize, static_cast<uint32_t>(sequence));
    }
    w.pad_to(16);
    const uint64_t table = w.size();
    w.zeros(kPacketEntrySize * packets.size());
    uint64_t collision = 0;
    if (spec.collision) {  // §3 item 8, §4.2
        const CollisionSpec& c = *spec.collision;
        w.pad_to(16);
        collision = w.size();
        w.u16(c.unknown_0), w.u16(c.unknown_2);
        w.s32(static_cast<int32_t>(c.first.size())), w.s32(static_cast<int32_t>(c.third.size())), w.s32(static_cast<int32_t>(8 * c.points.size()));
        w.append(c.first);
        for (const auto& p : c.points) w.s16(p[0]), w.s16(p[1]), w.s16(p[2]), w.s16(0);
        w.append(c.third);
    }
    uint64_t skeleton = 0, common_trans = 0;
    if (!spec.shadows.empty() && spec.joints.empty()) throw std::invalid_argument("moby class: shadow records need a skeleton (§2 0x0f)");
    if (!spec.joints.empty()) {
        w.pad_to(16);
        for (const auto& record : spec.shadows) w.append(record);  // §3 item 9: just before the skeleton
        skeleton = w.size();
        for (const Joint& j : spec.joints)
            for (float f : j.matrix) w.f32(f);
        w.pad_to(16);
        common_trans = w.size();
        for (const Joint& j : spec.joints) {
            for (float f : j.translation) w.f32(f);
            w.u16(static_cast<uint16_t>(j.parent < 0 ? 0 : j.parent * 0x40)), w.u16(0x70);  // §11: parent_offset, "seventy"
        }
    }
    w.pad_to(16);
    const uint64_t joints = w.size();  // §4.6: always present
    if (spec.joints.empty()) {
        w.s32(0);
    } else {
        w.s32(1), w.s32(static_cast<int32_t>(w.size() + 4));
        w.s16(1), w.s16(0), w.u8(0), w.u8(0xff);  // one entry naming joint 0
    }
    uint64_t sound_defs = 0;
    if (!spec.sound_defs.empty()) {  // §3 item 12, §4.4
        w.pad_to(16);
        sound_defs = w.size();
        for (const auto& def : spec.sound_defs) w.append(def);
    }
    const uint64_t gif_usage = write_packets(w, table, list);

    ByteWriter h;
    h.s32(static_cast<int32_t>(table));
    h.u8(static_cast<uint8_t>(spec.high.size())), h.u8(static_cast<uint8_t>(spec.low.size()));
    h.u8(static_cast<uint8_t>(spec.metal.size())), h.u8(static_cast<uint8_t>(spec.high.size() + spec.low.size()));
    h.u8(static_cast<uint8_t>(spec.joints.size())), h.u8(0), h.u8(0), h.u8(spec.rac1_layout ? 1 : 0);
    h.u8(spec.dummy_sequence ? 1 : 0), h.u8(static_cast<uint8_t>(spec.sound_defs.size())), h.u8(0x20);  // sequences, sounds, lod_trans (Wrench's default)
    h.u8(static_cast<uint8_t>(spec.shadows.size()));
    h.s32(static_cast<int32_t>(collision)), h.s32(static_cast<int32_t>(skeleton)), h.s32(static_cast<int32_t>(common_trans)), h.s32(static_cast<int32_t>(joints));
    h.s32(static_cast<int32_t>(gif_usage));
    h.f32(spec.scale);
    h.s32(static_cast<int32_t>(sound_defs));
    h.u8(static_cast<uint8_t>(bangles / 16)), h.u8(8), h.s16(static_cast<int16_t>(corncob / 16));  // bangles (qw), mip_dist (Wrench's default), corncob (qw)
    for (float f : spec.bounding_sphere) h.f32(f);
    h.s32(0), h.u16(0x5000), h.u8(0), h.u8(0);  // glow_rgba, mode_bits (Wrench's default), type, mode_bits2
    std::copy(h.bytes().begin(), h.bytes().end(), w.bytes().begin());
    return w.bytes();
}

Bytes write_mesh_only_class(const ClassSpec& spec) {
    if (!spec.bangles.empty() || spec.collision || !spec.sound_defs.empty() || !spec.shadows.empty() ||
        has_corncob(spec))
        throw std::invalid_argument("mesh-only class: its header has no field for bangles or the non-mesh sections");
    const PacketList list = build_packets(spec);
    ByteWriter w;
    w.zeros(kMeshOnlyHeaderSize);
    const uint64_t table = w.size();
    w.zeros(kPacketEntrySize * list.packets.size());
    const uint64_t gif_usage = write_packets(w, table, list);
    w.bytes()[0] = static_cast<uint8_t>(spec.high.size());
    w.bytes()[1] = static_cast<uint8_t>(spec.low.size());
    w.bytes()[2] = static_cast<uint8_t>(spec.metal.size());
    w.bytes()[3] = static_cast<uint8_t>(spec.high.size() + spec.low.size());
    w.patch_u32(4, static_cast<uint32_t>(table));
    w.patch_u32(8, static_cast<uint32_t>(gif_usage));
    return w.bytes();
}

}  // namespace gcfs::formats::moby
