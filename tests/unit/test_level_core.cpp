// Level core header and regions (formats.md §6), data lump (§4.1).
#include <doctest/doctest.h>

#include "formats/disc/data_lump.h"
#include "formats/core/level_core.h"

namespace test_level_core {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs::formats;

namespace {
LevelCoreHeader sample() {
    LevelCoreHeader h;
    h.tfrags = 0;
    h.occlusion = 2117888;
    h.sky = 2192576;
    h.collision = 2600000;
    h.textures_base_offset = 3500000;
    h.assets_compressed_size = 9738678;
    h.assets_decompressed_size = 16969296;
    h.moby_classes = {3, 0xC0};
    return h;
}
}  // namespace

TEST_CASE("core header round trips and its sizes sit at 0x88 / 0x8C") {
    ByteWriter w;
    write_level_core_header(w, sample());
    REQUIRE(w.size() == kLevelCoreHeaderSize);
    CHECK(s32_at(w.bytes(), 0x88) == 9738678);
    CHECK(s32_at(w.bytes(), 0x8c) == 16969296);
    auto h = parse_level_core_header(w.bytes());
    REQUIRE(h.ok());
    CHECK(h->sky == 2192576);
    CHECK(h->moby_classes.count == 3);  // (count, offset): count first (§1 ArrayRange)
    CHECK(h->moby_classes.offset == 0xC0);
}

TEST_CASE("class tables are (count, offset) into core_index, not the seed's (offset, count)") {
    ByteWriter idx;
    idx.zeros(0x40);
    for (int i = 0; i < 3; ++i) {
        idx.s32(i == 1 ? 0 : 0x1000 * (i + 1));  // 0 = no model data (§6.3)
        idx.s32(100 + i);
        idx.zeros(24);
    }
    auto right = parse_class_table(idx.bytes(), ArrayRange{3, 0x40}, kClassEntrySize);
    REQUIRE(right.ok());
    CHECK((*right)[0].offset_in_asset_wad == 0x1000);
    CHECK((*right)[1].offset_in_asset_wad == 0);
    CHECK((*right)[2].o_class == 102);
    // The seed's reading swaps the pair: 0x40 entries at offset 3 run off the table.
    auto seed = parse_class_table(idx.bytes(), ArrayRange{0x40, 3}, kClassEntrySize);
    CHECK_FALSE(seed.ok());
}

TEST_CASE("core regions: offsets strictly increase, end at the next boundary") {
    auto regions = core_regions(sample(), block_boundaries(sample(), {4000000}, {}));
    REQUIRE(regions.ok());
    REQUIRE(regions->size() == 5);
    CHECK((*regions)[0].name == "tfrag");
    CHECK((*regions)[0].size == 2117888);
    CHECK((*regions)[1].size == 2192576 - 2117888);
    CHECK((*regions)[4].name == "textures");
    CHECK((*regions)[4].size == 4000000 - 3500000);  // a class offset is a boundary (§6.2)

    LevelCoreHeader disordered = sample();
    disordered.sky = 100;
    CHECK(core_regions(disordered, block_boundaries(disordered, {}, {})).error().code == Errc::bad_value);
    LevelCoreHeader outside = sample();
    outside.textures_base_offset = 17000000;
    CHECK(core_regions(outside, block_boundaries(outside, {}, {})).error().code == Errc::out_of_range);
}

TEST_CASE("core header and class tables reject damage") {
    CHECK(parse_level_core_header(Bytes(0x50, 0)).error().code == Errc::truncated);
    CHECK(parse_class_table(Bytes(0x100, 0), ArrayRange{0x7fffffff, 0}, kClassEntrySize).error().code == Errc::truncated);
    CHECK(parse_class_table(Bytes(0x100, 0), ArrayRange{-1, 0}, kClassEntrySize).error().code == Errc::bad_value);
}

TEST_CASE("data lump header round trips and bounds its sections") {
    DataLumpHeader h;
    h.core_index = {0x80, 0x1000};
    h.core_data = {0x1080, 0x5000};
    h.transition_textures = {-1, 0};
    ByteWriter w;
    write_data_lump_header(w, h);
    REQUIRE(w.size() == kDataLumpHeaderSize);
    auto parsed = parse_data_lump_header(w.bytes(), 0x8000);
    REQUIRE(parsed.ok());
    CHECK(data_lump_sections(*parsed).size() == 2);
    CHECK(parse_data_lump_header(w.bytes(), 0x2000).error().code == Errc::out_of_range);
}

}  // namespace test_level_core
