#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "formats/shrub/shrub.h"
#include "formats/vif/vif.h"

namespace gcfs::formats::shrub {
namespace {

constexpr float kMaxScale = 65536.0f;  // keeps positions inside the OBJ columns (formats/export/obj.h); ours
constexpr uint32_t kGsPacketLimit = 168, kVuInputLimit = 118;  // §1.7 packet size limits

Header read_header(ByteSpan c) {
    require(c, 0, kHeaderSize, "shrub class header");
    Header h;
    for (int i = 0; i < 4; ++i) h.bounding_sphere[i] = f32_at(c, 4 * i);
    h.mip_distance = f32_at(c, 0x10);
    h.billboard_offset = s32_at(c, 0x1c);
    h.scale = f32_at(c, 0x20);
    h.o_class = s16_at(c, 0x24);
    h.packet_count = s16_at(c, 0x28);
    h.normals_offset = s32_at(c, 0x2c);
    if (!(std::isfinite(h.scale) && h.scale > 0 && h.scale <= kMaxScale))
        fail(Errc::bad_value, 0x20, fmt::format("scale {} is not in (0, {}]", h.scale, kMaxScale));
    if (h.packet_count < 0) fail(Errc::bad_value, 0x28, fmt::format("negative packet_count {}", h.packet_count));
    return h;
}

struct GifTag {
    uint64_t at;
    uint32_t nloop;
    bool eop;
    uint32_t type;
    int32_t gs;
};

struct TextureChange {
    int32_t gs;
    int slot;
    bool clamp_s, clamp_t;
};

struct PacketVertex {
    Vertex vertex;
    int32_t gs;
    bool stop;
};

class PacketReader {
public:
    PacketReader(ByteSpan cls, uint64_t at, uint64_t size) : cls_(cls), at_(at), list_(slice(cls, at, size, "shrub packet")) {}

    // Appends the packet's primitives; `texture` carries across packets (§1.7).
    void read(ShrubClass& out, TextureChange& texture) {
        auto walked = vif::walk(list_);
        if (!walked.ok()) fail(walked.error().code, at_ + walked.error().offset, "packet VIF list: " + walked.error().message);
        std::vector<vif::Packet> unpacks;
        for (const vif::Packet& p : *walked)
            if (p.code.is_unpack()) unpacks.push_back(p);
        if (unpacks.size() != 3)  // §1.4 reader requirement
            fail(Errc::bad_value, at_, fmt::format("{} UNPACKs in a shrub packet, not 3", unpacks.size()));
        const ByteSpan head = unpacks[0].payload;
        require(head, 0, 16, "shrub packet header", at_);
        const int32_t t = s32_at(head, 0), g = s32_at(head, 4), v = s32_at(head, 8), vo = s32_at(head, 12);
        const uint64_t head_at = at_ + unpacks[0].offset + 4;
        if (t < 0 || g < 0 || v < 1 || v > 256 || int64_t{vo} != 1 + int64_t{g} + 4 * int64_t{t})  // §2 items 8-9 (64-bit: counts are untrusted)
            fail(Errc::bad_value, head_at,
                 fmt::format("packet header textures {} gif tags {} vertices {} vertex_offset {}: needs vertex_offset = 1 + G + 4T, "
                             "1 <= V <= 256", t, g, v, vo));
        expect_unpack(unpacks[0], vif::Format::V4_32, vo, 0);
        expect_unpack(unpacks[1], vif::Format::V4_16, v, vo);
        expect_unpack(unpacks[2], vif::Format::V4_16, v, vo + v);
        if (list_.size() != 0x20 + 16ull * (vo + v))  // §2 item 6
            fail(Errc::size_mismatch, at_, fmt::format("packet is {} bytes; its counts make it {}", list_.size(), 0x20 + 16 * (vo + v)));

        const std::vector<GifTag> tags = gif_tags(head, head_at, g);
        const std::vector<TextureChange> textures = texture_changes(head, head_at, g, t);
        const std::vector<PacketVertex> vertices = packet_vertices(unpacks[1], unpacks[2], v);
        const int real = walk(tags, textures, vertices, out, texture);
        if (g + 5 * t + 3 * real > static_cast<int>(kGsPacketLimit) || 1 + g + 4 * t + 2 * real > static_cast<int>(kVuInputLimit))
            fail(Errc::too_large, at_, fmt::format("packet of {} tags, {} textures, {} vertices exceeds the §1.7 limits", g, t, real));
        if (v != std::max(kMinStoredVertices, real))  // §2 item 10
            fail(Errc::size_mismatch, head_at + 8, fmt::format("vertex_count {} for {} drawn vertices (padding makes max(6, R))", v, real));
        out.stored_vertices += v;
        out.gif_tags += g;
        out.texture_changes += t;
    }

private:
    void expect_unpack(const vif::Packet& p, vif::Format format, int32_t count, int32_t addr) const {
        if (p.code.format() != format || static_cast<int32_t>(p.code.count()) != count || static_cast<int32_t>(p.code.addr()) != addr)
            fail(Errc::bad_value, at_ + p.offset,
                 fmt::format("UNPACK 0x{:08x} should be format 0x{:x}, {} vectors at address {}", p.code.raw,
                             static_cast<int>(format), count, addr));
    }

    std::vector<GifTag> gif_tags(ByteSpan head, uint64_t head_at, int32_t g) const {
        std::vector<GifTag> tags;
        require(head, 16, 16ull * g, "GIF tags", head_at);
        for (int32_t i = 0; i < g; ++i) {
            const uint64_t o = 16 + 16ull * i;
            const uint64_t low = u32_at(head, o) | static_cast<uint64_t>(u32_at(head, o + 4)) << 32;
            const GifTag tag{head_at + o, static_cast<uint32_t>(low & 0x7fff), ((low >> 15) & 1) != 0,
                             static_cast<uint32_t>((low >> 47) & 7), s32_at(head, o + 12)};
            // §2 item 11: PRE 1, FLG 0 (PACKED), NREG 3, REGS ST/RGBAQ/XYZF2, EOP on the last tag only.
            const bool pre = (low >> 46) & 1;
            const uint32_t flg = (low >> 58) & 3, nreg = static_cast<uint32_t>(low >> 60);
            if (!pre || flg != 0 || nreg != 3 || u32_at(head, o + 8) != kGifRegs || tag.eop != (i == g - 1))
                fail(Errc::bad_value, tag.at, fmt::format("GIF tag {} is not a packed ST/RGBAQ/XYZF2 tag with EOP on the last", i));
            if (tag.type != 3 && tag.type != 4)  // §1.5: lists and strips only
                fail(Errc::bad_value, tag.at, fmt::format("GIF tag {} draws primitive type {}, not a triangle list or strip", i, tag.type));
            if ((tag.type == 3 && tag.nloop % 3 != 0) || (tag.type == 4 && tag.nloop < 3))
                fail(Errc::bad_value, tag.at, fmt::format("GIF tag {}: NLOOP {} cannot be a {}", i, tag.nloop, tag.type == 3 ? "list" : "strip"));
            tags.push_back(tag);
        }
        return tags;
    }

    std::vector<TextureChange> texture_changes(ByteSpan head, uint64_t head_at, int32_t g, int32_t t) const {
        std::vector<TextureChange> out;
        const uint64_t base = 16 + 16ull * g;
        require(head, base, 64ull * t, "texture records", head_at);
        for (int32_t i = 0; i < t; ++i) {
            const uint64_t o = base + 64ull * i;
            for (size_t r = 0; r < kAdRegisters.size(); ++r)  // §2 item 15
                if (u8_at(head, o + 16 * r + 8) != kAdRegisters[r])
                    fail(Errc::bad_value, head_at + o + 16 * r + 8,
                         fmt::format("texture record {} has register 0x{:02x} where 0x{:02x} belongs", i, u8_at(head, o + 16 * r + 8), kAdRegisters[r]));
            const int32_t tex0 = s32_at(head, o + 0x30), miptbp1 = s32_at(head, o + 0x20);
            if (tex0 < 0 || tex0 > 15 || tex0 != miptbp1)
                fail(Errc::out_of_range, head_at + o + 0x30,
                     fmt::format("texture record {}: TEX0 slot {} (MIPTBP1 {}) is not one class slot 0-15", i, tex0, miptbp1));
            out.push_back({s32_at(head, o + 0x0c), tex0, s32_at(head, o + 0x10) != 0, s32_at(head, o + 0x14) != 0});
        }
        return out;
    }

    std::vector<PacketVertex> packet_vertices(const vif::Packet& part1, const vif::Packet& part2, int32_t v) const {
        std::vector<PacketVertex> out;
        for (int32_t i = 0; i < v; ++i) {
            const ByteSpan a = part1.payload, b = part2.payload;
            const uint16_t n = u16_at(b, 8ull * i + 6);
            if ((n & 0x7fff) >= kNormalCount)
                fail(Errc::out_of_range, at_ + part2.offset + 4 + 8ull * i + 6, fmt::format("vertex {} names normal {} of 24", i, n & 0x7fff));
            out.push_back({{s16_at(a, 8ull * i), s16_at(a, 8ull * i + 2), s16_at(a, 8ull * i + 4), s16_at(b, 8ull * i),
                            s16_at(b, 8ull * i + 2), s16_at(b, 8ull * i + 4), static_cast<uint8_t>(n & 0x7fff)},
                           s16_at(a, 8ull * i + 6),
                           (n & 0x8000) != 0});
            // §2 item 13: the stop flag sits on vertex V − 4 and nowhere else.
            if (out.back().stop != (i == v - 4))
                fail(Errc::bad_value, at_ + part2.offset + 4 + 8ull * i + 6, fmt::format("stop flag on vertex {} of {} (it belongs on V - 4)", i, v));
        }
        return out;
    }

    static void open_primitive(ShrubClass& out, bool strip, const TextureChange& texture) {
        out.primitives.push_back({strip, texture.slot, texture.clamp_s, texture.clamp_t, {}});
    }

    // §1.7: rebuilds the draw order from the GS offsets; returns the real vertex count.
    int walk(const std::vector<GifTag>& tags, const std::vector<TextureChange>& textures, const std::vector<PacketVertex>& vertices,
             ShrubClass& out, TextureChange& texture) const {
        int32_t g = 0;
        size_t tag = 0, tex = 0, v = 0;
        bool open = false, strip = true;
        std::vector<uint32_t> drawn(tags.size(), 0);  // vertices drawn under each tag
        while (tag < tags.size() || tex < textures.size() || v < vertices.size()) {
            if (tag < tags.size() && tags[tag].gs == g) {
                strip = tags[tag].type == 4;
                open_primitive(out, strip, texture);
                open = true;
                ++tag;
                g += kGifTagSlots;
            } else if (tex < textures.size() && textures[tex].gs == g) {
                texture = textures[tex++];
                open = false;  // the next vertex starts a new primitive
                g += kTextureSlots;
            } else if (v < vertices.size() && vertices[v].gs == g) {
                if (tag == 0) fail(Errc::bad_value, at_, fmt::format("vertex {} at GS offset {} comes before any GIF tag", v, g));
                if (!open) open_primitive(out, strip, texture);
                open = true;
                out.primitives.back().vertices.push_back(vertices[v++].vertex);
                ++drawn[tag - 1];
                g += kVertexSlots;
            } else if (v > 0 && v < vertices.size() && vertices[v].gs == g - static_cast<int32_t>(kVertexSlots)) {
                break;  // padding: the rest repeat the last vertex
            } else {
                fail(Errc::bad_value, at_, fmt::format("GS-offset walk: nothing is placed at offset {}", g));
            }
        }
        const int real = static_cast<int>(v);
        for (; v < vertices.size(); ++v)
            if (!(vertices[v].vertex == vertices[real - 1].vertex) || vertices[v].gs != vertices[real - 1].gs)
                fail(Errc::bad_value, at_, fmt::format("padding vertex {} is not a copy of vertex {}", v, real - 1));
        if (tag != tags.size() || tex != textures.size())
            fail(Errc::bad_value, at_, fmt::format("the walk ended with {} GIF tags and {} texture records unplaced", tags.size() - tag,
                                                   textures.size() - tex));
        for (size_t i = 0; i < tags.size(); ++i)  // §2 item 10: NLOOP counts what the tag draws
            if (tags[i].nloop != drawn[i])
                fail(Errc::size_mismatch, tags[i].at, fmt::format("GIF tag {} declares NLOOP {}, draws {} vertices", i, tags[i].nloop, drawn[i]));
        return real;
    }

    ByteSpan cls_;
    uint64_t at_;
    ByteSpan list_;
};

}  // namespace

Result<ShrubClass> read_shrub_class(ByteSpan range) {
    return capture([&] {
        ShrubClass cls;
        cls.header = read_header(range);
        const Header& h = cls.header;
        const uint64_t table_end = kHeaderSize + kPacketEntrySize * static_cast<uint64_t>(h.packet_count);
        require(range, kHeaderSize, table_end - kHeaderSize, "packet table");
        uint64_t packets_end = table_end;
        TextureChange texture{0, -1, false, false};
        for (int i = 0; i < h.packet_count; ++i) {
            cls.packet_starts.push_back(cls.primitives.size());
            const uint64_t entry = kHeaderSize + kPacketEntrySize * i;
            const int32_t offset = s32_at(range, entry), size = s32_at(range, entry + 4);
            if (offset < 0 || static_cast<uint64_t>(offset) < table_end || size <= 0)  // §2 item 5
                fail(Errc::out_of_range, entry, fmt::format("packet {} at 0x{:x}, {} bytes: overlaps the table or is empty", i, offset, size));
            if (static_cast<uint64_t>(offset) + static_cast<uint64_t>(size) > range.size())  // §2 item 6
                fail(Errc::out_of_range, entry + 4,
                     fmt::format("packet {} of {} bytes at 0x{:x} runs past the class's {} bytes", i, size, offset, range.size()));
            PacketReader(range, static_cast<uint64_t>(offset), static_cast<uint64_t>(size)).read(cls, texture);
            packets_end = std::max(packets_end, static_cast<uint64_t>(offset) + static_cast<uint64_t>(size));
        }
        // §2 items 16-17: billboard after the packets, normals after that, both 16-aligned.
        if (h.normals_offset < 0 || h.normals_offset % 16 || static_cast<uint64_t>(h.normals_offset) < packets_end)
            fail(Errc::out_of_range, 0x2c, fmt::format("normals_offset 0x{:x} is not 16-aligned after the packets (end 0x{:x})",
                                                       h.normals_offset, packets_end));
        if (h.billboard_offset != 0) {
            const auto b = static_cast<uint64_t>(h.billboard_offset);
            if (h.billboard_offset < 0 || b % 16 || b < packets_end || b + kBillboardSize > static_cast<uint64_t>(h.normals_offset))
                fail(Errc::out_of_range, 0x1c, fmt::format("billboard_offset 0x{:x} is not 16-aligned between the packets and the normals",
                                                           h.billboard_offset));
            require(range, b, kBillboardSize, "billboard");
            Billboard bb{f32_at(range, b), f32_at(range, b + 4), f32_at(range, b + 8), f32_at(range, b + 12), {}};
            std::copy_n(range.begin() + static_cast<int64_t>(b + 16), bb.ad.size(), bb.ad.begin());
            cls.billboard = bb;
        }
        const auto n = static_cast<uint64_t>(h.normals_offset);
        require(range, n, kNormalTableSize, "normal table");
        for (uint64_t i = 0; i < kNormalCount; ++i)
            cls.normals[i] = {s16_at(range, n + 8 * i), s16_at(range, n + 8 * i + 2), s16_at(range, n + 8 * i + 4)};
        cls.end = n + kNormalTableSize;
        std::set<int> slots;
        for (const Primitive& p : cls.primitives)
            if (p.texture >= 0) slots.insert(p.texture);
        cls.textures.assign(slots.begin(), slots.end());
        return cls;
    });
}

}  // namespace gcfs::formats::shrub
