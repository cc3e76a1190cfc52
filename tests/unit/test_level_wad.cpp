// Level container header (formats.md §3.1): round trip, the seed's unit bug.
#include <doctest/doctest.h>

#include "formats/disc/level_wad.h"

namespace test_level_wad {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs::formats;

namespace {
LevelHeader sample() {
    LevelHeader h;
    h.id = 30;
    h.reverb = 3;
    h.sound_bank = {1, 3};
    h.data = {4, 6484};
    h.gameplay = {6488, 322};
    h.occlusion = {6810, 2};
    return h;
}
}  // namespace

TEST_CASE("level header round trips through writer and reader") {
    ByteWriter w;
    write_level_header(w, sample());
    REQUIRE(w.size() == 0x60);
    auto h = parse_level_header(w.bytes());
    REQUIRE(h.ok());
    CHECK(h->id == 30);
    CHECK(h->data.offset == 4);
    CHECK(h->data.size == 6484);
    CHECK(level_extents(*h).size() == 4);
    CHECK(extent_problems(*h, 6812).empty());
}

TEST_CASE("extent sizes are sectors: the seed's 6,484-byte data.bin was a unit error") {
    const LevelHeader h = sample();
    // The seed read the data extent's size as bytes. The true size is sectors × 2048.
    CHECK(h.data.byte_size() == 13'279'232u);  // the seed's corrected data.bin
    CHECK(h.data.byte_size() / static_cast<uint64_t>(h.data.size) == 2048);
    // Read in bytes, the extents no longer reach the container's end: the
    // tiling check (header sector + extents = file) fails at once.
    const uint64_t file_sectors = 6812;
    CHECK(claimed_sectors(h) == file_sectors);
    uint64_t bytes_misread = kSectorSize;
    for (const auto& e : level_extents(h)) bytes_misread += static_cast<uint64_t>(e.range.size);
    CHECK(bytes_misread != file_sectors * kSectorSize);
}

TEST_CASE("level header rejects damage with typed errors") {
    ByteWriter w;
    write_level_header(w, sample());
    SUBCASE("wrong header size") {
        Bytes b = w.bytes();
        b[0] = 0x61;
        CHECK(parse_level_header(b).error().code == Errc::bad_magic);
    }
    SUBCASE("truncated") {
        Bytes b(w.bytes().begin(), w.bytes().begin() + 0x30);
        CHECK(parse_level_header(b).error().code == Errc::truncated);
    }
    SUBCASE("extent past the container") {
        LevelHeader h = sample();
        h.gameplay.size = 10000;
        const auto problems = extent_problems(h, 6812);
        REQUIRE(problems.size() >= 1);
        CHECK(problems[0].code == Errc::out_of_range);
    }
    SUBCASE("overlapping extents") {
        LevelHeader h = sample();
        h.gameplay.offset = 100;
        const auto problems = extent_problems(h, 6812);
        REQUIRE(!problems.empty());
        CHECK(problems.back().code == Errc::bad_value);
    }
}

}  // namespace test_level_wad
