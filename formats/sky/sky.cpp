// Sky reader and writer: formats.md §8.2.
#include "formats/sky/sky.h"

#include <fmt/format.h>

#include <bit>
#include <stdexcept>

namespace gcfs::formats {
namespace {

// [offset, offset + length) must lie in the block; `what` and `named_at` say
// which field declared it.
void within(ByteSpan block, int64_t offset, uint64_t length, const std::string& what, uint64_t named_at) {
    if (offset < 0 || static_cast<uint64_t>(offset) > block.size() || length > block.size() - offset)
        fail(Errc::out_of_range, named_at,
             fmt::format("{} [0x{:x}, +{}) outside the {}-byte sky block", what, offset, length, block.size()));
}

uint64_t count(int64_t n, const char* what, uint64_t at) {
    if (n < 0) fail(Errc::bad_value, at, fmt::format("{} is {}", what, n));
    return static_cast<uint64_t>(n);
}

SkyHeader read_header(ByteSpan b) {
    SkyHeader h;
    for (int i = 0; i < 4; ++i) h.rgba[i] = u8_at(b, i);
    h.clear_screen = s16_at(b, 0x04);
    h.shell_count = s16_at(b, 0x06);
    h.sprite_count = s16_at(b, 0x08);
    h.maximum_sprite_count = s16_at(b, 0x0A);
    h.texture_count = s16_at(b, 0x0C);
    h.fx_count = s16_at(b, 0x0E);
    h.texture_defs = s32_at(b, 0x10);
    h.texture_data = s32_at(b, 0x14);
    h.fx_list = s32_at(b, 0x18);
    h.sprites = s32_at(b, 0x1C);
    for (int i = 0; i < kMaxSkyShells; ++i) h.shells[i] = s32_at(b, 0x20 + 4ull * i);
    return h;
}

SkyShell read_shell(ByteSpan b, int index, int32_t at) {
    within(b, at, 0x10, fmt::format("shell {} header", index), 0x20 + 4ull * index);
    SkyShell shell;
    shell.cluster_count = s32_at(b, at);
    shell.flags = s32_at(b, at + 4);
    const uint64_t clusters = count(shell.cluster_count, "cluster count", at);
    within(b, at + 0x10, clusters * kSkyClusterHeaderSize, fmt::format("shell {} cluster headers", index), at);
    for (uint64_t i = 0; i < clusters; ++i) {
        const uint64_t h = at + 0x10 + i * kSkyClusterHeaderSize;
        SkyCluster c;
        c.data = s32_at(b, h + 0x10);
        c.vertex_count = s16_at(b, h + 0x14);
        c.tri_count = s16_at(b, h + 0x16);
        c.vertex_offset = s16_at(b, h + 0x18);
        c.st_offset = s16_at(b, h + 0x1A);
        c.tri_offset = s16_at(b, h + 0x1C);
        c.data_size = s16_at(b, h + 0x1E);
        const std::string name = fmt::format("shell {} cluster {}", index, i);
        within(b, c.data, count(c.data_size, "cluster data_size", h + 0x1E), name + " data", h + 0x10);
        // The arrays must fit the cluster's own declared data_size.
        const ByteSpan data = b.subspan(c.data, c.data_size);
        const uint64_t vertices = count(c.vertex_count, "cluster vertex_count", h + 0x14);
        within(data, c.vertex_offset, 8 * vertices, name + " vertices", h + 0x18);
        if ((shell.flags & 1) == 0) within(data, c.st_offset, 4 * vertices, name + " texcoords", h + 0x1A);
        within(data, c.tri_offset, 4 * count(c.tri_count, "cluster tri_count", h + 0x16), name + " faces", h + 0x1C);
        for (uint64_t t = 0; t < static_cast<uint64_t>(c.tri_count); ++t)
            for (int k = 0; k < 3; ++k)
                if (u8_at(data, c.tri_offset + 4 * t + k) >= vertices)
                    fail(Errc::out_of_range, c.data + c.tri_offset + 4 * t + k,
                         fmt::format("{} face {} names vertex {} of {}", name, t, u8_at(data, c.tri_offset + 4 * t + k),
                                     vertices));
        shell.clusters.push_back(c);
    }
    return shell;
}

}  // namespace

uint64_t SkyShell::vertices() const {
    uint64_t n = 0;
    for (const auto& c : clusters) n += static_cast<uint64_t>(c.vertex_count);
    return n;
}

uint64_t SkyShell::triangles() const {
    uint64_t n = 0;
    for (const auto& c : clusters) n += static_cast<uint64_t>(c.tri_count);
    return n;
}

uint64_t Sky::vertices() const {
    uint64_t n = 0;
    for (const auto& s : shells) n += s.vertices();
    return n;
}

uint64_t Sky::triangles() const {
    uint64_t n = 0;
    for (const auto& s : shells) n += s.triangles();
    return n;
}

Result<Sky> parse_sky(ByteSpan b) {
    return capture([&] {
        Sky sky;
        require(b, 0, kSkyHeaderSize, "sky header");
        SkyHeader& h = sky.header = read_header(b);
        if (h.shell_count < 0 || h.shell_count > kMaxSkyShells)
            fail(Errc::bad_value, 0x06, fmt::format("{} shells; a sky has at most {}", h.shell_count, kMaxSkyShells));
        if (h.sprite_count < 0 || h.sprite_count > h.maximum_sprite_count)
            fail(Errc::bad_value, 0x08, fmt::format("{} sprites of at most {}", h.sprite_count, h.maximum_sprite_count));
        within(b, h.fx_list, count(h.fx_count, "fx_count", 0x0E), "fx list", 0x18);
        within(b, h.sprites, kSkySpriteSize * count(h.maximum_sprite_count, "maximum_sprite_count", 0x0A), "sprites", 0x1C);
        const uint64_t textures = count(h.texture_count, "texture_count", 0x0C);
        within(b, h.texture_defs, textures * kSkyTextureDefSize, "texture defs", 0x10);
        for (uint64_t i = 0; i < textures; ++i) {
            const uint64_t d = h.texture_defs + i * kSkyTextureDefSize;
            const SkyTextureDef def{s32_at(b, d), s32_at(b, d + 4), s32_at(b, d + 8), s32_at(b, d + 12)};
            const uint64_t texels = count(def.width, "texture width", d + 8) * count(def.height, "texture height", d + 12);
            within(b, int64_t{h.texture_data} + def.texture_offset, texels, fmt::format("texture {} texels", i), d + 4);
            within(b, int64_t{h.texture_data} + def.palette_offset, 256 * 4, fmt::format("texture {} palette", i), d);
            sky.textures.push_back(def);
        }
        for (int i = 0; i < h.shell_count; ++i) sky.shells.push_back(read_shell(b, i, h.shells[i]));
        return sky;
    });
}

Bytes write_sky(const SkyContent& sky) {
    if (sky.shells.size() > static_cast<size_t>(kMaxSkyShells)) throw std::invalid_argument("more than 8 sky shells");
    ByteWriter out;
    out.zeros(kSkyHeaderSize);
    out.pad_to(0x10);
    const uint64_t fx_list = out.size();
    for (uint8_t fx : sky.fx) out.u8(fx);
    out.pad_to(0x10);
    const uint64_t defs = out.size();
    out.zeros(kSkyTextureDefSize * sky.textures.size());
    out.pad_to(0x40);
    const uint64_t data = out.size();
    for (size_t i = 0; i < sky.textures.size(); ++i) {
        const SkyTextureContent& t = sky.textures[i];
        out.pad_to(0x40);
        const uint64_t palette = out.size() - data;
        for (uint32_t colour : t.palette) out.u32(colour);
        out.pad_to(0x40);
        const uint64_t texels = out.size() - data;
        out.append(t.texels);
        const uint64_t d = defs + kSkyTextureDefSize * i;
        out.patch_u32(d, static_cast<uint32_t>(palette));
        out.patch_u32(d + 4, static_cast<uint32_t>(texels));
        out.patch_u32(d + 8, static_cast<uint32_t>(t.width));
        out.patch_u32(d + 12, static_cast<uint32_t>(t.height));
    }
    out.pad_to(0x40);
    const uint64_t sprites = out.size();
    out.zeros(kSkySpriteSize * static_cast<uint64_t>(sky.maximum_sprite_count));

    std::array<uint32_t, kMaxSkyShells> shells{};
    for (size_t s = 0; s < sky.shells.size(); ++s) {
        out.pad_to(0x10);
        shells[s] = static_cast<uint32_t>(out.size());
        const auto& clusters = sky.shells[s];
        out.s32(static_cast<int32_t>(clusters.size()));
        out.s32(s < sky.shell_flags.size() ? sky.shell_flags[s] : 0);  // bit 0 set = untextured (B.3)
        out.pad_to(0x10);
        const uint64_t headers = out.size();
        out.zeros(kSkyClusterHeaderSize * clusters.size());
        for (size_t c = 0; c < clusters.size(); ++c) {
            const SkyClusterContent& cl = clusters[c];
            out.pad_to(0x10);
            const uint64_t at = out.size();
            for (const auto& v : cl.vertices) for (int16_t x : v) out.s16(x);
            const uint64_t st = out.size() - at;
            for (const auto& t : cl.texcoords) for (int16_t x : t) out.s16(x);
            const uint64_t tris = out.size() - at;
            for (const auto& f : cl.faces) for (uint8_t x : f) out.u8(x);
            out.pad_to(0x10);  // B.3: data_size includes the cluster's final padding
            const uint64_t size = out.size() - at;
            const uint64_t h = headers + kSkyClusterHeaderSize * c;
            for (int i = 0; i < 4; ++i) out.patch_u32(h + 4ull * i, std::bit_cast<uint32_t>(cl.bsphere[i]));
            out.patch_u32(h + 0x10, static_cast<uint32_t>(at));
            out.patch_u16(h + 0x14, static_cast<uint16_t>(cl.vertices.size()));
            out.patch_u16(h + 0x16, static_cast<uint16_t>(cl.faces.size()));
            out.patch_u16(h + 0x18, 0);
            out.patch_u16(h + 0x1A, static_cast<uint16_t>(st));
            out.patch_u16(h + 0x1C, static_cast<uint16_t>(tris));
            out.patch_u16(h + 0x1E, static_cast<uint16_t>(size));
        }
    }
    out.pad_to(0x10);

    for (int i = 0; i < 4; ++i) out.bytes()[i] = sky.rgba[i];
    out.patch_u16(0x04, static_cast<uint16_t>(sky.clear_screen));
    out.patch_u16(0x06, static_cast<uint16_t>(sky.shells.size()));
    out.patch_u16(0x0A, static_cast<uint16_t>(sky.maximum_sprite_count));
    out.patch_u16(0x0C, static_cast<uint16_t>(sky.textures.size()));
    out.patch_u16(0x0E, static_cast<uint16_t>(sky.fx.size()));
    out.patch_u32(0x10, static_cast<uint32_t>(defs));
    out.patch_u32(0x14, static_cast<uint32_t>(data));
    out.patch_u32(0x18, static_cast<uint32_t>(fx_list));
    out.patch_u32(0x1C, static_cast<uint32_t>(sprites));
    for (int i = 0; i < kMaxSkyShells; ++i) out.patch_u32(0x20 + 4ull * i, shells[i]);
    return out.bytes();
}

}  // namespace gcfs::formats
