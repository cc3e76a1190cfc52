// The occlusion grid (formats.md §8.1) and the sky (§8.2): the seed's own
// level-0 bytes read as Wrench's structures, round trips, and damage.
#include <doctest/doctest.h>

#include "formats/occlusion/occlusion.h"
#include "formats/sky/sky.h"
#include "mkdisc/random.h"
#include "mkdisc/sky.h"

namespace test_occlusion_sky {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats;

namespace {

// The seed logged level 0's occlusion block as "a u16 array, per-cell
// records, meaning unknown": 5152 0 12 23 14 19 24 … (§11 row 13). Read as
// §8.1 it is s32 masks_offset 5152, z_coord 12, z_count 23, z nodes at
// 14×4, 19×4, 24×4: 20 bytes apart, i.e. z nodes of 8 y slots each. The rest
// of this block is built to make those values a complete grid: three z nodes
// with one y node each, naming masks 0..2.
Bytes seed_occlusion_block() {
    ByteWriter w;
    w.s32(5152);
    w.u16(12);
    w.u16(23);
    const uint16_t z_nodes[3] = {14, 19, 24};
    for (int i = 0; i < 23; ++i) w.u16(i < 3 ? z_nodes[i] : 0);
    const uint16_t first_y_node = 29;  // right after the third z node
    w.pad_to(4);  // §8.1: nodes are 4-byte aligned
    for (int i = 0; i < 3; ++i) {
        REQUIRE(w.size() == 4ull * z_nodes[i]);
        w.u16(7);  // y_coord
        w.u16(8);
        for (int y = 0; y < 8; ++y) w.u16(y == 0 ? static_cast<uint16_t>(first_y_node + 2 * i) : 0);
    }
    for (int i = 0; i < 3; ++i) {
        REQUIRE(w.size() == 4ull * (first_y_node + 2 * i));
        w.u16(5);  // x_coord
        w.u16(2);
        w.u16(static_cast<uint16_t>(i));
        w.u16(0xFFFF);  // §8.1: no mask
    }
    while (w.size() < 5152) w.u8(0);
    w.zeros(3 * kOcclusionMaskSize);
    return w.bytes();
}

SkyContent small_sky() {
    mkdisc::Random random(5);
    return mkdisc::make_sky(random);
}

Errc sky_error(const Bytes& block) {
    auto parsed = parse_sky(block);
    REQUIRE_FALSE(parsed.ok());
    return parsed.error().code;
}

}  // namespace

TEST_CASE("the seed's 'u16 array' occlusion dump is a z/y/x grid (seed wrong reading, §11 row 13)") {
    auto grid = parse_occlusion(seed_occlusion_block());
    REQUIRE(grid.ok());
    CHECK(grid->masks_offset == 5152);
    CHECK(grid->z_coord == 12);
    CHECK(grid->z_count == 23);
    CHECK(grid->z_nodes == 3);
    CHECK(grid->y_nodes == 3);
    CHECK(grid->octants == 3);
    CHECK(grid->empty_octants == 3);
    CHECK(grid->masks == 3);
}

TEST_CASE("a bit shown and a bit cleared in every mask of a grid: each mask changes in those two bits alone (formats.md 8.1)") {
    Bytes grid = seed_occlusion_block();
    const auto summary = parse_occlusion(grid);
    REQUIRE(summary.ok());
    REQUIRE(summary->masks == 3);
    for (uint64_t m = 0; m < summary->masks; ++m) grid[summary->masks_offset + m * 128 + 1] = 0x40;  // bit 14 of each
    const auto out = with_bits_everywhere(grid, {9}, {14});
    REQUIRE(out.ok());
    for (size_t i = 0; i < grid.size(); ++i) {
        const bool in_mask = i >= static_cast<size_t>(summary->masks_offset) && (i - summary->masks_offset) % 128 == 1;
        CAPTURE(i);
        CHECK((*out)[i] == (in_mask ? 0x02 : grid[i]));  // bit 9: byte 1, bit 1 (wrenchvis's packing); bit 14 cleared
    }
    CHECK(with_bits_everywhere(grid, {1024}, {}).error().code == Errc::out_of_range);
}

TEST_CASE("a damaged occlusion grid is reported") {
    const Bytes good = seed_occlusion_block();
    SUBCASE("the masks do not fit the block") {
        const Bytes cut(good.begin(), good.end() - 1);
        CHECK(parse_occlusion(cut).error().code == Errc::out_of_range);
    }
    SUBCASE("a z node offset points into the masks") {
        Bytes bad = good;
        bad[8] = 0xff; bad[9] = 0x07;  // 0x7ff × 4 = 8188, past masks_offset 5152
        CHECK(parse_occlusion(bad).error().code == Errc::out_of_range);
    }
    SUBCASE("masks_offset outside the block") {
        Bytes bad = good;
        bad[2] = 0x01;
        CHECK(parse_occlusion(bad).error().code == Errc::out_of_range);
    }
}

TEST_CASE("the seed's sky bytes are a SkyHeader with 6 shells and 5 textures (§8.2, §11 row 14)") {
    // 00 00 00 00 | 00 00 | 06 00 | 00 00 | 00 00 | 05 00 | 00 00 | 40 00 00 00 | C0 00 00 00 | 40 …
    ByteWriter w;
    w.u32(0);
    w.s16(0); w.s16(6); w.s16(0); w.s16(0); w.s16(5); w.s16(0);
    w.s32(0x40); w.s32(0xC0); w.s32(0x40); w.s32(0x40);
    // Shells: six empty GC shell headers after the texture data.
    const uint64_t shells_at = 0xC0 + 5 * 0x400;
    for (int i = 0; i < 8; ++i) w.s32(i < 6 ? static_cast<int32_t>(shells_at + 0x10 * i) : 0);
    // Five defs at 0x40, each a 1×1 texture with its own palette.
    for (int i = 0; i < 5; ++i) {
        w.s32(0x400 * i); w.s32(0x400 * i); w.s32(1); w.s32(1);
    }
    while (w.size() < shells_at) w.u8(0);
    w.zeros(6 * 0x10);
    auto sky = parse_sky(w.bytes());
    REQUIRE(sky.ok());
    CHECK(sky->header.shell_count == 6);
    CHECK(sky->header.texture_count == 5);
    CHECK(sky->header.texture_defs == 0x40);
    CHECK(sky->header.texture_data == 0xC0);
    CHECK(sky->textures.size() == 5);  // 5 × 16 B of defs fit in 0x40–0x90
    CHECK(sky->shells.size() == 6);
}

TEST_CASE("a sky written by the builder reads back with its counts") {
    const SkyContent content = small_sky();
    auto sky = parse_sky(write_sky(content));
    REQUIRE(sky.ok());
    CHECK(sky->header.shell_count == static_cast<int16_t>(content.shells.size()));
    CHECK(sky->textures.size() == content.textures.size());
    CHECK(sky->header.fx_count == static_cast<int16_t>(content.fx.size()));
    uint64_t vertices = 0, faces = 0;
    for (const auto& shell : content.shells)
        for (const auto& c : shell) {
            vertices += c.vertices.size();
            faces += c.faces.size();
        }
    CHECK(sky->vertices() == vertices);
    CHECK(sky->triangles() == faces);
    for (size_t t = 0; t < content.textures.size(); ++t) {
        CHECK(sky->textures[t].width == content.textures[t].width);
        CHECK(sky->textures[t].height == content.textures[t].height);
    }
}

TEST_CASE("a damaged sky is reported") {
    const Bytes good = write_sky(small_sky());
    SUBCASE("counts the header forbids") {
        struct Poke {
            const char* what;
            uint64_t at;
            uint8_t value;
        };
        for (const Poke& p : {Poke{"nine shells", 0x06, 9}, Poke{"more sprites than the maximum", 0x08, 5}}) {
            CAPTURE(p.what);
            Bytes bad = good;
            bad[p.at] = p.value;
            CHECK(sky_error(bad) == Errc::bad_value);
        }
    }
    SUBCASE("a texture's texels pass the block end") {
        Bytes bad = good;
        const uint64_t def = u32_at(bad, 0x10);
        bad[def + 8] = 0xff; bad[def + 9] = 0x7f;  // width 32767
        CHECK(sky_error(bad) == Errc::out_of_range);
    }
    SUBCASE("a cluster's faces pass its declared data_size") {
        Bytes bad = good;
        const uint64_t cluster = u32_at(bad, 0x20) + 0x10;
        bad[cluster + 0x16] += 4;  // four more triangles: past the data and its padding to 0x10 (B.3)
        CHECK(sky_error(bad) == Errc::out_of_range);
    }
    SUBCASE("a face names a vertex past its cluster") {
        Bytes bad = good;
        const uint64_t cluster = u32_at(bad, 0x20) + 0x10;
        const uint64_t data = u32_at(bad, cluster + 0x10), tris = u16_at(bad, cluster + 0x1C);
        bad[data + tris] = static_cast<uint8_t>(u16_at(bad, cluster + 0x14));
        CHECK(sky_error(bad) == Errc::out_of_range);
    }
}

}  // namespace test_occlusion_sky
