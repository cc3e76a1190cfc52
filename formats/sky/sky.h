// The level core's sky block (formats.md §8.2): SkyHeader, texture defs,
// GC shell headers and their cluster headers. Parsed to a summary, with
// every declared range checked against the block.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/common/error.h"

namespace gcfs::formats {

constexpr uint64_t kSkyHeaderSize = 0x40;
constexpr uint64_t kSkyTextureDefSize = 16;
constexpr uint64_t kSkyClusterHeaderSize = 0x20;
constexpr uint64_t kSkySpriteSize = 0x20;
constexpr int kMaxSkyShells = 8;

struct SkyHeader {
    std::array<uint8_t, 4> rgba{};
    int16_t clear_screen = 0, shell_count = 0, sprite_count = 0, maximum_sprite_count = 0;
    int16_t texture_count = 0, fx_count = 0;
    int32_t texture_defs = 0, texture_data = 0, fx_list = 0, sprites = 0;
    std::array<int32_t, kMaxSkyShells> shells{};
};

struct SkyTextureDef {
    int32_t palette_offset = 0, texture_offset = 0, width = 0, height = 0;  // offsets from texture_data
};

struct SkyCluster {
    int32_t data = 0;  // from the block start
    int16_t vertex_count = 0, tri_count = 0, vertex_offset = 0, st_offset = 0, tri_offset = 0, data_size = 0;
};

struct SkyShell {
    int32_t cluster_count = 0;
    int32_t flags = 0;  // bit 0 set = untextured (as Wrench reads it)
    std::vector<SkyCluster> clusters;
    uint64_t vertices() const;   // over its clusters
    uint64_t triangles() const;
};

struct Sky {
    SkyHeader header;
    std::vector<SkyTextureDef> textures;
    std::vector<SkyShell> shells;
    uint64_t vertices() const;
    uint64_t triangles() const;
};

// Checks: shell_count in [0, 8], sprite_count <= maximum_sprite_count, the
// defs, fx list, sprite array, each texture's texels and 256-entry palette,
// each shell and cluster header, and each cluster's vertex (8 B), texcoord
// (4 B) and face (4 B) arrays inside its data_size and the block.
Result<Sky> parse_sky(ByteSpan block);

// What a writer lays out: §8.2 vertices (s16 x, y, z, alpha), texcoords
// (s16 s, t) and faces (u8 i0, i1, i2, texture) per cluster.
struct SkyClusterContent {
    std::array<float, 4> bsphere{};  // centre and radius in sky units (B.3); zero where a writer leaves it
    std::vector<std::array<int16_t, 4>> vertices;
    std::vector<std::array<int16_t, 2>> texcoords;  // one per vertex
    std::vector<std::array<uint8_t, 4>> faces;
};
struct SkyTextureContent {
    int32_t width = 0, height = 0;
    Bytes texels;                    // width × height, 8-bit indexed
    std::array<uint32_t, 256> palette{};
};
struct SkyContent {
    std::array<uint8_t, 4> rgba{};
    int16_t clear_screen = 0;
    int16_t maximum_sprite_count = 0;
    std::vector<uint8_t> fx;
    std::vector<SkyTextureContent> textures;
    std::vector<std::vector<SkyClusterContent>> shells;  // at most 8
    std::vector<int32_t> shell_flags;                    // per shell, bit 0 = untextured (B.3); missing = 0
};

// The GC layout as Wrench writes it: header, fx list, texture defs, palettes
// and texels, sprites, then each shell as a 0x10-byte header (s32
// cluster_count, s32 flags), its cluster headers at shell + 0x10 (where
// Wrench reads them; formats.md gives the header but not its place) and the
// clusters' data.
Bytes write_sky(const SkyContent& sky);

}  // namespace gcfs::formats
