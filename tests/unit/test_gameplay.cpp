// The gameplay reader on the disc builder's files, the record tables, and
// hostile counts (formats-gameplay.md §3, §6, §8).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>

#include "formats/gameplay/export.h"
#include "formats/gameplay/gameplay.h"
#include "mkdisc/gameplay.h"

namespace test_gameplay {  // this file's names, apart from the other test files' (unity builds join them)

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

// §3.13 (Wrench's recover_pvars): a moby class's non-empty pvars share one
// size and, if any of its mobies has mode bit 0x20, their first 0x20 bytes.
// Returns the first class breaking that, or -1.
int32_t class_with_two_pvar_layouts(const Gameplay& g) {
    std::map<int32_t, std::vector<size_t>> pvars_of;  // class: pvar indices
    std::map<int32_t, bool> sub_vars;
    const auto& m = *g.mobies.value;
    for (size_t i = 0; i < m.count(); ++i)
        if (m.s32(i, 0x68) >= 0 && g.pvar_table.value->at(static_cast<size_t>(m.s32(i, 0x68))).size > 0) {
            pvars_of[m.s32(i, 0x28)].push_back(static_cast<size_t>(m.s32(i, 0x68)));
            sub_vars[m.s32(i, 0x28)] |= (m.s32(i, 0x70) & 0x20) != 0;
        }
    for (const auto& [cls, pvars] : pvars_of)
        for (size_t p : pvars) {
            const PvarEntry& a = g.pvar_table.value->at(pvars[0]), &b = g.pvar_table.value->at(p);
            const auto& data = *g.pvar_data.value;
            if (a.size != b.size || (sub_vars[cls] && !std::equal(data.begin() + a.offset, data.begin() + a.offset + 0x20,
                                                                   data.begin() + b.offset)))
                return cls;
        }
    return -1;
}

TEST_CASE("the builder gives each moby class one pvar layout, and both layouts occur") {
    for (int level : {0, 1, 2, 3})
        for (bool full : {false, true}) {
            CAPTURE(level);
            CAPTURE(full);
            const Gameplay g = read_gameplay(built(level, full));
            REQUIRE(g.mobies.ok());
            REQUIRE(g.pvar_data.ok());
            CHECK(class_with_two_pvar_layouts(g) == -1);
            std::set<bool> layouts;
            const auto& m = *g.mobies.value;
            for (size_t i = 0; i < m.count(); ++i)
                if (m.s32(i, 0x68) >= 0) layouts.insert((m.s32(i, 0x70) & 0x20) != 0);
            CHECK(layouts.size() == 2);
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

TEST_CASE("help text maps bytes to UTF-8 as the subtitles do, reversibly") {
    // Windows-1252 as for .srt: 0xe9 é, 0x80 €; a control byte, 0x7f and an undefined byte (0x81) escaped.
    const Bytes b = {'A', '\\', 0xe9, '\t', 0x7e, 0x80, 0x7f, 0x81};
    CHECK(help_text(b) == "A\\\\\u00e9\\x09~\u20ac\\x7f\\x81");
}

// formats-gameplay.md §6, one violation each: the block named fails, with
// an error naming a byte inside it, and a block it does not involve still decodes.
TEST_CASE("each gameplay invariant of §6, violated once") {
    const Bytes clean = built(1);  // odd level: chunk planes and a ship path
    const Gameplay g = read_gameplay(clean);
    REQUIRE(g.file_error.empty());
    const uint64_t moby0 = g.mobies.offset + 0x10;
    // The second pvar of a moby class whose pvars carry the sub-vars header (§3.13).
    const auto& m = *g.mobies.value;
    std::map<int32_t, std::vector<int32_t>> pvars_of;
    for (size_t i = 0; i < m.count(); ++i)
        if (m.s32(i, 0x68) >= 0 && (m.s32(i, 0x70) & 0x20)) pvars_of[m.s32(i, 0x28)].push_back(m.s32(i, 0x68));
    const auto two = std::find_if(pvars_of.begin(), pvars_of.end(), [](const auto& c) { return c.second.size() > 1; });
    REQUIRE(two != pvars_of.end());
    const int32_t second_pvar = two->second[1];
    const auto& second_entry = g.pvar_table.value->at(static_cast<size_t>(second_pvar));
    struct Case {
        const char* what;
        std::function<void(Bytes&)> damage;
        std::function<const std::string&(const Gameplay&)> error_of;
        const char* says;
    };
    auto err = [](auto member) { return [member](const Gameplay& d) -> const std::string& { return (d.*member).error; }; };
    const Case cases[] = {
        {"1: a block offset not 16-aligned", [&](Bytes& b) { patch_s32(b, slot_offset(Block::ties), static_cast<int32_t>(g.ties.offset + 4)); },
         err(&Gameplay::ties), "aligned"},
        {"2: blocks out of write order", [&](Bytes& b) { patch_s32(b, slot_offset(Block::areas), static_cast<int32_t>(g.paths.offset)); },
         err(&Gameplay::grind_paths), "write order"},
        {"3: a moby record size other than 0x88", [&](Bytes& b) { patch_s32(b, moby0, 0x78); }, err(&Gameplay::mobies), "0x88"},
        {"4: a moby group field that disagrees with the groups", [&](Bytes& b) { patch_s32(b, moby0 + 0x88 + 0x58, 0); },
         err(&Gameplay::mobies), "group field"},
        {"5: a pvar index below -1", [&](Bytes& b) { patch_s32(b, g.cameras.offset + 0x10 + 0x1c, -2); }, err(&Gameplay::cameras),
         "pvar index"},
        {"7: a fixup past its pvar", [&](Bytes& b) { patch_s32(b, g.moby_link_fixups.offset + 4, 0x1000); },
         err(&Gameplay::moby_link_fixups), "outside"},
        {"3.13: two pvar sizes in one moby class", [&](Bytes& b) { patch_s32(b, g.pvar_table.offset + 8 * second_pvar + 4, second_entry.size - 4); },
         err(&Gameplay::pvar_table), "a class has one size"},
        {"3.13: two sub-vars headers in one moby class", [&](Bytes& b) { patch_s32(b, g.pvar_data.offset + second_entry.offset + 4, 0x40); },
         err(&Gameplay::pvar_data), "sub-vars header differs"},
        {"8: a moby class the list does not name", [&](Bytes& b) { patch_s32(b, moby0 + 0x28, 999); }, err(&Gameplay::mobies),
         "class 999"},
        {"10: an odd group member offset", [&](Bytes& b) { patch_s32(b, g.moby_groups.offset + 0x10, 1); },
         err(&Gameplay::moby_groups), "even offset"},
        {"11: a help block size smaller than its table", [&](Bytes& b) { patch_s32(b, g.help[0].offset + 4, 8); },
         [](const Gameplay& d) -> const std::string& { return d.help[0].error; }, "smaller than"},
        {"12: a chunk plane count that differs between planes", [&](Bytes& b) { patch_s32(b, g.level_settings.offset + 0x5c + 0x20 + 0xc, 3); },
         err(&Gameplay::level_settings), "planes"},
        {"12: a ship path that is no path", [&](Bytes& b) { patch_s32(b, g.level_settings.offset + 0x4c, 50); },
         err(&Gameplay::level_settings), "ship path"},
        {"14: an area link past its target block", [&](Bytes& b) {
             const uint64_t links = g.areas.offset + 4 + static_cast<uint64_t>(g.areas.value->part_offsets[1]);
             patch_s32(b, links, 77); },
         err(&Gameplay::areas), "links cuboids 77"},
        {"15: a camera-collision primitive of no volume type", [&](Bytes& b) {
             const auto& cell = g.cam_coll_grid.value->cells.front();
             patch_s32(b, g.cam_coll_grid.offset + 0x10 + static_cast<uint64_t>(cell.offset) + 0x10 + 0x10, 4); },
         err(&Gameplay::cam_coll_grid), "type 4"},
        {"15: a camera-collision primitive naming no volume", [&](Bytes& b) {
             const auto& cell = g.cam_coll_grid.value->cells.front();
             patch_s32(b, g.cam_coll_grid.offset + 0x10 + static_cast<uint64_t>(cell.offset) + 0x10 + 0x14, 40); },
         err(&Gameplay::cam_coll_grid), "volume 40"},
        {"16: 128 point lights", [&](Bytes& b) { patch_s32(b, g.point_lights.offset, 128); }, err(&Gameplay::point_lights), "127"},
        {"16: a light mask bit past the count", [&](Bytes& b) { b[g.point_lights.offset + 0x10 + 15] = 0x80; },
         err(&Gameplay::point_lights), "mask"},
        {"17: tie ambient entries out of tie order", [&](Bytes& b) {
             const uint64_t second = g.tie_ambient.offset + 4 + g.tie_ambient.value->front().data.size();
             b[second] = 0; b[second + 1] = 0; },
         err(&Gameplay::tie_ambient), "follows tie"},
        {"18: an occlusion mapping naming no moby", [&](Bytes& b) {
             const uint64_t last = g.occlusion.offset + g.occlusion.length - 4;
             patch_s32(b, last, 424242); },
         err(&Gameplay::occlusion), "424242"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what);
        if (std::string(c.what).starts_with("18") && !g.occlusion.present()) continue;  // odd levels carry no occlusion
        Bytes b = clean;
        c.damage(b);
        const Gameplay d = read_gameplay(b);
        const std::string& error = c.error_of(d);
        CHECK(error.find(c.says) != std::string::npos);
        CHECK(error.find("at byte 0x") != std::string::npos);
        CHECK(d.shrubs.ok());
    }
    // §6.18 on an even level, which carries the occlusion block.
    const Bytes even = built(0);
    const Gameplay e = read_gameplay(even);
    REQUIRE(e.occlusion.ok());
    Bytes b = even;
    patch_s32(b, e.occlusion.offset + e.occlusion.length - 4, 424242);
    CHECK(read_gameplay(b).occlusion.error.find("424242") != std::string::npos);
}

}  // namespace test_gameplay
