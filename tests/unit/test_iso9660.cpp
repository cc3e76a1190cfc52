// ISO9660 (formats.md §2.2): our writer's volume read back by our reader.
#include <doctest/doctest.h>

#include "formats/disc/iso9660.h"

#include <algorithm>
#include <string>

namespace test_iso9660 {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs::formats;
using namespace gcfs::formats::iso9660;

TEST_CASE("ISO9660 volume round trips: PVD fields and directories") {
    VolumeToWrite v;
    v.volume_id = "TEST_VOLUME";
    v.creation = 1037059200;
    v.volume_sectors = 5000;
    v.files = {{"SYSTEM.CNF", 1000, 60}, {"RC2.HDR", 1001, 4096}, {"LEVELS/LEVEL00.WAD", 1100, 123456},
               {"LEVELS/LEVEL01.WAD", 1200, 2048}, {"GLOBALS/MPEG.WAD", 1050, 8192}};
    const Bytes area = write_volume(v, 1000);
    auto pvd = parse_primary_volume(ByteSpan(area).first(kSectorSize));
    REQUIRE(pvd.ok());
    CHECK(pvd->volume_id == "TEST_VOLUME");
    CHECK(pvd->system_id == "PLAYSTATION");
    CHECK(pvd->volume_space_sectors == 5000);
    CHECK(pvd->creation == 1037059200);
    CHECK(pvd->root_lba == kPathTableLba + 2);
    const uint64_t root_at = (pvd->root_lba - kPvdLba) * kSectorSize;
    auto root = parse_directory(ByteSpan(area).subspan(root_at, pvd->root_size));
    CHECK(root.problems.empty());
    REQUIRE(root.entries.size() == 4);  // GLOBALS, LEVELS, RC2.HDR, SYSTEM.CNF
    const auto& levels_dir = root.entries[1];
    CHECK(levels_dir.name == "LEVELS");
    CHECK(levels_dir.is_directory);
    auto levels = parse_directory(ByteSpan(area).subspan((levels_dir.lba - kPvdLba) * kSectorSize, levels_dir.size));
    CHECK(levels.problems.empty());
    REQUIRE(levels.entries.size() == 2);
    CHECK(levels.entries[0].name == "LEVEL00.WAD");  // ";1" stripped
    CHECK(levels.entries[0].lba == 1100);
    CHECK(levels.entries[0].size == 123456);
}

// A directory extent: its own "." and ".." records, then `records`, padded
// to a sector. Each record is (length byte, name) with the fixed fields zero.
Bytes directory_with(const std::vector<std::pair<uint8_t, std::string>>& records) {
    Bytes d;
    auto add = [&](uint8_t length, const std::string& name, bool directory) {
        const size_t start = d.size();
        d.resize(start + std::max<size_t>(length, 34), 0);
        d[start] = length;
        d[start + 25] = directory ? 0x02 : 0x00;
        d[start + 32] = static_cast<uint8_t>(name.size());
        for (size_t i = 0; i < name.size() && 33 + i < d.size() - start; ++i) d[start + 33 + i] = static_cast<uint8_t>(name[i]);
        d.resize(start + length);
    };
    add(34, std::string(1, '\0'), true);
    add(34, std::string(1, '\1'), true);
    for (const auto& [length, name] : records) add(length, name, false);
    d.resize(sectors_for(d.size()) * kSectorSize, 0);
    return d;
}

TEST_CASE("ISO9660 directory damage costs only the records it touches") {
    SUBCASE("names '.' and '..' recorded as names stay names") {
        const auto dir = parse_directory(directory_with({{34, "."}, {38, "..;1"}, {40, "NAME.;1"}}));
        CHECK(dir.problems.empty());
        REQUIRE(dir.entries.size() == 3);
        CHECK(dir.entries[0].name == ".");
        CHECK(dir.entries[1].name == "..");
        CHECK(dir.entries[2].name == "NAME");
    }
    SUBCASE("a record too short for a name skips to the next sector") {
        Bytes d = directory_with({{40, "A;1"}, {20, ""}, {40, "LOST;1"}});
        d.resize(2 * kSectorSize, 0);
        const Bytes second = directory_with({{40, "B;1"}});
        std::copy(second.begin() + 68, second.begin() + 108, d.begin() + kSectorSize);
        const auto dir = parse_directory(d);
        REQUIRE(dir.problems.size() == 1);
        CHECK(dir.problems[0].offset == 68 + 40);
        REQUIRE(dir.entries.size() == 2);
        CHECK(dir.entries[0].name == "A");
        CHECK(dir.entries[1].name == "B");
    }
    SUBCASE("a name past its record skips that record only") {
        Bytes d = directory_with({{40, "A;1"}, {40, "BAD;1"}, {40, "C;1"}});
        d[68 + 40 + 32] = 30;
        const auto dir = parse_directory(d);
        REQUIRE(dir.problems.size() == 1);
        CHECK(dir.problems[0].offset == 108);
        REQUIRE(dir.entries.size() == 2);
        CHECK(dir.entries[1].name == "C");
    }
    SUBCASE("a record running past the extent ends the walk") {
        Bytes d = directory_with({{40, "A;1"}});
        d[108] = 200;
        d.resize(200, 0);
        const auto dir = parse_directory(d);
        REQUIRE(dir.problems.size() == 1);
        CHECK(dir.problems[0].offset == 108);
        CHECK(dir.entries.size() == 1);
    }
    SUBCASE("an extent of file data holds no directory") {
        const auto dir = parse_directory(Bytes(kSectorSize, 0x41));
        REQUIRE(dir.problems.size() == 1);
        CHECK(dir.entries.empty());
    }
    SUBCASE("records past the 1000th are not shown") {
        std::vector<std::pair<uint8_t, std::string>> many;
        for (int i = 0; i < 1200; ++i) many.push_back({40, "F" + std::to_string(i)});
        const auto dir = parse_directory(directory_with(many));
        REQUIRE(dir.problems.size() == 1);
        CHECK(dir.entries.size() == kMaxRecordsPerDirectory);
    }
}

TEST_CASE("ISO9660 reader rejects damage") {
    SUBCASE("no CD001") { CHECK(parse_primary_volume(Bytes(kSectorSize, 0)).error().code == Errc::bad_magic); }
    SUBCASE("truncated PVD") { CHECK(parse_primary_volume(Bytes(100, 1)).error().code == Errc::truncated); }
}

}  // namespace test_iso9660
