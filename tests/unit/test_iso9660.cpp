// ISO9660 (formats.md §2.2): our writer's volume read back by our reader.
#include <doctest/doctest.h>

#include "formats/disc/iso9660.h"

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
    REQUIRE(root.ok());
    REQUIRE(root->size() == 4);  // GLOBALS, LEVELS, RC2.HDR, SYSTEM.CNF
    const auto& levels_dir = (*root)[1];
    CHECK(levels_dir.name == "LEVELS");
    CHECK(levels_dir.is_directory);
    auto levels = parse_directory(ByteSpan(area).subspan((levels_dir.lba - kPvdLba) * kSectorSize, levels_dir.size));
    REQUIRE(levels.ok());
    REQUIRE(levels->size() == 2);
    CHECK((*levels)[0].name == "LEVEL00.WAD");  // ";1" stripped
    CHECK((*levels)[0].lba == 1100);
    CHECK((*levels)[0].size == 123456);
}

TEST_CASE("ISO9660 reader rejects damage") {
    SUBCASE("no CD001") { CHECK(parse_primary_volume(Bytes(kSectorSize, 0)).error().code == Errc::bad_magic); }
    SUBCASE("truncated PVD") { CHECK(parse_primary_volume(Bytes(100, 1)).error().code == Errc::truncated); }
    SUBCASE("record length running past the extent") {
        Bytes d(64, 0);
        d[0] = 200;
        CHECK(parse_directory(d).error().code == Errc::truncated);
    }
    SUBCASE("name longer than its record") {
        Bytes d(64, 0);
        d[0] = 40;
        d[32] = 30;
        CHECK(parse_directory(d).error().code == Errc::bad_value);
    }
}

}  // namespace test_iso9660
