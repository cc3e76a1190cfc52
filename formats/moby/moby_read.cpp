#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "formats/moby/moby.h"
#include "formats/moby/moby_packet.h"

namespace gcfs::formats::moby {
namespace {

constexpr float kMaxScale = 65536.0f;  // keeps positions inside the OBJ columns (formats/export/obj.h); ours

Header read_header(ByteSpan c) {
    require(c, 0, kHeaderSize, "moby class header");
    Header h;
    h.packet_table = s32_at(c, 0);
    h.high_count = u8_at(c, 4), h.low_count = u8_at(c, 5), h.metal_count = u8_at(c, 6), h.metal_begin = u8_at(c, 7);
    h.joint_count = u8_at(c, 8);
    h.rac1_layout_byte = u8_at(c, 0x0b);
    h.sequence_count = u8_at(c, 0x0c);
    h.bangles = u8_at(c, 0x2c);
    h.skeleton = s32_at(c, 0x14), h.common_trans = s32_at(c, 0x18), h.joints = s32_at(c, 0x1c), h.gif_usage = s32_at(c, 0x20);
    h.scale = f32_at(c, 0x24);
    for (int i = 0; i < 4; ++i) h.bounding_sphere[i] = f32_at(c, 0x30 + 4 * i);
    if (!(std::isfinite(h.scale) && h.scale > 0 && h.scale <= kMaxScale))
        fail(Errc::bad_value, 0x24, fmt::format("scale {} is not in (0, {}]", h.scale, kMaxScale));
    if (h.joint_count > kMaxJoints) fail(Errc::bad_value, 8, fmt::format("{} joints, more than 0x6f", h.joint_count));
    return h;
}

// §4 and §2: the non-mesh sections, each checked against the class's bytes.
Sections read_sections(ByteSpan c, const Header& h) {
    Sections out;
    if (const int32_t at = s32_at(c, 0x10); at != 0) {  // §4.2
        if (at < 0) fail(Errc::out_of_range, 0x10, "negative collision offset");
        const auto base = static_cast<uint64_t>(at);
        require(c, base, 16, "moby collision header");
        const int32_t first = s32_at(c, base + 4), third = s32_at(c, base + 8), second = s32_at(c, base + 12);
        if (first < 0 || second < 0 || third < 0 || second % 8)
            fail(Errc::bad_value, base + 4, fmt::format("collision part sizes {}, {}, {} (the second a multiple of 8)", first, second, third));
        require(c, base + 16, uint64_t(first) + uint64_t(second) + uint64_t(third), "moby collision parts", 0);
        out.collision = true;
        out.collision_first = static_cast<uint64_t>(first), out.collision_points = static_cast<uint64_t>(second) / 8;
        out.collision_third = static_cast<uint64_t>(third);
    }
    if (const uint8_t count = u8_at(c, 0x0d); count) {  // §4.4
        const int32_t at = s32_at(c, 0x28);
        if (at <= 0) fail(Errc::out_of_range, 0x28, fmt::format("{} sound defs at offset {}", count, at));
        require(c, static_cast<uint64_t>(at), kSoundDefSize * count, "moby sound defs");
        out.sound_defs = count;
    }
    if (const int16_t qw = s16_at(c, 0x2e); qw != 0) {  // §4.5
        if (qw < 0) fail(Errc::out_of_range, 0x2e, fmt::format("corncob at quadword {}", qw));
        const uint64_t base = 16ull * static_cast<uint64_t>(qw);
        require(c, base, kCornCobKernels, "moby corncob header");
        for (int k = 0; k < kCornCobKernels; ++k) {
            const uint8_t entry = u8_at(c, base + static_cast<uint64_t>(k));
            if (entry == 0xff) continue;
            const uint64_t kernel = base + 16ull * entry;
            require(c, kernel, 16, "corncob kernel");
            ++out.corncob_kernels;
            if (u32_at(c, kernel) == 0 && u32_at(c, kernel + 4) == 0 && u32_at(c, kernel + 8) == 0 && u32_at(c, kernel + 12) == 0)
                continue;  // Wrench reads no vertices for a zero vector
            const int16_t count = s16_at(c, kernel + 0x16);
            if (count < 0) fail(Errc::bad_value, kernel + 0x16, fmt::format("corncob kernel {} counts {} vertices", k, count));
            require(c, kernel + 16, 8ull * static_cast<uint64_t>(count), "corncob vertices", 0);
            out.corncob_vertices += count;
        }
    }
    if (const uint8_t shadows = u8_at(c, 0x0f); shadows && h.skeleton != 0) {  // §2: read only with a skeleton
        if (h.skeleton < static_cast<int32_t>(kHeaderSize + kShadowRecordSize * shadows))
            fail(Errc::out_of_range, 0x0f, fmt::format("{} shadow records before the skeleton at 0x{:x} reach into the header", shadows, h.skeleton));
        require(c, static_cast<uint64_t>(h.skeleton) - kShadowRecordSize * shadows, kShadowRecordSize * shadows, "moby shadow records");
        out.shadows = shadows;
    }
    return out;
}

// §4.6: s32 count, s32 offsets, each entry s16 n1, s16 n2, n1 + n2 bytes, 0xff.
// Returns the count.
int32_t check_joint_list(ByteSpan c, int32_t at) {
    if (at <= 0) fail(Errc::out_of_range, 0x1c, "no joint list (Wrench always reads it, §2)");
    const int32_t count = s32_at(c, static_cast<uint64_t>(at));
    if (count < 0 || static_cast<uint64_t>(count) > (c.size() - static_cast<uint64_t>(at)) / 4)
        fail(Errc::size_mismatch, static_cast<uint64_t>(at), fmt::format("joint list count {} overruns the class", count));
    for (int32_t i = 0; i < count; ++i) {
        const int32_t entry = s32_at(c, static_cast<uint64_t>(at) + 4 + 4ull * i);
        if (entry < 0) fail(Errc::out_of_range, static_cast<uint64_t>(at) + 4 + 4ull * i, "negative joint list entry");
        const auto e = static_cast<uint64_t>(entry);
        const uint64_t end = e + 4 + static_cast<uint64_t>(std::max<int16_t>(0, s16_at(c, e))) + static_cast<uint64_t>(std::max<int16_t>(0, s16_at(c, e + 2)));
        if (s16_at(c, e) < 0 || s16_at(c, e + 2) < 0 || u8_at(c, end) != 0xff)
            fail(Errc::bad_value, e, fmt::format("joint list entry {} does not end with 0xff", i));
    }
    return count;
}

std::vector<Joint> read_joints(ByteSpan c, const Header& h) {
    std::vector<Joint> joints;
    if (h.skeleton == 0 || h.common_trans == 0 || h.joint_count == 0) return joints;
    require(c, static_cast<uint64_t>(h.skeleton), 64ull * h.joint_count, "skeleton");
    require(c, static_cast<uint64_t>(h.common_trans), 16ull * h.joint_count, "common_trans");
    for (uint64_t j = 0; j < h.joint_count; ++j) {
        Joint joint;
        for (int k = 0; k < 16; ++k) joint.matrix[k] = f32_at(c, static_cast<uint64_t>(h.skeleton) + 64 * j + 4 * k);
        const uint64_t t = static_cast<uint64_t>(h.common_trans) + 16 * j;
        joint.translation = {f32_at(c, t), f32_at(c, t + 4), f32_at(c, t + 8)};
        const uint16_t parent_offset = u16_at(c, t + 12);
        joint.parent = j == 0 ? -1 : parent_offset / 0x40;  // §11
        if (j > 0 && (parent_offset % 0x40 || static_cast<uint64_t>(joint.parent) >= j))
            fail(Errc::bad_value, t + 12, fmt::format("joint {}'s parent offset 0x{:x} is not an earlier joint", j, parent_offset));
        // §11: the 3x3 part is a rotation, which must be finite and invertible to pose anything.
        const auto& m = joint.matrix;
        const double det = double(m[0]) * (double(m[5]) * m[10] - double(m[9]) * m[6]) - double(m[4]) * (double(m[1]) * m[10] - double(m[9]) * m[2]) +
                           double(m[8]) * (double(m[1]) * m[6] - double(m[5]) * m[2]);
        if (!std::all_of(m.begin(), m.end(), [](float v) { return std::isfinite(v); }) || !(std::abs(det) > 1e-12))
            fail(Errc::bad_value, static_cast<uint64_t>(h.skeleton) + 64 * j, fmt::format("joint {}'s skeleton matrix is not invertible", j));
        joints.push_back(joint);
    }
    return joints;
}

// §10.3 / §14: one entry per regular packet with ad-gifs, in order, its
// slots then 0xff, the offset 0x10 before that packet's ad-gif payload,
// bit 31 on the last.
void check_gif_usage(ByteSpan c, const Header& h, const MeshFields& fields, const std::vector<PacketResult>& packets) {
    std::vector<const PacketResult*> textured;
    for (const PacketResult& p : packets)
        if (p.ad_gifs) textured.push_back(&p);
    if (textured.empty()) {
        if (h.gif_usage != 0) fail(Errc::bad_value, fields.gif_usage, "a GIF usage table with no textured packet");
        return;
    }
    if (h.gif_usage <= 0) fail(Errc::out_of_range, fields.gif_usage, "no GIF usage table for the textured packets");
    for (size_t i = 0; i < textured.size(); ++i) {
        const uint64_t at = static_cast<uint64_t>(h.gif_usage) + 16 * i;
        const uint32_t word = u32_at(c, at + 12);
        bool ok = (word & 0x7fffffffu) == textured[i]->ad_gif_payload - 0x10 && ((word >> 31) != 0) == (i + 1 == textured.size());
        for (size_t k = 0; k < 12; ++k) {
            const int want = k < textured[i]->ad_gif_textures.size() ? textured[i]->ad_gif_textures[k] & 0xff : 0xff;
            ok = ok && u8_at(c, at + k) == want;
        }
        if (!ok) fail(Errc::bad_value, at, fmt::format("GIF usage entry {} does not describe textured packet {}", i, i));
    }
}

// §12: the bangle block at header byte 0x2c × 16. Each of the 15 entries
// whose begin is not 0 names a run of packet-table entries, which must lie
// past the LOD and metal packets (Wrench writes them there) and inside the
// table's bytes; each list is decoded with its own state, its packets'
// results appended in the order the GIF usage table lists them (§10.3).
void read_bangles(ByteSpan c, const Header& h, MobyClass& cls, std::vector<PacketResult>& results) {
    const uint64_t block = uint64_t{h.bangles} * 16;
    require(c, block, kBangleVectorsAt, "bangle block");
    const uint32_t first_free = std::max<uint32_t>(uint32_t{h.high_count} + h.low_count, h.metal_count ? uint32_t{h.metal_begin} + h.metal_count : 0);
    for (int e = 0; e < kBangleEntries; ++e) {
        const uint64_t at = block + 4 + 4ull * static_cast<uint64_t>(e);
        Bangle bangle;
        bangle.entry = e;
        for (int list = 0; list < 2; ++list) {
            const uint8_t begin = u8_at(c, at + 2ull * list), count = u8_at(c, at + 2ull * list + 1);
            if (begin == 0) continue;  // §12: absent
            if (begin < first_free)
                fail(Errc::bad_value, at + 2ull * list,
                     fmt::format("bangle {} packets begin at entry {}, inside the {} LOD and metal packets", e, begin, first_free));
            require(c, static_cast<uint64_t>(h.packet_table), kPacketEntrySize * (uint64_t{begin} + count), "bangle packet table");
            ListState state;
            state.animated = cls.animated;
            state.joints = static_cast<uint32_t>(cls.joints.size());
            Lod& lod = list == 0 ? bangle.high : bangle.low;
            for (uint32_t i = begin; i < uint32_t{begin} + count; ++i)
                results.push_back(read_regular_packet(c, read_packet_entry(c, static_cast<uint64_t>(h.packet_table) + kPacketEntrySize * i),
                                                      cls.rac1_layout, state, lod));
            if (!cls.rig_error) cls.rig_error = state.rig_error;
        }
        if (!bangle.high.packets && !bangle.low.packets) continue;
        const uint64_t vectors = block + kBangleVectorsAt + 16ull * static_cast<uint64_t>(e);  // indexed by entry, as Wrench reads them
        require(c, vectors, 16, "bangle vectors");
        for (int k = 0; k < 8; ++k) bangle.vectors[static_cast<size_t>(k)] = s16_at(c, vectors + 2ull * static_cast<uint64_t>(k));
        cls.bangles.push_back(std::move(bangle));
    }
}

// The packets the header's mesh fields name, decoded into `cls`.
void read_mesh(ByteSpan range, const MeshFields& fields, MobyClass& cls) {
    const Header& h = cls.header;
    if (h.packet_table == 0) return;  // §2: no mesh
    if (h.packet_table < 0) fail(Errc::out_of_range, fields.packet_table, "negative packet table offset");
    const uint32_t regular = uint32_t{h.high_count} + h.low_count;
    if (h.metal_count && h.metal_begin < regular)  // §14: metal packets follow the LODs (Wrench: exactly there)
        fail(Errc::bad_value, fields.metal_begin, fmt::format("metal packets begin at entry {}, inside the {} LOD packets", h.metal_begin, regular));
    const uint64_t entries = std::max<uint64_t>(regular, h.metal_count ? uint64_t{h.metal_begin} + h.metal_count : 0);
    require(range, static_cast<uint64_t>(h.packet_table), kPacketEntrySize * entries, "packet table");
    std::vector<PacketResult> results;
    for (int list = 0; list < 2; ++list) {
        ListState state;  // §7.5: reset per list
        state.animated = cls.animated;
        state.joints = static_cast<uint32_t>(cls.joints.size());
        Lod& lod = list == 0 ? cls.high : cls.low;
        const uint32_t first = list == 0 ? 0 : h.high_count, count = list == 0 ? h.high_count : h.low_count;
        for (uint32_t i = first; i < first + count; ++i)
            results.push_back(read_regular_packet(range, read_packet_entry(range, static_cast<uint64_t>(h.packet_table) + kPacketEntrySize * i),
                                                  cls.rac1_layout, state, lod));
        if (!cls.rig_error) cls.rig_error = state.rig_error;
    }
    for (uint32_t i = 0; i < h.metal_count; ++i) {
        PacketResult metal;
        cls.metal_vertices += read_metal_packet(range, read_packet_entry(range, static_cast<uint64_t>(h.packet_table) + kPacketEntrySize * (h.metal_begin + i)), metal);
        ++cls.metal_packets;
    }
    if (h.bangles) read_bangles(range, h, cls, results);
    check_gif_usage(range, h, fields, results);
    for (const PacketResult& r : results) cls.gif_usage_entries += r.ad_gifs > 0;
    std::set<int> textures;
    std::vector<const Lod*> lods = {&cls.high, &cls.low};
    for (const Bangle& b : cls.bangles) lods.push_back(&b.high), lods.push_back(&b.low);
    for (const Lod* lod : lods)
        for (const Triangle& t : lod->triangles) textures.insert(t.texture);
    cls.textures.assign(textures.begin(), textures.end());
}

}  // namespace

Result<MobyClass> read_moby_class(ByteSpan range) {
    return capture([&] {
        MobyClass cls;
        cls.header = read_header(range);
        cls.rac1_layout = cls.header.rac1_layout_byte != 0;
        cls.animated = check_joint_list(range, cls.header.joints) > 0;
        cls.sections = read_sections(range, cls.header);
        // §11: the bind-pose mesh needs no joint transform, so a skeleton that
        // fails its checks takes the rig (skeleton.json, the glb) and not the mesh.
        auto joints = capture([&] { return read_joints(range, cls.header); });
        if (joints.ok()) cls.joints = std::move(*joints);
        else cls.rig_error = joints.error();
        read_mesh(range, kClassMeshFields, cls);
        return cls;
    });
}

Result<MobyClass> read_mesh_section(ByteSpan range, const Header& header, const MeshFields& fields, bool animated) {
    return capture([&] {
        MobyClass cls;
        cls.header = header;
        cls.animated = animated;
        cls.rac1_layout = header.rac1_layout_byte != 0;
        read_mesh(range, fields, cls);
        return cls;
    });
}

Result<MobyClass> read_mesh_only_class(ByteSpan range, float scale) {
    return capture([&]() -> MobyClass {
        require(range, 0, kMeshOnlyHeaderSize, "mesh-only class header");
        Header h;
        h.high_count = u8_at(range, 0), h.low_count = u8_at(range, 1), h.metal_count = u8_at(range, 2), h.metal_begin = u8_at(range, 3);
        h.packet_table = s32_at(range, 4);
        h.gif_usage = s32_at(range, 8);
        h.scale = scale;
        if (h.packet_table == 0) fail(Errc::bad_value, 4, "a mesh-only class without a packet table");
        auto cls = read_mesh_section(range, h, kMeshOnlyFields, true);
        if (!cls.ok()) throw FormatFailure(cls.error());
        return std::move(*cls);
    });
}

}  // namespace gcfs::formats::moby
