#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "formats/tie/tie.h"

namespace gcfs::formats::tie {
namespace {

// OBJ columns hold |x| < 2^21 (formats/export/obj.h); 32767 × scale / 1024
// stays inside for scale ≤ 65536. The references give no bound on scale.
constexpr float kMaxScale = 65536.0f;

struct Logical {
    uint32_t slot;
    Vertex vertex;
};

Header read_header(ByteSpan c) {
    require(c, 0, kHeaderSize, "tie class header");
    Header h;
    for (int i = 0; i < 3; ++i) {
        h.packets[i] = s32_at(c, 4 * i);
        h.packet_count[i] = u8_at(c, 0x0c + i);
        h.lods[i] = {s16_at(c, 0x60 + 8 * i), s16_at(c, 0x62 + 8 * i), s16_at(c, 0x64 + 8 * i), s16_at(c, 0x66 + 8 * i)};
    }
    h.texture_count = u8_at(c, 0x0f);
    h.near_dist = f32_at(c, 0x10);
    h.mid_dist = f32_at(c, 0x14);
    h.far_dist = f32_at(c, 0x18);
    h.ad_gif_ofs = s32_at(c, 0x1c);
    h.scale = f32_at(c, 0x40);
    h.o_class = s16_at(c, 0x44);
    for (int i = 0; i < 4; ++i) h.bsphere[i] = f32_at(c, 0x50 + 4 * i);
    if (!(std::isfinite(h.scale) && h.scale > 0 && h.scale <= kMaxScale))
        fail(Errc::bad_value, 0x40, fmt::format("scale {} is not in (0, {}]", h.scale, kMaxScale));
    // A.8 bounds: the ad-gif table lies in the class.
    if (h.ad_gif_ofs < 0) fail(Errc::out_of_range, 0x1c, "negative ad_gif_ofs");
    require(c, static_cast<uint64_t>(h.ad_gif_ofs), kAdGifSize * h.texture_count, "ad-gif table");
    return h;
}

Vertex dinky_at(ByteSpan v, uint64_t o, uint32_t& slot, uint32_t& slot2) {
    slot = u16_at(v, o + 6);
    slot2 = u16_at(v, o + 0xe);
    return {s16_at(v, o), s16_at(v, o + 2), s16_at(v, o + 4), s16_at(v, o + 8), s16_at(v, o + 0xa), u16_at(v, o + 0xc)};
}

Vertex fat_at(ByteSpan v, uint64_t o, uint32_t& slot, uint32_t& slot2) {
    slot = u16_at(v, o + 6);
    slot2 = u16_at(v, o + 0x16);
    return {s16_at(v, o + 8), s16_at(v, o + 0xa), s16_at(v, o + 0xc), s16_at(v, o + 0x10), s16_at(v, o + 0x12), u16_at(v, o + 0x14)};
}

class PacketReader {
public:
    PacketReader(ByteSpan cls, const Header& header, uint64_t at, uint64_t header_at)
        : cls_(cls), header_(header), at_(at), header_at_(header_at) {}

    // Appends the packet's strips to `lod`; returns one past its last byte.
    uint64_t read(Lod& lod) {
        const uint8_t shader_count = u8_at(cls_, header_at_ + 4);
        const uint64_t vert_ofs = u8_at(cls_, header_at_ + 8) * 16ull, vert_size = u8_at(cls_, header_at_ + 9) * 16ull;
        require(cls_, at_, kStripsAt, "tie packet", 0);
        const uint8_t strip_count = u8_at(cls_, at_ + 0x23);
        const uint64_t strips_end = kStripsAt + 4ull * strip_count;
        require(cls_, at_, strips_end, "tie packet strips");
        if (vert_ofs < strips_end)
            fail(Errc::bad_value, header_at_ + 8, fmt::format("vertex region at +0x{:x} overlaps the {} strips", vert_ofs, strip_count));
        require(cls_, at_ + vert_ofs, vert_size, "tie vertex region");
        // A.4/A.8: d = (byte 8 − 4) / 2, with byte 8 ≥ 4 and even.
        const uint8_t b8 = u8_at(cls_, at_ + 0x28);
        if (b8 < 4 || b8 % 2) fail(Errc::bad_value, at_ + 0x28, fmt::format("dinky size byte {} is not an even number >= 4", b8));
        const uint64_t dinky = (b8 - 4u) / 2u;
        if (dinky * kDinkySize > vert_size)
            fail(Errc::size_mismatch, at_ + 0x28, fmt::format("{} dinky vertices overrun a {}-byte vertex region", dinky, vert_size));
        const uint64_t fat = (vert_size - dinky * kDinkySize) / kFatSize;
        lod.packets_with_rac1_regions += u32_at(cls_, header_at_ + 0xa) != 0;  // bytes 0xa-0xd (A.3 [ext-RAC1])
        lod.stored_dinky += static_cast<int>(dinky);
        lod.stored_fat += static_cast<int>(fat);
        if (dinky + fat < 4)  // A.5 step 3 / A.10 item 6
            fail(Errc::bad_value, header_at_ + 9, fmt::format("{} stored vertices, fewer than the 4 a packet needs", dinky + fat));

        std::vector<Logical> logical = expand(at_ + vert_ofs, dinky, fat);
        walk(logical, strip_count, shader_count, lod);
        return at_ + vert_ofs + vert_size;
    }

private:
    std::vector<Logical> expand(uint64_t region, uint64_t dinky, uint64_t fat) const {
        std::vector<Logical> out;
        out.reserve(2 * (dinky + fat));
        for (uint64_t i = 0; i < dinky + fat; ++i) {
            uint32_t slot = 0, slot2 = 0;
            const uint64_t o = i < dinky ? region + i * kDinkySize : region + dinky * kDinkySize + (i - dinky) * kFatSize;
            const Vertex v = i < dinky ? dinky_at(cls_, o, slot, slot2) : fat_at(cls_, o, slot, slot2);
            // A.8 range limits: a packet's GS slots are < 256 (strip tags hold them in a u8).
            if (slot > 0xff || slot2 > 0xff)
                fail(Errc::out_of_range, o + 6, fmt::format("vertex GS slot {} or {} is past 255", slot, slot2));
            out.push_back({slot, v});
            if (slot2 != 0 && slot2 != slot) out.push_back({slot2, v});
        }
        // A.5 steps 2-3: GS order, one vertex per slot. Copies that disagree
        // are an error here: Wrench's unstable sort would keep either.
        std::stable_sort(out.begin(), out.end(), [](const Logical& a, const Logical& b) { return a.slot < b.slot; });
        std::vector<Logical> unique;
        for (const Logical& l : out) {
            if (!unique.empty() && unique.back().slot == l.slot) {
                if (!(unique.back().vertex == l.vertex))
                    fail(Errc::bad_value, region, fmt::format("two different vertices claim GS slot {}", l.slot));
                continue;
            }
            unique.push_back(l);
        }
        return unique;
    }

    void walk(const std::vector<Logical>& vertices, uint8_t strip_count, uint8_t shader_count, Lod& lod) const {
        auto material_of = [&](int k) {
            const int32_t src = s32_at(cls_, at_ + 0x10 + 4 * k);
            // A.8: Wrench divides without checking; a careful reader must.
            if (src < 0 || src % kAdGifSize != 0 || static_cast<uint64_t>(src) / kAdGifSize >= header_.texture_count)
                fail(Errc::out_of_range, at_ + 0x10 + 4 * k,
                     fmt::format("ad_gif_src {} is not a record of the {}-entry ad-gif table", src, header_.texture_count));
            return src / static_cast<int>(kAdGifSize);
        };
        int material = material_of(0);
        int blocks = 1;
        uint32_t cursor = kAdGifSlots;
        size_t next_strip = 0, next_vertex = 0;
        const size_t first_strip = lod.strips.size();
        bool open = false;
        while (next_strip < strip_count || next_vertex < vertices.size()) {
            const uint64_t strip_at = at_ + kStripsAt + 4 * next_strip;
            if (next_strip < strip_count && u8_at(cls_, strip_at + 2) == cursor) {
                lod.strips.push_back({material, u8_at(cls_, strip_at + 3) != 0, {}});
                ++next_strip;
                open = true;
                cursor += kStripTagSlots;
            } else if (next_vertex < vertices.size() && vertices[next_vertex].slot == cursor) {
                if (!open) fail(Errc::bad_value, at_, fmt::format("a vertex at GS slot {} comes before any strip tag", cursor));
                lod.strips.back().vertices.push_back(vertices[next_vertex++].vertex);
                cursor += kVertexSlots;
            } else if (blocks < kMaxBlocksPerPacket && s32_at(cls_, at_ + 4 * (blocks - 1)) == static_cast<int32_t>(cursor)) {
                material = material_of(blocks);
                ++blocks;
                cursor += kAdGifSlots;
            } else {
                fail(Errc::bad_value, at_, fmt::format("GS walk: nothing is placed at slot {}", cursor));
            }
        }
        // A.8 declared counts: each strip's vertex_count is its decoded length,
        // and shader_count the number of ad-gif blocks placed.
        for (size_t s = 0; s < strip_count; ++s) {
            const uint8_t declared = u8_at(cls_, at_ + kStripsAt + 4 * s);
            const size_t decoded = lod.strips[first_strip + s].vertices.size();
            if (declared != decoded)
                fail(Errc::size_mismatch, at_ + kStripsAt + 4 * s,
                     fmt::format("strip {} declares {} vertices, the walk gives {}", s, declared, decoded));
        }
        if (shader_count != blocks)
            fail(Errc::size_mismatch, header_at_ + 4, fmt::format("shader_count {} but {} ad-gif blocks placed", shader_count, blocks));
    }

    ByteSpan cls_;
    const Header& header_;
    uint64_t at_, header_at_;
};

}  // namespace

int Lod::vertices() const {
    int n = 0;
    for (const Strip& s : strips) n += static_cast<int>(s.vertices.size());
    return n;
}

int Lod::triangles() const {
    int n = 0;
    for (const Strip& s : strips) n += std::max(0, static_cast<int>(s.vertices.size()) - 2);
    return n;
}

Result<TieClass> read_tie_class(ByteSpan range) {
    return capture([&] {
        TieClass cls;
        cls.header = read_header(range);
        const Header& h = cls.header;
        cls.end = static_cast<uint64_t>(h.ad_gif_ofs) + kAdGifSize * h.texture_count;
        std::set<int> materials;
        for (int i = 0; i < kLods; ++i) {
            Lod& lod = cls.lods[i];
            lod.declared = h.lods[i];
            lod.packets = h.packet_count[i];
            if (h.packets[i] < 0) fail(Errc::out_of_range, 4 * i, "negative packet table offset");
            const uint64_t table = static_cast<uint64_t>(h.packets[i]);
            require(range, table, kPacketHeaderSize * lod.packets, "LOD packet table");
            cls.end = std::max(cls.end, table + kPacketHeaderSize * lod.packets);
            for (int j = 0; j < lod.packets; ++j) {
                const uint64_t header_at = table + kPacketHeaderSize * j;
                const int32_t data = s32_at(range, header_at);
                if (data < 0) fail(Errc::out_of_range, header_at, "negative packet data offset");
                PacketReader packet(range, h, table + static_cast<uint64_t>(data), header_at);
                cls.end = std::max(cls.end, packet.read(lod));
            }
            for (const Strip& s : lod.strips) materials.insert(s.material);
            const std::array<int, 3> decoded = {lod.vertices(), lod.triangles(), static_cast<int>(lod.strips.size())};
            for (int k = 0; k < 3; ++k)
                if (decoded[k] != lod.declared[k]) {
                    static constexpr const char* kWhat[] = {"vertices", "triangles", "strips"};
                    cls.notes.push_back(fmt::format("LOD {} declares {} {}, decodes {}", i, lod.declared[k], kWhat[k], decoded[k]));
                }
        }
        cls.materials.assign(materials.begin(), materials.end());
        return cls;
    });
}

}  // namespace gcfs::formats::tie
