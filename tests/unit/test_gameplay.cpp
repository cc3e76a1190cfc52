// The gameplay reader on the disc builder's files, the record tables, and
// hostile counts (formats-gameplay.md §3, §6, §8).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "formats/gameplay/export.h"
#include "formats/gameplay/gameplay.h"
#include "mkdisc/gameplay.h"

using namespace gcfs;
using namespace gcfs::formats;
using namespace gcfs::formats::gameplay;

namespace {

Bytes built(int level, bool full = false) {
    mkdisc::Random random(static_cast<uint64_t>(level) + 11);
    mkdisc::GameplaySpec spec{level, full, [](double x, double z) { return 0.01 * x - 0.02 * z; }, 400, {100, 101, 102},
                              {500}, {700}, 8};
    return mkdisc::build_gameplay(spec, random);
}

void patch_s32(Bytes& b, uint64_t at, int32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(static_cast<uint32_t>(v) >> (8 * i));
}

}  // namespace

TEST_CASE("record schemas cover every byte of their record exactly once") {
    for (const RecordSchema* s : {&kMobySchema, &kTieSchema, &kShrubSchema, &kSettingsSchema, &kChunkPlaneSchema, &kVolumeSchema,
                                  &kCameraSchema, &kSoundSchema, &kDirLightSchema, &kPointLightSchema, &kEnvSampleSchema,
                                  &kEnvTransitionSchema, &kSphereSchema, &kCamCollPrimSchema, &kGrindDataSchema, &kAreaSchema}) {
        CAPTURE(s->name);
        std::vector<int> cover(s->size, 0);
        for (const Field& f : s->fields)
            for (uint32_t b = 0; b < field_width(f.type); ++b) ++cover.at(f.offset + b);
        CHECK(std::count(cover.begin(), cover.end(), 1) == static_cast<long>(s->size));
    }
}

TEST_CASE("the disc builder's gameplay has every block, each valid, and re-assembles") {
    for (int level : {0, 1}) {
        const Bytes file = built(level);
        const Gameplay g = read_gameplay(file);
        REQUIRE(g.file_error.empty());
        for (const BlockInfo& b : kWriteOrder) {
            CAPTURE(b.name);
            const auto s = g.status(b.block);
            CHECK(s.error == "");
            // Occlusion only on even levels; every other block always (§2.1 "what Wrench's packer produces").
            CHECK(s.present == (b.block != Block::occlusion || level % 2 == 0));
        }
        CHECK(assemble(raw_blocks(g)) == file);
        CHECK(g.level_settings.value->planes.count() == (level % 2 ? 2u : 0u));
        for (const auto& f : export_gameplay(g)) {
            CAPTURE(f.name);
            CHECK(f.error == "");
        }
    }
}

TEST_CASE("gameplay damage fails the block it is in, and only that block") {
    const Bytes clean = built(0);
    const Gameplay g = read_gameplay(clean);
    SUBCASE("a moby count past the block is refused before any allocation") {
        Bytes b = clean;
        patch_s32(b, g.mobies.offset, 0x7fffffff);
        const Gameplay d = read_gameplay(b);
        CHECK(!d.mobies.ok());
        CHECK(d.mobies.error.find("truncated at byte") != std::string::npos);
        CHECK(d.ties.ok());
        CHECK(d.help[0].ok());
        // The pvar table's length follows from the mobies: it cannot be read either.
        CHECK(!d.pvar_table.ok());
    }
    SUBCASE("a help string offset outside its block") {
        Bytes b = clean;
        patch_s32(b, g.help[2].offset + 8, 0x7000);
        const Gameplay d = read_gameplay(b);
        CHECK(d.help[2].error.find(fmt::format("0x{:x}", g.help[2].offset + 8)) != std::string::npos);
        CHECK(d.help[1].ok());
        CHECK(d.mobies.ok());
    }
    SUBCASE("a path point count that overruns") {
        Bytes b = clean;
        const uint64_t first_spline = g.paths.offset + static_cast<uint64_t>(g.paths.value->data_offset);
        patch_s32(b, first_spline, 100000);
        const Gameplay d = read_gameplay(b);
        CHECK(!d.paths.ok());
        CHECK(d.grind_paths.ok());
    }
    SUBCASE("a tie whose class the tie class list does not name") {
        Bytes b = clean;
        patch_s32(b, g.ties.offset + 0x10, 12345);
        const Gameplay d = read_gameplay(b);
        CHECK(d.ties.error.find("class 12345") != std::string::npos);
        CHECK(d.shrubs.ok());
    }
    SUBCASE("a group member past its instance block") {
        Bytes b = clean;
        const uint64_t area = g.tie_groups.offset + align_up(0x10 + 4 * g.tie_groups.value->groups.size(), 16);
        b[area] = 0xff;
        b[area + 1] = 0x7f;
        CHECK(!read_gameplay(b).tie_groups.ok());
    }
    SUBCASE("a non-finite float") {
        Bytes b = clean;
        patch_s32(b, g.shrubs.offset + 0x10 + 0x40, 0x7f800000);  // shrub 0 col3_x
        const Gameplay d = read_gameplay(b);
        CHECK(d.shrubs.error.find("not a finite float") != std::string::npos);
    }
    SUBCASE("a block table slot past the file") {
        Bytes b = clean;
        patch_s32(b, slot_offset(Block::areas), 0x7ffffff0);
        const Gameplay d = read_gameplay(b);
        CHECK(!d.areas.ok());
        CHECK(d.mobies.ok());
    }
    SUBCASE("a slot past the file does not widen the block before it (found by fuzz_gameplay)") {
        Bytes b = clean;
        patch_s32(b, slot_offset(Block::point_lights), static_cast<int32_t>(clean.size() + 0x100000));
        const Gameplay d = read_gameplay(b);
        CHECK(!d.point_lights.ok());
        CHECK(d.cam_coll_grid.ok());  // read up to the file's end, not up to the bad slot
        CHECK(d.grind_paths.ok());
    }
    SUBCASE("a file shorter than the block table") {
        CHECK(!read_gameplay(ByteSpan(clean).first(0x40)).file_error.empty());
    }
}

TEST_CASE("help text maps bytes to UTF-8 reversibly") {
    const Bytes b = {'A', '\\', 0xe9, '\t', 0x7e};
    CHECK(help_text(b) == "A\\\\\\xe9\\x09~");
}
