// Tfrag writer, following the list contents of formats.md §7.3 and the VU
// allocation of §7.9, byte-compatible with the worked example of §7.10.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "formats/tfrag/tfrag.h"
#include "formats/vif/vif.h"

namespace gcfs::formats {
namespace {

using vif::Format;

struct VuLayout {
    uint32_t adgifs = 9;  // header (5) + matrix gap (4)
    std::array<uint32_t, 3> positions{};
    std::array<uint32_t, 3> vertex_info{};
    std::array<uint32_t, 2> parents{}, unknown_2{};
    uint32_t indices = 0;
    uint32_t strips = 0;
    uint32_t end = 0;
};

uint32_t words(size_t bytes) { return static_cast<uint32_t>((bytes + 3) / 4); }

VuLayout allocate(const TfragPatch& p) {
    VuLayout vu;
    uint32_t at = vu.adgifs + 5 * static_cast<uint32_t>(p.textures.size());
    for (int t = 0; t < 3; ++t) {
        vu.positions[t] = at;
        at += 2 * static_cast<uint32_t>(p.positions[t].size());  // 2 qwords each (§7.5 "×2")
    }
    for (int t = 0; t < 3; ++t) {
        vu.vertex_info[t] = at;
        at += static_cast<uint32_t>(p.vertex_info[t].size());
    }
    for (int i = 0; i < 2; ++i) {  // §7.9 item 6: parents LOD01, unk2 LOD01, parents LOD0, unk2 LOD0
        vu.parents[i] = at;
        at += words(p.parent_indices[i].size());
        vu.unknown_2[i] = at;
        at += words(p.unknown_indices_2[i].size());
    }
    vu.indices = at;
    size_t largest_indices = 0, largest_strips = 0;
    for (const auto& lod : p.lods) {
        largest_indices = std::max(largest_indices, lod.indices.size());
        largest_strips = std::max(largest_strips, lod.strips.size());
    }
    at += words(largest_indices);
    vu.strips = at;
    vu.end = at + static_cast<uint32_t>(largest_strips);
    return vu;
}

class ListWriter {
public:
    explicit ListWriter(ByteWriter& out) : out_(out) {}

    void code(uint32_t c) { out_.u32(c); }
    void strow(std::array<uint32_t, 4> row) {
        code(vif::code(vif::STROW));
        for (uint32_t r : row) out_.u32(r);
    }
    void stmod(uint32_t mode) { code(vif::code(vif::STMOD, 0, mode)); }
    void stcycl(uint32_t wl, uint32_t cl) { code(vif::code(vif::STCYCL, 0, wl << 8 | cl)); }

    template <class Fn>
    void unpack(Format format, uint32_t count, uint32_t addr, bool usn, Fn&& payload) {
        if (count == 0 || count > 256) throw std::invalid_argument(fmt::format("unpack of {} elements", count));
        code(vif::unpack(format, count == 256 ? 0 : count, addr, usn));
        payload();
        out_.pad_to(4);  // §7.4: unpack payloads pad to 4 bytes
    }
    void indices(const std::vector<uint8_t>& bytes, uint32_t addr) {
        Bytes padded = bytes;
        padded.resize(align_up(padded.size(), 4), 0);  // §7.5 pad_index_array
        unpack(Format::V4_8, words(padded.size()), addr, true, [&] { out_.append(padded); });
    }
    void strips(const std::vector<TfragStrip>& strips, uint32_t addr) {
        unpack(Format::V4_8, static_cast<uint32_t>(strips.size()), addr, false, [&] {
            for (const auto& s : strips) {
                out_.s8(s.x);
                out_.s8(s.y);
                out_.s8(s.z);
                out_.s8(s.pad);
            }
        });
    }
    void vertex_info(const std::vector<TfragVertexInfo>& infos, uint32_t addr) {
        unpack(Format::V4_16, static_cast<uint32_t>(infos.size()), addr, false, [&] {
            for (const auto& v : infos) {
                out_.s16(v.s);
                out_.s16(v.t);
                out_.s16(v.parent);
                out_.s16(v.vertex);
            }
        });
    }
    void positions(const std::vector<TfragPosition>& positions, uint32_t addr) {
        unpack(Format::V3_16, static_cast<uint32_t>(positions.size()), addr, false, [&] {
            for (const auto& v : positions) {
                out_.s16(v.x);
                out_.s16(v.y);
                out_.s16(v.z);
            }
        });
    }
    void end_list() { out_.pad_to(16); }  // zero words are VIF NOPs (§7.3)

private:
    ByteWriter& out_;
};

// The inline payloads the walker must step over (§7.4 packet sizes).
void exotic_codes(ListWriter& list, ByteWriter& out) {
    list.code(vif::code(vif::STMASK));
    out.u32(0);
    list.code(vif::code(vif::STCOL));
    out.zeros(16);
    list.code(vif::code(vif::MARK, 0, 0x1234));
    list.code(vif::code(vif::MPG, 1, 0));
    out.zeros(8);
    list.code(vif::code(vif::DIRECT, 0, 1));
    out.zeros(16);
    list.code(vif::code(vif::ITOP, 0, 0));
    list.code(vif::code(vif::FLUSH));
}

struct PatchOffsets {
    uint16_t lod_2 = 0, shared = 0, lod_1 = 0, lod_0 = 0, tex = 0, rgba = 0;
    uint16_t lod0_only = 0, light = 0, msphere = 0, cube = 0;
    uint8_t rgba_size = 0;
};

uint16_t rel16(uint64_t value, const char* what) {
    if (value > 0xffff) throw std::invalid_argument(fmt::format("tfrag {} offset 0x{:x} exceeds u16", what, value));
    return static_cast<uint16_t>(value);
}

uint8_t qwords8(uint64_t bytes, const char* what) {
    if (bytes % 16 || bytes / 16 > 0xff) throw std::invalid_argument(fmt::format("tfrag {} of {} bytes", what, bytes));
    return static_cast<uint8_t>(bytes / 16);
}

// Writes one patch's data block; returns the offsets its header needs.
PatchOffsets write_patch_data(ByteWriter& out, const TfragPatch& p, const VuLayout& vu, const TfragWriteOptions& options) {
    const uint64_t start = out.size();
    auto rel = [&] { return out.size() - start; };
    ListWriter list(out);
    PatchOffsets o;
    const uint32_t vi_common = vu.vertex_info[kCommon];
    const uint32_t pos_common = vu.positions[kCommon];
    const std::array<uint32_t, 4> idx_row = {vi_common, vi_common, vi_common, vi_common};
    const std::array<uint32_t, 4> base_row = {static_cast<uint32_t>(p.base[0]), static_cast<uint32_t>(p.base[1]),
                                              static_cast<uint32_t>(p.base[2]), static_cast<uint32_t>(p.base[3])};

    // LOD 2 only: it precedes the common list physically (§7.3).
    o.lod_2 = rel16(rel(), "lod_2");
    list.strow(idx_row);
    list.stmod(1);
    list.indices(p.lods[2].indices, vu.indices);
    list.stmod(0);
    list.strips(p.lods[2].strips, vu.strips);
    list.end_list();

    // Common.
    o.shared = rel16(rel(), "shared");
    list.unpack(Format::V4_16, 5, 0, true, [&] {
        const uint16_t header[20] = {
            static_cast<uint16_t>(p.positions[kCommon].size()), 0,
            static_cast<uint16_t>(p.positions[kLod01].size()), 0,
            static_cast<uint16_t>(p.positions[kLod0].size()), 0,
            static_cast<uint16_t>(pos_common), static_cast<uint16_t>(vi_common), 0,
            static_cast<uint16_t>(vu.vertex_info[kLod01]), 0, static_cast<uint16_t>(vu.vertex_info[kLod0]), 0,
            static_cast<uint16_t>(vu.indices), static_cast<uint16_t>(vu.parents[0]), static_cast<uint16_t>(vu.unknown_2[0]),
            static_cast<uint16_t>(vu.parents[1]), static_cast<uint16_t>(vu.unknown_2[1]),
            static_cast<uint16_t>(vu.strips), static_cast<uint16_t>(vu.adgifs)};
        for (uint16_t v : header) out.u16(v);
    });
    if (p.textures.empty()) throw std::invalid_argument("a tfrag needs at least one texture");
    o.tex = rel16(rel() + 4, "tex");
    list.unpack(Format::V4_32, 5 * static_cast<uint32_t>(p.textures.size()), vu.adgifs, false, [&] {
        constexpr uint8_t kRegisters[5] = {0x06, 0x14, 0x08, 0x34, 0x36};  // TEX0_1 TEX1_1 CLAMP_1 MIPTBP1_1 MIPTBP2_1
        for (int32_t texture : p.textures) {
            for (uint8_t reg : kRegisters) {
                out.s32(reg == 0x06 ? texture : 0);
                out.s32(0);
                out.u8(reg);
                out.zeros(7);
            }
        }
    });
    list.strow({0x45000000, 0x45000000, 0, pos_common});
    list.stmod(1);
    list.vertex_info(p.vertex_info[kCommon], vi_common);
    list.strow(base_row);  // command #5 of the common list (§7.3)
    list.stcycl(1, 2);
    list.positions(p.positions[kCommon], pos_common);
    list.stcycl(4, 4);
    list.stmod(0);
    list.end_list();

    // LOD 1 only.
    o.lod_1 = rel16(rel(), "lod_1");
    if (options.exotic_vif_codes) exotic_codes(list, out);
    list.strips(p.lods[1].strips, vu.strips);
    list.strow(idx_row);
    list.stmod(1);
    list.indices(p.lods[1].indices, vu.indices);
    list.end_list();

    // LOD 0+1.
    const std::array<uint32_t, 4> vi2_row = {0x45000000, 0x45000000, pos_common, pos_common};
    // The offset mode set at the end of LOD 1 still holds here, so, as in
    // the §7.10 example, STROW(idx)/STMOD 1 only precede the index arrays.
    o.lod_0 = rel16(rel(), "lod_0");
    if (!p.parent_indices[0].empty() || !p.unknown_indices_2[0].empty()) {
        list.strow(idx_row);
        list.stmod(1);
        if (!p.parent_indices[0].empty()) list.indices(p.parent_indices[0], vu.parents[0]);
        if (!p.unknown_indices_2[0].empty()) list.indices(p.unknown_indices_2[0], vu.unknown_2[0]);
    }
    if (!p.vertex_info[kLod01].empty()) {
        list.strow(vi2_row);
        list.vertex_info(p.vertex_info[kLod01], vu.vertex_info[kLod01]);
    }
    list.strow(base_row);
    list.stcycl(1, 2);
    if (!p.positions[kLod01].empty()) list.positions(p.positions[kLod01], vu.positions[kLod01]);
    list.end_list();

    // LOD 0 only: starts at shared_ofs + lod_1_size × 16.
    o.lod0_only = rel16(rel(), "lod0_only");
    if (!p.positions[kLod0].empty()) list.positions(p.positions[kLod0], vu.positions[kLod0]);
    list.stmod(0);
    list.stcycl(4, 4);
    list.strips(p.lods[0].strips, vu.strips);
    list.strow(idx_row);
    list.stmod(1);
    list.indices(p.lods[0].indices, vu.indices);
    if (!p.parent_indices[1].empty()) list.indices(p.parent_indices[1], vu.parents[1]);
    if (!p.unknown_indices_2[1].empty()) list.indices(p.unknown_indices_2[1], vu.unknown_2[1]);
    if (!p.vertex_info[kLod0].empty()) {
        list.strow(vi2_row);
        list.vertex_info(p.vertex_info[kLod0], vu.vertex_info[kLod0]);
    }
    list.stmod(0);
    list.end_list();

    // Tail (§7.3): RGBA, lights (base copy first), mspheres (none), cube.
    o.rgba = rel16(rel(), "rgba");
    for (const auto& c : p.rgba) {
        out.u8(c.r);
        out.u8(c.g);
        out.u8(c.b);
        out.u8(c.a);
    }
    out.pad_to(16);
    o.rgba_size = static_cast<uint8_t>((out.size() - start - o.rgba) / 16);
    o.light = rel16(rel(), "light");
    for (int32_t b : p.base) out.s32(b);
    for (const auto& l : p.lights) {
        out.s8(l.unknown);
        out.s8(l.intensity);
        out.s8(l.azimuth);
        out.s8(l.elevation);
        out.s16(l.colour);
        out.s16(l.pad);
    }
    out.pad_to(16);
    o.msphere = rel16(rel(), "msphere");
    o.cube = o.msphere;
    for (int corner = 0; corner < 8; ++corner) {
        out.s16(static_cast<int16_t>((corner & 1) ? 1024 : -1024));
        out.s16(static_cast<int16_t>((corner & 2) ? 1024 : -1024));
        out.s16(static_cast<int16_t>((corner & 4) ? 1024 : -1024));
        out.s16(0);
    }
    return o;
}

void write_patch_header(ByteWriter& w, const TfragPatch& p, uint32_t data, const PatchOffsets& o, uint32_t tri_count) {
    for (float f : p.bsphere) w.f32(f);
    w.s32(static_cast<int32_t>(data));
    w.u16(o.lod_2);
    w.u16(o.shared);
    w.u16(o.lod_1);
    w.u16(o.lod_0);
    w.u16(o.tex);
    w.u16(o.rgba);
    w.u8(qwords8(o.lod_1 - o.shared, "common list"));
    w.u8(qwords8(o.lod_1 - o.lod_2, "LOD-2 DMA"));
    w.u8(qwords8(o.lod0_only - o.shared, "LOD-1 DMA"));
    w.u8(qwords8(o.rgba - o.lod_0, "LOD-0 DMA"));
    w.u8(0);  // lod_2/1/0 rgba counts: Wrench writes 0 (§7.10); their meaning is open
    w.u8(0);
    w.u8(0);
    w.u8(0);  // base_only
    w.u8(static_cast<uint8_t>(p.textures.size()));
    w.u8(o.rgba_size);
    w.u8(0);  // rgba_verts_loc (meaning open, §12 item 6)
    w.u8(0);  // occl_index_stash
    w.u8(0);  // msphere_count
    w.u8(0);  // flags
    w.u16(o.msphere);
    w.u16(o.light);
    w.u16(o.msphere);  // light_end_ofs == msphere_ofs on GC (§7.2)
    w.u8(0xFF);        // dir_lights_one
    w.u8(0);           // dir_lights_upd
    w.u16(0xFFFF);     // point_lights
    w.u16(o.cube);
    w.u16(p.occl_index);
    size_t positions = 0;
    for (const auto& tier : p.positions) positions += tier.size();
    w.u8(static_cast<uint8_t>(positions));
    w.u8(static_cast<uint8_t>(tri_count));
    w.u16(p.mip_dist);
}

}  // namespace

uint32_t strip_triangle_count(const std::vector<TfragStrip>& strips) {
    uint32_t triangles = 0;
    for (const auto& s : strips) {
        if (s.x == 0) break;
        const int n = s.x < 0 ? s.x + 128 : s.x;
        if (n >= 3) triangles += static_cast<uint32_t>(n - 2);
    }
    return triangles;
}

Bytes write_tfrags(const std::vector<TfragPatch>& patches, const TfragWriteOptions& options) {
    ByteWriter out;
    out.s32(static_cast<int32_t>(kTfragTableOffset));
    out.s32(static_cast<int32_t>(patches.size()));
    out.f32(options.thingy);
    out.u32(options.mysterious_second_thingy);
    out.pad_to(kTfragTableOffset);

    const uint64_t table = out.size();
    out.zeros(patches.size() * kTfragHeaderSize);
    for (size_t i = 0; i < patches.size(); ++i) {
        const TfragPatch& p = patches[i];
        size_t positions = 0;
        for (const auto& tier : p.positions) positions += tier.size();
        const uint32_t triangles = strip_triangle_count(p.lods[0].strips);
        if (positions > 255 || triangles > 255)
            throw std::invalid_argument(fmt::format("patch {}: {} positions / {} triangles exceed u8", i, positions, triangles));
        const VuLayout vu = allocate(p);
        if (vu.end > kVuMemoryEnd)
            throw std::invalid_argument(fmt::format("patch {} needs VU memory up to 0x{:x}", i, vu.end));
        const uint64_t data = out.size() - kTfragTableOffset;  // relative to table_offset (§7.2)
        const PatchOffsets offsets = write_patch_data(out, p, vu, options);
        out.pad_to(16);
        ByteWriter header;
        write_patch_header(header, p, static_cast<uint32_t>(data), offsets, triangles);
        std::copy(header.bytes().begin(), header.bytes().end(),
                  out.bytes().begin() + static_cast<std::ptrdiff_t>(table + i * kTfragHeaderSize));
    }
    return std::move(out.bytes());
}

}  // namespace gcfs::formats
