// The disc builder: its image parses back to what it wrote.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "disc_fixture.h"
#include "formats/wad_lz/wad_lz.h"
#include "tree/disc_scan.h"

namespace test_mkdisc {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;

TEST_CASE("level ids differ from table order; one container reports id 30") {
    const auto ids = mkdisc::level_ids(27);
    CHECK(ids[21] == 30);
    CHECK(ids[20] == 20);
    CHECK(ids[22] == 22);
    const auto small = mkdisc::level_ids(5);
    CHECK(small.back() == 30);
}

TEST_CASE("mkdisc image parses back to the table it wrote") {
    const BuiltDisc& built = small_disc();
    tree::Image image(built.path);
    const auto scan = tree::scan_disc(image);
    CHECK(scan.volume.system_id == "PLAYSTATION");
    CHECK(scan.toc.globals.size() == 9);
    REQUIRE(scan.levels.size() == built.manifest.levels.size());
    for (size_t i = 0; i < scan.levels.size(); ++i) {
        const auto& level = scan.levels[i];
        const auto& made = built.manifest.levels[i];
        CHECK(level.part.file_lba == static_cast<int32_t>(made.lba));
        CHECK(level.part.size_sectors == static_cast<int32_t>(made.sectors));
        REQUIRE(level.header);
        CHECK(level.header->id == made.id);
        for (const auto& check : level.checks) CHECK_MESSAGE(check.ok, level.folder, ": ", check.name, ": ", check.detail);
        REQUIRE(level.core);
        CHECK(static_cast<size_t>(level.core->assets_decompressed_size) == built.levels.at(made.index).core_data.size());
    }
}

TEST_CASE("mkdisc core stream decodes to the builder's core byte-exactly") {
    const BuiltDisc& built = small_disc();
    tree::Image image(built.path);
    const auto scan = tree::scan_disc(image);
    const auto& level = scan.levels[1];
    const auto range = level.lump->core_data;
    formats::Bytes stream(static_cast<size_t>(range.size));
    REQUIRE(image.read(level.data_offset + static_cast<uint64_t>(range.offset), stream));
    auto decoded = formats::wad_lz::decompress(stream, static_cast<uint64_t>(level.core->assets_decompressed_size));
    REQUIRE_MESSAGE(decoded.ok(), decoded.error().describe());
    CHECK(*decoded == built.levels.at(1).core_data);
}

TEST_CASE("odd levels lay extents out in another order than Wrench") {
    const BuiltDisc& built = small_disc();
    const auto& even = built.levels.at(0).header;
    const auto& odd = built.levels.at(1).header;
    CHECK(even.sound_bank.offset < even.data.offset);
    CHECK(odd.data.offset < odd.sound_bank.offset);
}

TEST_CASE("a class id has the same bytes in every level that uses it, and some ids pass 255") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    std::map<int32_t, formats::Bytes> seen;  // o_class -> its bytes where first met
    int compared = 0, past_255 = 0;
    for (size_t i = 0; i < disc->scan.levels.size(); ++i) {
        const tree::LevelScan& level = disc->level(i);
        const formats::Bytes& core = built.levels.at(static_cast<int>(i)).core_data;
        for (const auto& table : level.classes)
            for (const formats::ClassEntry& e : table) {
                const formats::CoreRegion extent = formats::class_extent(level.boundaries, e.offset_in_asset_wad, core.size(), "");
                if (extent.size == 0) continue;
                past_255 += e.o_class > 255;
                formats::Bytes bytes(core.begin() + static_cast<std::ptrdiff_t>(extent.offset),
                                     core.begin() + static_cast<std::ptrdiff_t>(extent.offset + extent.size));
                while (!bytes.empty() && bytes.back() == 0) bytes.pop_back();  // the 0x40 padding after it may differ
                const auto [it, first] = seen.emplace(e.o_class, bytes);
                if (first) continue;
                ++compared;
                CHECK_MESSAGE(it->second == bytes, fmt::format("class {} differs in {}", e.o_class, level.folder));
            }
    }
    CHECK(compared >= 10);
    CHECK(past_255 > 0);
}

}  // namespace test_mkdisc
