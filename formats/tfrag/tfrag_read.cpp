// Tfrag reader: formats.md §7.1-§7.5 and the checks listed under §7.10.
#include "formats/tfrag/tfrag_read.h"

#include <fmt/format.h>

#include <optional>

namespace gcfs::formats {
namespace {

using vif::Format;

// §7.5 VU header: 20 u16 words unpacked as 5 × V4_16 to VU address 0.
struct VuHeader {
    std::array<uint16_t, 3> position_counts{};  // words 0, 2, 4
    uint16_t positions_common_addr = 0;         // word 6
    std::array<uint16_t, 3> vertex_info_addr{}; // words 7, 9, 11
    uint16_t indices_addr = 0;                  // word 13
    std::array<uint16_t, 2> parent_addr{};      // words 14, 16 (LOD01, LOD0)
    std::array<uint16_t, 2> unk2_addr{};        // words 15, 17
    uint16_t strips_addr = 0;                   // word 18
    uint16_t adgifs_addr = 0;                   // word 19

    // Positions take two qwords each in VU memory (§7.5 "×2"), tiers in order.
    uint32_t positions_addr(int tier) const {
        uint32_t addr = positions_common_addr;
        for (int t = 0; t < tier; ++t) addr += 2u * position_counts[t];
        return addr;
    }
};

VuHeader parse_vu_header(ByteSpan p) {
    auto w = [&](int i) { return u16_at(p, 2ull * i); };
    VuHeader h;
    h.position_counts = {w(0), w(2), w(4)};
    h.positions_common_addr = w(6);
    h.vertex_info_addr = {w(7), w(9), w(11)};
    h.indices_addr = w(13);
    h.parent_addr = {w(14), w(16)};
    h.unk2_addr = {w(15), w(17)};
    h.strips_addr = w(18);
    h.adgifs_addr = w(19);
    return h;
}

// Which position / vertex-info tier a list carries, and which LOD its strips
// belong to (§7.3, §7.7). -1 = none.
constexpr int kTierOfList[kListCount] = {-1, kCommon, -1, kLod01, kLod0};
constexpr int kLodOfList[kListCount] = {2, -1, 1, -1, 0};

// §7.5 payload records: `kSize`-byte elements, each read by `one(offset)`.
template <class Record, uint64_t kSize, class ReadOne>
std::vector<Record> read_records(ByteSpan payload, ReadOne one) {
    std::vector<Record> records(payload.size() / kSize);
    for (size_t i = 0; i < records.size(); ++i) records[i] = one(kSize * i);
    return records;
}

std::vector<TfragStrip> read_strips(ByteSpan p) {
    return read_records<TfragStrip, 4>(p, [&](uint64_t o) {
        return TfragStrip{s8_at(p, o), s8_at(p, o + 1), s8_at(p, o + 2), s8_at(p, o + 3)};
    });
}

std::vector<TfragVertexInfo> read_vertex_info(ByteSpan p) {
    return read_records<TfragVertexInfo, 8>(p, [&](uint64_t o) {
        return TfragVertexInfo{s16_at(p, o), s16_at(p, o + 2), s16_at(p, o + 4), s16_at(p, o + 6)};
    });
}

std::vector<TfragPosition> read_positions(ByteSpan p) {
    return read_records<TfragPosition, 6>(p, [&](uint64_t o) { return TfragPosition{s16_at(p, o), s16_at(p, o + 2), s16_at(p, o + 4)}; });
}

// Classifies every unpack of the five lists into a TfragPatch.
class PatchAssembler {
public:
    PatchAssembler(const TfragPatchHeader& header, const TfragListSpans& spans) : h_(header), spans_(spans) {}

    void list(int list, const std::vector<vif::Packet>& packets) {
        int command = 0;
        bool indices_seen = false, parent_seen = false;
        for (const auto& packet : packets) {
            const uint64_t at = spans_.begin[list] + packet.offset;  // block offset, for errors
            if (list == kListCommon && command == 5) base_row(packet);
            ++command;
            if (!packet.code.is_unpack()) continue;
            if (packet.payload.size() != static_cast<uint64_t>(packet.code.count()) * packet.code.element_size())
                fail(Errc::desync, at, fmt::format("unpack 0x{:08x} has {} payload bytes", packet.code.raw, packet.payload.size()));
            unpack(list, packet, at, indices_seen, parent_seen);
        }
    }

    TfragPatch finish(uint64_t header_at) {
        if (!vu_) fail(Errc::bad_value, spans_.begin[kListCommon], "the common list has no VU header unpack");
        if (!base_seen_)
            fail(Errc::bad_value, spans_.begin[kListCommon], "command #5 of the common list is not the base-position STROW");
        for (int t = 0; t < 3; ++t)
            if (p_.positions[t].size() != vu_->position_counts[t])
                fail(Errc::size_mismatch, header_at + 0x3C,
                     fmt::format("VU header declares {} {} positions, the lists hold {}", vu_->position_counts[t],
                                 tier_name(t), p_.positions[t].size()));
        const size_t positions = p_.positions[0].size() + p_.positions[1].size() + p_.positions[2].size();
        if (positions != h_.vert_count)
            fail(Errc::size_mismatch, header_at + 0x3C,
                 fmt::format("vert_count is {}, the lists hold {} positions", h_.vert_count, positions));
        if (p_.textures.size() != h_.texture_count)
            fail(Errc::size_mismatch, header_at + 0x28,
                 fmt::format("texture_count is {}, the ad-gif unpack holds {}", h_.texture_count, p_.textures.size()));
        for (int lod = 0; lod < 3; ++lod)
            if (!has_strips_[lod] || !has_indices_[lod])
                fail(Errc::bad_value, spans_.begin[kLodList[lod]],
                     fmt::format("the LOD-{} list lacks its {} unpack", lod, has_strips_[lod] ? "indices" : "strips"));
        check_parents(header_at);
        const uint32_t triangles = strip_triangle_count(p_.lods[0].strips);
        if (triangles != h_.tri_count)
            fail(Errc::size_mismatch, header_at + 0x3D,
                 fmt::format("tri_count is {}, the LOD-0 strips make {} triangles", h_.tri_count, triangles));
        p_.bsphere = h_.bsphere;
        p_.occl_index = h_.occl_index;
        p_.mip_dist = h_.mip_dist;
        p_.vert_count = h_.vert_count;
        p_.tri_count = h_.tri_count;
        return std::move(p_);
    }

private:
    static constexpr int kLodList[3] = {kListLod0, kListLod1, kListLod2};
    static const char* tier_name(int t) { return t == kCommon ? "common" : t == kLod01 ? "LOD01" : "LOD0"; }

    // §7.3: command #5 of the common list is the base-position STROW.
    void base_row(const vif::Packet& packet) {
        if (packet.code.cmd() != vif::STROW) return;  // reported in finish()
        for (int i = 0; i < 4; ++i) p_.base[i] = s32_at(packet.payload, 4ull * i);
        base_seen_ = true;
    }

    [[noreturn]] void unexpected(int list, const vif::Packet& packet, uint64_t at, const char* why) {
        fail(Errc::bad_value, at,
             fmt::format("{} list: unpack 0x{:08x} (format {:x}, addr 0x{:x}, {}) {}", tfrag_list_name(list),
                         packet.code.raw, static_cast<int>(packet.code.format()), packet.code.addr(),
                         packet.code.usn() ? "unsigned" : "signed", why));
    }

    void unpack(int list, const vif::Packet& packet, uint64_t at, bool& indices_seen, bool& parent_seen) {
        const vif::Code c = packet.code;
        const int tier = kTierOfList[list];
        const int lod = kLodOfList[list];
        switch (c.format()) {
            case Format::V4_16:
                if (list == kListCommon && !vu_) {
                    if (!c.usn() || c.addr() != 0 || c.count() != 5) unexpected(list, packet, at, "is not the VU header");
                    vu_ = parse_vu_header(packet.payload);
                    return;
                }
                require_vu(list, packet, at);
                if (tier < 0 || c.usn() || c.addr() != vu_->vertex_info_addr[tier] || !p_.vertex_info[tier].empty())
                    unexpected(list, packet, at, "is no vertex-info array of this list");
                p_.vertex_info[tier] = read_vertex_info(packet.payload);
                return;
            case Format::V4_32:
                require_vu(list, packet, at);
                if (list != kListCommon || c.addr() != vu_->adgifs_addr || c.count() % 5 != 0 || !p_.textures.empty())
                    unexpected(list, packet, at, "is not the ad-gif array");
                if (at + 4 - spans_.data_start != h_.tex_ofs)
                    fail(Errc::bad_value, at, fmt::format("ad-gif payload at rel 0x{:x}, header tex_ofs says 0x{:x}",
                                                          at + 4 - spans_.data_start, h_.tex_ofs));
                // §7.5: five 16-byte GIF A+D items per texture; TEX0 first, its
                // data_lo holding the tfrag texture index.
                for (uint64_t prim = 0; prim < c.count() / 5; ++prim) p_.textures.push_back(s32_at(packet.payload, prim * 0x50));
                return;
            case Format::V3_16:
                require_vu(list, packet, at);
                if (tier < 0 || c.addr() != vu_->positions_addr(tier) || !p_.positions[tier].empty())
                    unexpected(list, packet, at, "is no position array of this list");
                p_.positions[tier] = read_positions(packet.payload);
                return;
            case Format::V4_8:
                require_vu(list, packet, at);
                if (!c.usn()) {
                    if (lod < 0 || c.addr() != vu_->strips_addr || has_strips_[lod])
                        unexpected(list, packet, at, "is no strip array of this list");
                    p_.lods[lod].strips = read_strips(packet.payload);
                    has_strips_[lod] = true;
                    return;
                }
                if (lod >= 0 && !indices_seen && c.addr() == vu_->indices_addr) {
                    p_.lods[lod].indices.assign(packet.payload.begin(), packet.payload.end());
                    has_indices_[lod] = true;
                    indices_seen = true;
                    return;
                }
                if (tier == kLod01 || tier == kLod0) {
                    // §7.3: optional parent and "unknown indices 2" arrays are
                    // told apart by address, and by position where the two
                    // addresses coincide (parent first).
                    const int slot = tier == kLod01 ? 0 : 1;
                    if (c.addr() == vu_->parent_addr[slot] && !parent_seen) {
                        parents(slot, packet, at, tier);
                        parent_seen = true;
                        return;
                    }
                    if (c.addr() == vu_->unk2_addr[slot] && p_.unknown_indices_2[slot].empty()) {
                        // Meaning open (§12 item 6): kept as unpacked, padding included.
                        p_.unknown_indices_2[slot].assign(packet.payload.begin(), packet.payload.end());
                        return;
                    }
                }
                unexpected(list, packet, at, "matches no index array of this list");
            default:
                unexpected(list, packet, at, "has a format tfrags do not use");
        }
    }

    void require_vu(int list, const vif::Packet& packet, uint64_t at) {
        if (!vu_) unexpected(list, packet, at, "comes before the VU header");
    }

    // §7.5: a parent index names a vertex info, as strip indices do; the
    // LOD01 positions' parents must be among the vertex infos LOD 1 draws
    // with (common and LOD01), the LOD0 positions' among all of them. The
    // reference does not say whether a parent must be coarser than its child.
    void check_parents(uint64_t header_at) const {
        const size_t visible[2] = {p_.vertex_info[kCommon].size() + p_.vertex_info[kLod01].size(),
                                   p_.vertex_info[kCommon].size() + p_.vertex_info[kLod01].size() + p_.vertex_info[kLod0].size()};
        for (int slot = 0; slot < 2; ++slot)
            for (size_t i = 0; i < p_.parent_indices[slot].size(); ++i)
                if (p_.parent_indices[slot][i] >= visible[slot])
                    fail(Errc::out_of_range, header_at,
                         fmt::format("{} position {} has parent vertex info {}, of {} its LOD sees",
                                     tier_name(slot == 0 ? kLod01 : kLod0), i, p_.parent_indices[slot][i], visible[slot]));
    }

    // §7.5: parent arrays are padded to 4 bytes; trimmed back to the tier's
    // position count with a difference of 0-3 allowed.
    void parents(int slot, const vif::Packet& packet, uint64_t at, int tier) {
        const uint64_t want = vu_->position_counts[tier];
        const uint64_t have = packet.payload.size();
        if (have < want || have - want > 3)
            fail(Errc::size_mismatch, at,
                 fmt::format("{} parent indices for {} {} positions", have, want, tier_name(tier)));
        p_.parent_indices[slot].assign(packet.payload.begin(), packet.payload.begin() + static_cast<std::ptrdiff_t>(want));
    }

    const TfragPatchHeader& h_;
    const TfragListSpans& spans_;
    TfragPatch p_;
    std::optional<VuHeader> vu_;
    bool base_seen_ = false;
    std::array<bool, 3> has_strips_{}, has_indices_{};
};

// §7.3 tail: RGBA colours, then lights (a copy of the base row first).
void read_tail(ByteSpan block, const TfragPatchHeader& h, const TfragListSpans& spans, uint64_t header_at, TfragPatch& p) {
    const uint64_t rgba_at = spans.data_start + h.rgba_ofs;
    const ByteSpan rgba = slice(block, rgba_at, h.rgba_size * 16ull, "tfrag RGBA array");
    const uint64_t colours = std::min<uint64_t>(h.rgba_size * 4ull, h.vert_count);  // the rest is padding
    for (uint64_t i = 0; i < colours; ++i) p.rgba.push_back({rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2], rgba[4 * i + 3]});

    const uint64_t light_at = spans.data_start + h.light_ofs;
    const ByteSpan lights = slice(block, light_at, 16 + 8ull * h.vert_count, "tfrag light array");
    for (int i = 0; i < 4; ++i)
        if (s32_at(lights, 4ull * i) != p.base[i])
            fail(Errc::bad_value, light_at + 4ull * i,
                 fmt::format("the base-position copy at light_ofs differs from the STROW ({} vs {}); header at 0x{:x}",
                             s32_at(lights, 4ull * i), p.base[i], header_at));
    for (uint64_t i = 0; i < h.vert_count; ++i) {
        const uint64_t o = 16 + 8 * i;
        p.lights.push_back({s8_at(lights, o), s8_at(lights, o + 1), s8_at(lights, o + 2), s8_at(lights, o + 3),
                            s16_at(lights, o + 4), s16_at(lights, o + 6)});
    }
}

}  // namespace

const char* tfrag_list_name(int list) {
    static constexpr const char* kNames[kListCount] = {"LOD-2", "common", "LOD-1", "LOD-01", "LOD-0"};
    return list >= 0 && list < kListCount ? kNames[list] : "?";
}

Result<TfragsHeader> parse_tfrags_header(ByteSpan head, uint64_t block_size) {
    return capture([&] {
        require(head, 0, kTfragsHeaderSize, "tfrags header");
        TfragsHeader h{s32_at(head, 0), s32_at(head, 4), f32_at(head, 8), u32_at(head, 12)};
        if (h.table_offset < static_cast<int32_t>(kTfragsHeaderSize))
            fail(Errc::bad_value, 0, fmt::format("table_offset 0x{:x} overlaps the 16-byte header", h.table_offset));
        if (h.tfrag_count < 0) fail(Errc::bad_value, 4, fmt::format("tfrag_count {} is negative", h.tfrag_count));
        const uint64_t table_bytes = static_cast<uint64_t>(h.tfrag_count) * kTfragHeaderSize;
        if (static_cast<uint64_t>(h.table_offset) > block_size || table_bytes > block_size - h.table_offset)
            fail(Errc::out_of_range, 4,
                 fmt::format("{} patch headers at 0x{:x} pass the {}-byte tfrag block", h.tfrag_count, h.table_offset,
                             block_size));
        return h;
    });
}

uint64_t tfrag_patch_header_offset(const TfragsHeader& header, uint32_t index) {
    return static_cast<uint64_t>(header.table_offset) + static_cast<uint64_t>(index) * kTfragHeaderSize;
}

Result<TfragPatchHeader> parse_tfrag_patch_header(ByteSpan block, const TfragsHeader& header, uint32_t index) {
    return capture([&] {
        if (index >= static_cast<uint32_t>(header.tfrag_count))
            fail(Errc::out_of_range, 4, fmt::format("patch {} of {}", index, header.tfrag_count));
        const ByteSpan b = slice(block, tfrag_patch_header_offset(header, index), kTfragHeaderSize, "tfrag patch header");
        TfragPatchHeader h;
        for (int i = 0; i < 4; ++i) h.bsphere[i] = f32_at(b, 4ull * i);
        h.data = s32_at(b, 0x10);
        h.lod_2_ofs = u16_at(b, 0x14);
        h.shared_ofs = u16_at(b, 0x16);
        h.lod_1_ofs = u16_at(b, 0x18);
        h.lod_0_ofs = u16_at(b, 0x1A);
        h.tex_ofs = u16_at(b, 0x1C);
        h.rgba_ofs = u16_at(b, 0x1E);
        h.common_size = b[0x20];
        h.lod_2_size = b[0x21];
        h.lod_1_size = b[0x22];
        h.lod_0_size = b[0x23];
        h.texture_count = b[0x28];
        h.rgba_size = b[0x29];
        h.msphere_count = b[0x2C];
        h.msphere_ofs = u16_at(b, 0x2E);
        h.light_ofs = u16_at(b, 0x30);
        h.light_end_ofs = u16_at(b, 0x32);
        h.cube_ofs = u16_at(b, 0x38);
        h.occl_index = u16_at(b, 0x3A);
        h.vert_count = b[0x3C];
        h.tri_count = b[0x3D];
        h.mip_dist = u16_at(b, 0x3E);
        return h;
    });
}

Result<TfragListSpans> tfrag_list_spans(ByteSpan block, const TfragsHeader& header, const TfragPatchHeader& h) {
    return capture([&] {
        // Errors point at the header field that is wrong; the patch's header
        // offset is not known here, so offsets are of the data start.
        if (h.data < 0) fail(Errc::bad_value, 0x10, fmt::format("patch data offset {} is negative", h.data));
        TfragListSpans s;
        s.data_start = static_cast<uint64_t>(header.table_offset) + static_cast<uint64_t>(h.data);
        const uint64_t d = s.data_start;
        auto equal = [&](uint64_t got, uint64_t want, const char* what) {
            if (got != want)
                fail(Errc::size_mismatch, d, fmt::format("{}: 0x{:x} != 0x{:x}", what, got, want));
        };
        // §7.10: the list offsets and the qword sizes describe the same layout.
        equal(h.shared_ofs + h.common_size * 16ull, h.lod_1_ofs, "shared_ofs + common_size*16 vs lod_1_ofs");
        equal(h.lod_2_ofs + h.lod_2_size * 16ull, h.lod_1_ofs, "lod_2_ofs + lod_2_size*16 vs lod_1_ofs");
        // §7.3: the LOD-0-only list has no offset of its own; Wrench ends it
        // at rgba_ofs + lod_2_ofs (= rgba_ofs whenever lod_2_ofs is 0).
        const uint64_t lod0_only = h.shared_ofs + h.lod_1_size * 16ull;
        const uint64_t lod0_end = static_cast<uint64_t>(h.rgba_ofs) + h.lod_2_ofs;
        equal(h.lod_0_ofs + h.lod_0_size * 16ull, lod0_end, "lod_0_ofs + lod_0_size*16 vs LOD-0 end");
        const uint64_t bounds[kListCount + 1] = {h.lod_2_ofs, h.shared_ofs, h.lod_1_ofs, h.lod_0_ofs, lod0_only, lod0_end};
        for (int i = 0; i < kListCount; ++i)
            if (bounds[i] > bounds[i + 1])
                fail(Errc::bad_value, d,
                     fmt::format("the {} list starts at rel 0x{:x}, after its end 0x{:x}", tfrag_list_name(i), bounds[i],
                                 bounds[i + 1]));
        require(block, d, lod0_end, "tfrag patch lists");
        for (int i = 0; i < kListCount; ++i) {
            s.begin[i] = d + bounds[i];
            s.lists[i] = block.subspan(s.begin[i], bounds[i + 1] - bounds[i]);
        }
        return s;
    });
}

Result<TfragPatch> read_tfrag_patch(ByteSpan block, const TfragsHeader& header, uint32_t index, vif::PacketSizer sizer) {
    return capture([&] {
        const uint64_t header_at = tfrag_patch_header_offset(header, index);
        const TfragPatchHeader h = parse_tfrag_patch_header(block, header, index).value();
        auto spans = tfrag_list_spans(block, header, h);
        if (!spans.ok()) {
            FormatError e = spans.error();
            fail(e.code, e.offset, fmt::format("patch header at 0x{:x}: {}", header_at, e.message));
        }
        PatchAssembler assembler(h, *spans);
        // The VU header that tells unpacks apart opens the common list, which
        // the LOD-2 list precedes physically (§7.3): read the common list first.
        for (int list : {kListCommon, kListLod2, kListLod1, kListLod01, kListLod0}) {
            auto packets = vif::walk(spans->lists[list], sizer);
            if (!packets.ok())
                fail(packets.error().code, spans->begin[list] + packets.error().offset,
                     fmt::format("{} list: {}", tfrag_list_name(list), packets.error().message));
            assembler.list(list, *packets);
        }
        TfragPatch patch = assembler.finish(header_at);
        read_tail(block, h, *spans, header_at, patch);
        return patch;
    });
}

}  // namespace gcfs::formats
