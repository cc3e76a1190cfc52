#include "formats/moby/moby_packet.h"

#include <fmt/format.h>

#include <functional>

#include "formats/vif/vif.h"

namespace gcfs::formats::moby {
namespace {

struct VifParts {
    std::vector<vif::Packet> unpacks;
    uint64_t list_at = 0;
};

VifParts vif_parts(ByteSpan cls, const PacketEntry& e) {
    const uint64_t size = uint64_t{e.vif_list_qwords} * 16;
    if (e.vif_list_offset % 16) fail(Errc::bad_value, e.at, fmt::format("VIF list at 0x{:x} is not 16-aligned", e.vif_list_offset));
    const ByteSpan list = slice(cls, e.vif_list_offset, size, "moby VIF list");
    auto walked = vif::walk(list);
    if (!walked.ok()) fail(walked.error().code, e.vif_list_offset + walked.error().offset, "VIF list: " + walked.error().message);
    VifParts parts{{}, e.vif_list_offset};
    for (const vif::Packet& p : *walked)
        if (p.code.is_unpack()) parts.unpacks.push_back(p);
    return parts;
}

// §7.2-§7.3: the index bytes with secrets substituted, up to the terminator;
// calls `push(index_byte, texture)` for each, the three fillers dropped.
struct IndexWalk {
    int zeros = 0;  // zero bytes met, the terminator included
};

IndexWalk walk_indices(ByteSpan index_payload, uint64_t payload_at, const std::vector<uint8_t>& secrets, const std::vector<int>& textures,
                       uint32_t vertex_count, int& texture, const std::function<void(uint8_t, int)>& push) {
    struct Pushed {
        uint8_t byte;
        int texture;
    };
    std::vector<Pushed> pushed;
    IndexWalk walk;
    uint64_t i = 4;
    bool terminated = false;
    for (; i < index_payload.size(); ++i) {
        uint8_t b = index_payload[i];
        if (b == 0) {
            if (walk.zeros >= static_cast<int>(secrets.size()))
                fail(Errc::bad_value, payload_at + i, fmt::format("zero index byte {} has no secret index (§7.3)", walk.zeros));
            const uint8_t secret = secrets[static_cast<size_t>(walk.zeros)];
            if (secret == 0) {
                ++walk.zeros;
                terminated = true;
                break;
            }
            if (walk.zeros >= static_cast<int>(textures.size()))
                fail(Errc::bad_value, payload_at + i, fmt::format("texture switch {} has no ad-gif block", walk.zeros));
            texture = textures[static_cast<size_t>(walk.zeros)];
            ++walk.zeros;
            b = static_cast<uint8_t>(secret ^ 0x80);
        }
        const uint32_t index = b & 0x7fu;
        if (index == 0 || index > vertex_count)
            fail(Errc::out_of_range, payload_at + i, fmt::format("index byte 0x{:02x} names vertex {} of {}", b, int(index) - 1, vertex_count));
        pushed.push_back({b, texture});
    }
    if (!terminated) fail(Errc::bad_value, payload_at + i, "the index bytes end without a terminating 0 whose secret is 0 (§7.2)");
    for (++i; i < index_payload.size(); ++i)
        if (index_payload[i] != 0) fail(Errc::bad_value, payload_at + i, "non-zero byte after the terminator");
    // §7.2: the three bytes before the terminator fill the pipeline.
    if (pushed.size() < 3) fail(Errc::bad_value, payload_at, fmt::format("{} index bytes before the terminator, fewer than 3", pushed.size()));
    pushed.resize(pushed.size() - 3);
    for (const Pushed& p : pushed) push(p.byte, p.texture);
    return walk;
}

// The ad-gif blocks of an UNPACK payload: TEX0 slots and the secrets in their 0x0c words (§7.3, §10.1).
void read_ad_gifs(ByteSpan payload, uint64_t at, bool metal, PacketResult& out, std::vector<uint8_t>& secrets) {
    if (payload.size() % kAdGifSize) fail(Errc::size_mismatch, at, fmt::format("ad-gif payload of {} bytes is not whole 64-byte blocks", payload.size()));
    out.ad_gifs = static_cast<int>(payload.size() / kAdGifSize);
    for (int b = 0; b < out.ad_gifs; ++b) {
        const int32_t tex0 = s32_at(payload, kAdGifSize * b + 0x20);
        if (metal ? (tex0 != -2 && tex0 != -3) : tex0 < -1)  // §14
            fail(Errc::bad_value, at + kAdGifSize * b + 0x20, fmt::format("TEX0 slot {} in a {} packet", tex0, metal ? "metal" : "regular"));
        out.ad_gif_textures.push_back(tex0);
    }
    for (uint64_t k = 0; k < 4ull * out.ad_gifs; ++k) secrets.push_back(payload[0x0c + 16 * k]);
}

std::array<uint32_t, 8> vertex_header(ByteSpan cls, uint64_t at, bool rac1) {
    std::array<uint32_t, 8> f{};
    for (int i = 0; i < 8; ++i) f[i] = rac1 ? u32_at(cls, at + 4 * i) : u16_at(cls, at + 2 * i);
    return f;
}

void check_entry_counts(const PacketEntry& e, uint32_t transfer_vertices) {
    // §5 / §14: the entry repeats T and derives d and e from it.
    if (e.transfer_vertices != transfer_vertices || e.unknown_d != (0xf + 6 * transfer_vertices) / 16 || e.unknown_e != (3 + transfer_vertices) / 4)
        fail(Errc::size_mismatch, e.at + 0xd,
             fmt::format("entry d/e/T {}/{}/{} do not follow from the {} transfer vertices", e.unknown_d, e.unknown_e, e.transfer_vertices,
                         transfer_vertices));
}

// §8.7: the VU0 matrix slots, followed back to joints, with the rules
// Wrench's reader enforces.
class SkinSlots {
public:
    SkinSlots(ListState& state, uint64_t at) : state_(state), at_(at) {}
    void store(uint8_t addr, const Skin& skin) {
        aligned(addr);
        if (addr != kDiscardSlot) state_.slots[addr / 4] = skin;
    }
    // A joint copied in from the scratchpad; a static class's joint 0 is the identity.
    void transfer(uint8_t addr, uint8_t joint, bool preloop) {
        if (preloop && !state_.animated && joint == 0) return store(addr, Skin{});
        if (state_.joints && joint >= state_.joints && !state_.rig_error)  // the mesh stands; the rig cannot
            state_.rig_error = FormatError{Errc::out_of_range, at_, fmt::format("transfers joint {} of a {}-joint skeleton", joint, state_.joints)};
        store(addr, Skin{1, {joint, 0, 0}, {255, 0, 0}});
    }
    Skin load(uint8_t addr, bool must_be_joint, uint8_t stored_here) {
        aligned(addr);
        if (addr == stored_here && stored_here != kDiscardSlot)
            fail(Errc::bad_value, at_, fmt::format("loading from and storing to VU0 address 0x{:02x} in one record", addr));
        if (addr == kDiscardSlot || !state_.slots[addr / 4])
            fail(Errc::bad_value, at_, fmt::format("VU0 address 0x{:02x} is loaded before anything is stored there", addr));
        const Skin& skin = *state_.slots[addr / 4];
        if (must_be_joint && skin.count > 1)
            fail(Errc::bad_value, at_, fmt::format("a blend reads VU0 address 0x{:02x}, which holds a blend", addr));
        return skin;
    }

private:
    void aligned(uint8_t addr) const {
        if (addr % 4) fail(Errc::bad_value, at_, fmt::format("VU0 address 0x{:02x} is not a multiple of 4", addr));
    }
    ListState& state_;
    uint64_t at_;
};

}  // namespace

PacketEntry read_packet_entry(ByteSpan cls, uint64_t at) {
    return {at, u32_at(cls, at), u16_at(cls, at + 4), u16_at(cls, at + 6), u32_at(cls, at + 8),
            u8_at(cls, at + 0xc), u8_at(cls, at + 0xd), u8_at(cls, at + 0xe), u8_at(cls, at + 0xf)};
}

PacketResult read_regular_packet(ByteSpan cls, const PacketEntry& e, bool rac1, ListState& state, Lod& lod) {
    const VifParts vif = vif_parts(cls, e);
    if (vif.unpacks.size() != 2 && vif.unpacks.size() != 3)  // §6.2
        fail(Errc::bad_value, e.vif_list_offset, fmt::format("{} UNPACKs in a moby packet, not 2 or 3", vif.unpacks.size()));
    const vif::Packet& st = vif.unpacks[0];
    const vif::Packet& index = vif.unpacks[1];
    const uint64_t index_at = vif.list_at + index.offset + 4;
    PacketResult result;
    std::vector<uint8_t> secrets;
    require(index.payload, 0, 4, "index header", index_at);
    secrets.push_back(index.payload[2]);
    if (vif.unpacks.size() == 3) {
        const vif::Packet& ad = vif.unpacks[2];
        result.ad_gif_payload = vif.list_at + ad.offset + 4;
        read_ad_gifs(ad.payload, result.ad_gif_payload, false, result, secrets);
        if (ad.code.addr() != kIndexVuAddress + index.code.count())  // §14
            fail(Errc::bad_value, vif.list_at + ad.offset, fmt::format("ad-gif UNPACK at VU 0x{:x}, not 0x{:x}", ad.code.addr(), kIndexVuAddress + index.code.count()));
    }
    // §7.1 / §14: index header byte 3 is 0; byte 1 is the index UNPACK's qwords when there are ad-gifs.
    if (index.payload[3] != 0 || index.payload[1] != (result.ad_gifs ? index.code.count() : 0))
        fail(Errc::bad_value, index_at, fmt::format("index header bytes 1 and 3 are {} and {}", index.payload[1], index.payload[3]));
    if (e.texture_unpack_offset != 4 * result.ad_gifs)
        fail(Errc::size_mismatch, e.at + 6, fmt::format("texture unpack offset {} for {} ad-gif blocks", e.texture_unpack_offset, result.ad_gifs));

    // §8.1 vertex table.
    if (e.vertex_offset % 16) fail(Errc::bad_value, e.at + 8, "vertex table not 16-aligned");
    const uint64_t table_bytes = uint64_t{e.vertex_qwords} * 16;
    require(cls, e.vertex_offset, table_bytes, "moby vertex table");
    const uint64_t hsize = rac1 ? 32 : 16;
    if (table_bytes < hsize) fail(Errc::truncated, e.at + 0xc, "vertex table smaller than its header");
    const auto f = vertex_header(cls, e.vertex_offset, rac1);
    const uint32_t transfers = f[0], two = f[1], three = f[2], main = f[3], dups = f[4], total = f[5], vto = f[6], tail = f[7];
    const uint64_t n = uint64_t{two} + three + main;
    if (total != n + dups) fail(Errc::size_mismatch, e.vertex_offset + 5 * (rac1 ? 4 : 2), fmt::format("transfer count {} is not {} + {} + {} + {}", total, two, three, main, dups));
    check_entry_counts(e, total);
    if (align_up(align_up(hsize + 2ull * transfers, 8) + 2ull * dups, 16) != vto || vto > table_bytes)
        fail(Errc::size_mismatch, e.vertex_offset + 6 * (rac1 ? 4 : 2), fmt::format("vertex_table_offset 0x{:x} for {} transfers and {} duplicates", vto, transfers, dups));
    const uint64_t records_end = rac1 ? tail : table_bytes;  // §8.6: R&C1 puts a trailing block at unknown_e
    if (records_end > table_bytes || records_end < vto + 16 * n)
        fail(Errc::size_mismatch, e.vertex_offset, fmt::format("{} records do not fit the vertex table", n));
    const uint64_t extra = (records_end - vto) / 16 - n;  // padding + final records (§8.4)
    if (extra < 1 || extra > 6) fail(Errc::size_mismatch, e.vertex_offset, fmt::format("{} padding and final records, not 1 to 6", extra));
    const ByteSpan st_bytes = st.payload;
    if (st.code.count() < total) fail(Errc::size_mismatch, vif.list_at + st.offset, fmt::format("{} texture coordinates for {} vertices", st.code.count(), total));

    // §8.7 skinning state, §8.2 records: each record's matrix, in record order.
    SkinSlots preloop(state, e.vertex_offset);
    for (uint32_t k = 0; k < transfers; ++k)
        preloop.transfer(u8_at(cls, e.vertex_offset + hsize + 2 * k + 1), u8_at(cls, e.vertex_offset + hsize + 2 * k), true);
    const uint64_t records = e.vertex_offset + vto;
    const uint64_t p = extra - 1;
    std::vector<uint32_t> ids(n);
    std::vector<Skin> skins(n);
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t r = records + 16 * i;
        const uint16_t low = u16_at(cls, r);
        const uint8_t joint_field = static_cast<uint8_t>(low >> 9);
        SkinSlots slots(state, r);
        if (i < two) {  // two-way: transfer the joint, blend A and B
            slots.transfer(u8_at(cls, r + 6), joint_field, false);
            const Skin a = slots.load(u8_at(cls, r + 2), true, u8_at(cls, r + 6));
            const Skin b = slots.load(u8_at(cls, r + 3), true, u8_at(cls, r + 6));
            skins[i] = {2, {a.joints[0], b.joints[0], 0}, {u8_at(cls, r + 4), u8_at(cls, r + 5), 0}};
            slots.store(u8_at(cls, r + 7), skins[i]);
        } else if (i < two + three) {  // three-way: blend A, B and C (bits 9..15 × 2)
            const Skin a = slots.load(u8_at(cls, r + 2), true, kDiscardSlot);
            const Skin b = slots.load(u8_at(cls, r + 3), true, kDiscardSlot);
            const Skin c = slots.load(static_cast<uint8_t>(joint_field * 2), true, kDiscardSlot);
            skins[i] = {3, {a.joints[0], b.joints[0], c.joints[0]}, {u8_at(cls, r + 4), u8_at(cls, r + 5), u8_at(cls, r + 6)}};
            slots.store(u8_at(cls, r + 7), skins[i]);
        } else {  // main: transfer the joint, use the matrix at the load address
            slots.transfer(u8_at(cls, r + 3), joint_field, false);
            skins[i] = slots.load(u8_at(cls, r + 2), false, u8_at(cls, r + 3));
        }
        if (i >= 7) ids[i - 7] = low & 0x1ffu;  // §8.4: the ID of vertex i sits in record i + 7
    }
    // §8.4 epilogue: E[j] is the ID of vertex n - 7 + j.
    std::array<uint32_t, 7> epilogue{};
    for (uint64_t j = 0; j < p; ++j) epilogue[j] = u16_at(cls, records + 16 * (n + j)) & 0x1ffu;
    const uint64_t final_record = records + 16 * (n + p);
    epilogue[p] = u16_at(cls, final_record) & 0x1ffu;
    for (uint64_t j = p + 1; j < 7; ++j) epilogue[j] = u16_at(cls, final_record + 4 + 2 * (j - p - 1)) & 0x1ffu;
    for (uint64_t j = 0; j < 7; ++j)
        if (n + j >= 7) ids[n + j - 7] = epilogue[j];

    const auto first = static_cast<uint32_t>(lod.vertices.size());
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t r = records + 16 * i;
        Vertex v{s16_at(cls, r + 10), s16_at(cls, r + 12), s16_at(cls, r + 14), u8_at(cls, r + 8), u8_at(cls, r + 9),
                 s16_at(st_bytes, 4 * i), s16_at(st_bytes, 4 * i + 2), skins[i]};
        state.cache[ids[i]] = v;
        lod.vertices.push_back(v);
    }
    // §8.5: each duplicate copies the vertex now in its cache slot, with its own ST.
    const uint64_t dups_at = e.vertex_offset + align_up(hsize + 2ull * transfers, 8);
    for (uint32_t k = 0; k < dups; ++k) {
        const uint32_t slot = u16_at(cls, dups_at + 2 * k) >> 7;
        if (!state.cache[slot]) fail(Errc::bad_value, dups_at + 2 * k, fmt::format("duplicate {} names cache slot {}, still empty", k, slot));
        Vertex v = *state.cache[slot];
        v.s = s16_at(st_bytes, 4 * (n + k));
        v.t = s16_at(st_bytes, 4 * (n + k) + 2);
        lod.vertices.push_back(v);
    }
    lod.two_way += static_cast<int>(two), lod.three_way += static_cast<int>(three), lod.main += static_cast<int>(main);
    lod.duplicates += static_cast<int>(dups), lod.matrix_transfers += static_cast<int>(transfers);

    // §7.4: push every index; a kicked one closes a triangle with the two before it.
    std::vector<uint32_t> queue;
    bool previous_no_kick = false;
    const IndexWalk walk = walk_indices(index.payload, index_at, secrets, result.ad_gif_textures, total, state.texture, [&](uint8_t b, int texture) {
        const uint32_t v = first + (b & 0x7fu) - 1;
        const bool kick = (b & 0x80) == 0;
        if (!kick && previous_no_kick) {
            ++lod.strips;  // two no-kick indices in a row open a strip
            previous_no_kick = false;
        } else {
            previous_no_kick = !kick;
        }
        if (kick && queue.size() >= 2) lod.triangles.push_back({{queue[queue.size() - 2], queue.back(), v}, texture});
        queue.push_back(v);
    });
    if (walk.zeros != result.ad_gifs + 1)  // §14: one switch per ad-gif, then the terminator
        fail(Errc::size_mismatch, index_at, fmt::format("{} zero index bytes for {} ad-gif blocks", walk.zeros, result.ad_gifs));
    ++lod.packets;
    return result;
}

int read_metal_packet(ByteSpan cls, const PacketEntry& e, PacketResult& result) {
    const VifParts vif = vif_parts(cls, e);
    if (vif.unpacks.empty() || vif.unpacks.size() > 2)  // §9: indices, then optional ad-gifs
        fail(Errc::bad_value, e.vif_list_offset, fmt::format("{} UNPACKs in a metal packet, not 1 or 2", vif.unpacks.size()));
    const vif::Packet& index = vif.unpacks[0];
    std::vector<uint8_t> secrets;
    require(index.payload, 0, 4, "metal index header", vif.list_at + index.offset + 4);
    secrets.push_back(index.payload[2]);
    if (vif.unpacks.size() == 2) read_ad_gifs(vif.unpacks[1].payload, vif.list_at + vif.unpacks[1].offset + 4, true, result, secrets);
    // §9: a 16-byte header {vertex count, 3 unknown words}, then 16-byte vertices.
    require(cls, e.vertex_offset, uint64_t{e.vertex_qwords} * 16, "metal vertex table");
    const int32_t count = s32_at(cls, e.vertex_offset);
    if (count < 0 || 16 + 16ull * static_cast<uint64_t>(count) > uint64_t{e.vertex_qwords} * 16)
        fail(Errc::size_mismatch, e.vertex_offset, fmt::format("{} metal vertices overrun a {}-qword table", count, e.vertex_qwords));
    check_entry_counts(e, static_cast<uint32_t>(count));
    int texture = 0;
    walk_indices(index.payload, vif.list_at + index.offset + 4, secrets, result.ad_gif_textures, static_cast<uint32_t>(count), texture,
                 [](uint8_t, int) {});
    return count;
}

}  // namespace gcfs::formats::moby
