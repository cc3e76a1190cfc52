// Rows added, copied and removed in the gameplay tables, and every block
// that follows them (formats/gameplay/instance_edit.h, help_import.h): each
// case fails without its rule, and every result goes back through the
// reader's checks (formats-gameplay.md §6).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "formats/gameplay/export.h"
#include "formats/gameplay/gameplay.h"
#include "formats/gameplay/import.h"
#include "formats/gameplay/rebase.h"
#include "formats/gameplay/spheres.h"
#include "mkdisc/gameplay.h"

namespace test_instance_edit {  // apart from the other test files' names (unity builds)

using namespace gcfs;
using namespace gcfs::formats;
using namespace gcfs::formats::gameplay;

namespace {

Bytes built(int level = 0, Bytes* mappings = nullptr) {
    mkdisc::Random random(12);
    mkdisc::GameplaySpec spec{level, false, [](double x, double y) { return 0.01 * x - 0.02 * y; }, 400, {100, 101, 102}, {500, 501}, {700}, 8};
    return mkdisc::build_gameplay(spec, random, mappings);
}

std::string shown(const Gameplay& g, std::string_view name) {
    for (const auto& f : export_gameplay(g))
        if (f.name == name) return f.content;
    FAIL("no file ", name);
    return {};
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
}

std::vector<std::string> cells_of(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string c; std::getline(in, c, ',');) out.push_back(c);
    if (!line.empty() && line.back() == ',') out.emplace_back();
    return out;
}

std::string row_of(std::vector<std::string> cells) {
    std::string out;
    for (size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + cells[i];
    return out;
}

size_t column(const std::string& header, std::string_view name) {
    const auto names = cells_of(header);
    return static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

// The file after the edit, read back with every block decoding.
Gameplay edited(Bytes& file, std::string_view name, const std::string& text, const LevelContext* level = nullptr) {
    const auto out = import_file(file, name, text, level);
    REQUIRE_MESSAGE(out.ok(), out.error().message);
    file = out->gameplay;
    Gameplay g = read_gameplay(file);
    REQUIRE(g.file_error.empty());
    for (const BlockInfo& b : kWriteOrder) {
        CHECK_MESSAGE(g.status(b.block).error.empty(), b.name, ": ", g.status(b.block).error);
    }
    return g;
}

std::string refusal(const Bytes& file, std::string_view name, const std::string& text, const LevelContext* level = nullptr) {
    const auto out = import_file(file, name, text, level);
    REQUIRE_FALSE(out.ok());
    return out.error().message;
}

std::vector<uint16_t> members(const Gameplay& g, size_t group) { return g.moby_groups.value->groups.at(group).members; }

}  // namespace

TEST_CASE("a copied moby line is a new moby: the next uid, its own copy of the pvars and fixups, its source's group") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    const RecordTable& old = *before.mobies.value;
    REQUIRE(old.s32(1, 0x68) == 0);   // the builder: moby 1 carries pvar 0, with the shared pointer
    REQUIRE(old.s32(2, 0x58) == 0);   // moby 2 is in group 0
    auto lines = lines_of(shown(before, "mobies.csv"));
    auto copy = cells_of(lines[2]);
    const size_t x = column(lines[0], "pos_x");
    copy[x] = shortest(std::stof(copy[x]) + 5);
    lines.push_back(row_of(copy));
    lines.push_back(lines[3]);
    const Gameplay g = edited(file, "mobies.csv", joined(lines));
    const RecordTable& now = *g.mobies.value;
    REQUIRE(now.count() == old.count() + 2);
    int32_t largest = 0;
    for (size_t i = 0; i < old.count(); ++i) largest = std::max(largest, old.s32(i, 0x10));
    CHECK(now.s32(old.count(), 0x10) == largest + 1);
    CHECK(now.s32(old.count() + 1, 0x10) == largest + 2);
    CHECK(now.f32(old.count(), 0x40) == old.f32(1, 0x40) + 5);
    const auto pvars = before.pvar_table.value->size();
    const int32_t own = now.s32(old.count(), 0x68);
    CHECK(own == static_cast<int32_t>(pvars));  // appended after the kept entries
    REQUIRE(g.pvar_table.value->size() == pvars + 1);
    const auto& e = g.pvar_table.value->at(static_cast<size_t>(own));
    const auto& source = before.pvar_table.value->at(0);
    CHECK(e.size == source.size);
    CHECK(std::equal(g.pvar_data.value->begin() + e.offset, g.pvar_data.value->begin() + e.offset + e.size,
                     before.pvar_data.value->begin() + source.offset));
    CHECK(g.moby_link_fixups.value->size() == before.moby_link_fixups.value->size() + 1);
    CHECK(g.pointer_fixups.value->size() == before.pointer_fixups.value->size() + 1);
    CHECK(g.shared_data.value->pointers.size() == before.shared_data.value->pointers.size() + 1);
    CHECK(g.shared_data.value->pointers.back().pvar_index == own);
    CHECK(now.s32(old.count() + 1, 0x68) == -1);
    CHECK(now.s32(old.count() + 1, 0x58) == 0);
    CHECK(members(g, 0).back() == old.count() + 1);
    // The other rows, the cameras and the sounds keep their bytes.
    CHECK(std::equal(old.bytes.begin(), old.bytes.end(), now.bytes.begin()));
    CHECK(g.cameras.bytes == before.cameras.bytes);
}

TEST_CASE("a removed moby takes its pvars, fixups and group places with it; a moby others link to stays") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    const RecordTable& old = *before.mobies.value;
    auto lines = lines_of(shown(before, "mobies.csv"));
    const std::string linked = refusal(file, "mobies.csv", [&] { auto l = lines; l.erase(l.begin() + 1); return joined(l); }());
    CHECK_MESSAGE(linked.find("moby 0 is linked from pvar") != std::string::npos, linked);
    lines.erase(lines.begin() + 2);  // moby 1: pvar 0 and the shared pointer
    const Gameplay g = edited(file, "mobies.csv", joined(lines));
    const RecordTable& now = *g.mobies.value;
    REQUIRE(now.count() == old.count() - 1);
    CHECK(g.pvar_table.value->size() == before.pvar_table.value->size() - 1);
    CHECK(now.s32(4, 0x68) == old.s32(5, 0x68) - 1);  // moby 5 is row 4, its pvar one lower
    CHECK(g.cameras.value->s32(1, 0x1c) == before.cameras.value->s32(1, 0x1c) - 1);
    CHECK(g.shared_data.value->pointers.empty());
    CHECK(g.moby_link_fixups.value->size() == before.moby_link_fixups.value->size() - 1);
    CHECK(members(g, 0) == std::vector<uint16_t>{0, 1, 3});  // {0, 2, 4} without moby 1
    CHECK(members(g, 2) == std::vector<uint16_t>{static_cast<uint16_t>(old.count() - 2)});
}

TEST_CASE("a moved group member: the line's group cell moves it, and the record's group field follows (formats-gameplay.md 3.1, 3.11)") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    auto lines = lines_of(shown(before, "mobies.csv"));
    auto cells = cells_of(lines[4]);  // moby 3, in no group
    cells[column(lines[0], "group")] = "2";
    lines[4] = row_of(cells);
    const Gameplay g = edited(file, "mobies.csv", joined(lines));
    CHECK(members(g, 2).back() == 3);
    CHECK(g.mobies.value->s32(3, 0x58) == 2);
    cells[column(lines[0], "group")] = "3";
    lines[4] = row_of(cells);
    CHECK(refusal(file, "mobies.csv", joined(lines)).find("line 5, column") != std::string::npos);
}

TEST_CASE("every moby of a class removed, then one added back: the class list stays and the new moby reads") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    auto lines = lines_of(shown(before, "mobies.csv"));
    const size_t cls = column(lines[0], "class");
    std::vector<std::string> kept{lines[0]};
    for (size_t i = 1; i < lines.size(); ++i)
        if (cells_of(lines[i])[cls] != "101") kept.push_back(lines[i]);
    Gameplay g = edited(file, "mobies.csv", joined(kept));
    CHECK(*g.moby_classes.value == *before.moby_classes.value);  // §3.12: kept as it is
    auto again = lines_of(shown(g, "mobies.csv"));
    std::vector<std::string> fresh(cells_of(again[0]).size());
    fresh[cls] = "101";
    fresh[column(again[0], "scale")] = "1";
    again.push_back(row_of(fresh));
    fresh[cls] = "100";  // moby 9's class, which has pvars: the new one takes a copy
    again.push_back(row_of(fresh));
    const size_t count = g.mobies.value->count();
    g = edited(file, "mobies.csv", joined(again));
    const RecordTable& now = *g.mobies.value;
    REQUIRE(now.count() == count + 2);
    CHECK(now.s32(count, 0x00) == 0x88);  // §3.1's defaults for a new record
    CHECK(now.s32(count, 0x38) == 32);
    CHECK(now.s32(count, 0x58) == -1);
    CHECK(now.s32(count, 0x68) == -1);
    const int32_t copied = now.s32(count + 1, 0x68);
    REQUIRE(copied >= 0);
    CHECK(g.pvar_table.value->at(static_cast<size_t>(copied)).size == before.pvar_table.value->at(2).size);
    const std::string unknown = refusal(file, "mobies.csv", [&] {
        auto l = lines_of(shown(g, "mobies.csv"));
        fresh[cls] = "555";
        l.push_back(row_of(fresh));
        return joined(l);
    }());
    CHECK_MESSAGE(unknown.find(fmt::format("line {}, column {} (class): 555", count + 4, cls + 1)) != std::string::npos, unknown);
}

TEST_CASE("a removed tie: the class list, groups and ambient bytes follow; a new tie may name a class the core holds") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    REQUIRE(*before.tie_classes.value == std::vector<int32_t>{500, 501});
    auto lines = lines_of(shown(before, "ties.csv"));
    const auto ambient_cell = column(lines[0], "ambient_rgba");
    const std::string tie2_ambient = cells_of(lines[3])[ambient_cell];
    REQUIRE_FALSE(tie2_ambient.empty());
    lines.erase(lines.begin() + 1);
    Gameplay g = edited(file, "ties.csv", joined(lines));
    CHECK(*g.tie_classes.value == std::vector<int32_t>{501, 500});  // §3.12: first appearance
    CHECK(g.tie_groups.value->groups[0].members == std::vector<uint16_t>{0});
    CHECK(g.tie_groups.value->groups[2].members == std::vector<uint16_t>{1});
    CHECK(g.tie_ambient.value->front().tie_index == 1);  // tie 2's bytes, now tie 1's
    CHECK(cells_of(lines_of(shown(g, "ties.csv"))[2])[ambient_cell] == tie2_ambient);
    // A copy keeps the ambient bytes; a new tie of a held class not in the list is accepted.
    auto more = lines_of(shown(g, "ties.csv"));
    more.push_back(more[2]);
    auto fresh = cells_of(more[1]);
    fresh[0] = "";
    fresh[1] = "502";
    fresh[ambient_cell] = "";
    more.push_back(row_of(fresh));
    CHECK(refusal(file, "ties.csv", joined(more)).find("502 names no tie class") != std::string::npos);
    const LevelContext held{{{{}, {500, 501, 502}, {700}}}, {}};
    const size_t count = g.ties.value->count();
    g = edited(file, "ties.csv", joined(more), &held);
    REQUIRE(g.ties.value->count() == count + 2);
    CHECK(*g.tie_classes.value == std::vector<int32_t>{501, 500, 502});
    CHECK(g.tie_ambient.value->back().tie_index == static_cast<int16_t>(count));
    CHECK(cells_of(lines_of(shown(g, "ties.csv"))[count + 1])[ambient_cell] == tie2_ambient);
}

TEST_CASE("a camera added and a camera removed: the pvar of the removed one goes, mobies keep their bytes") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    auto lines = lines_of(shown(before, "cameras.csv"));
    REQUIRE(before.cameras.value->s32(1, 0x1c) >= 0);
    lines.erase(lines.begin() + 2);
    lines.push_back(",3,1,2,3,0,0,0.5,");
    const Gameplay g = edited(file, "cameras.csv", joined(lines));
    REQUIRE(g.cameras.value->count() == before.cameras.value->count());
    CHECK(g.cameras.value->f32(2, 0x18) == 0.5f);
    CHECK(g.cameras.value->s32(2, 0x1c) == -1);
    CHECK(g.pvar_table.value->size() == before.pvar_table.value->size() - 1);
    CHECK(g.mobies.bytes == before.mobies.bytes);
}

TEST_CASE("a help message added in one language is listed in all, with no text in the others; a removed one leaves them all") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    std::string text = shown(before, "help/french.txt") + "777\tNouveau message\n";
    auto out = import_file(file, "help/french.txt", text);
    REQUIRE_MESSAGE(out.ok(), out.error().message);
    const std::string& note = out->note;
    CHECK_MESSAGE(note.find("1 message added, 0 removed; the 7 other languages") != std::string::npos, note);
    Gameplay g = read_gameplay(out->gameplay);
    for (int l = 0; l < kLanguageCount; ++l) {
        CAPTURE(std::string(kLanguages[l]));
        REQUIRE(g.help[l].ok());
        const auto& m = g.help[l].value->messages;
        REQUIRE(m.size() == before.help[l].value->messages.size() + 1);
        CHECK(m.back().ids[0] == 777);
        CHECK(m.back().text.empty() == (l != 2));  // french is slot 0x18, language 2
    }
    auto dup = text + "777\tagain\n";
    CHECK(refusal(file, "help/french.txt", dup).find("id 777 is line") != std::string::npos);
    auto lines = lines_of(shown(g, "help/us_english.txt"));
    lines.erase(lines.begin());
    out = import_file(out->gameplay, "help/us_english.txt", joined(lines));
    REQUIRE(out.ok());
    g = read_gameplay(out->gameplay);
    for (int l = 0; l < kLanguageCount; ++l) CHECK(g.help[l].value->messages.size() == before.help[l].value->messages.size());
    CHECK(g.help[2].value->messages.front().ids[0] != 0x1001);
}

TEST_CASE("the limits: 15-bit group members (formats-gameplay.md 3.11) hold row 32767 and refuse row 32768") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    auto lines = lines_of(shown(before, "mobies.csv"));
    const std::string plain = lines[4];  // moby 3: no pvars, no group
    auto grouped = cells_of(plain);
    grouped[column(lines[0], "group")] = "0";
    while (lines.size() < 32768) lines.push_back(plain);
    lines.push_back(row_of(grouped));  // row 32767
    Bytes fits = file;
    const Gameplay g = edited(fits, "mobies.csv", joined(lines));
    CHECK(members(g, 0).back() == 32767);
    lines.back() = plain;
    lines.push_back(row_of(grouped));  // row 32768
    const std::string refused = refusal(file, "mobies.csv", joined(lines));
    CHECK_MESSAGE(refused.find("row 32768 cannot be in a group") != std::string::npos, refused);
}

TEST_CASE("a path point added: the path grows, and the areas over it bound the new point (formats-gameplay.md 3.14)") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    auto lines = lines_of(shown(before, "paths.csv"));
    REQUIRE(lines[1].starts_with("path,0,0,"));
    REQUIRE(before.areas.value->links[0][0] == std::vector<int32_t>{0, 1});
    lines.insert(lines.begin() + 2, "path,0,,1000,-20,3.5,1");
    Gameplay g = edited(file, "paths.csv", joined(lines));
    const auto& path = g.paths.value->splines[0].vertices;
    REQUIRE(path.size() == before.paths.value->splines[0].vertices.size() + 1);
    CHECK(path[1].x == 1000.f);
    CHECK(g.paths.value->splines[1].vertices.size() == before.paths.value->splines[1].vertices.size());
    std::vector<std::vector<Vec4>> splines;
    for (const auto& s : g.paths.value->splines) splines.push_back(s.vertices);
    const Vec4 want = area_sphere(splines, {&*g.cuboids.value, &*g.spheres.value, &*g.cylinders.value}, g.areas.value->links[0]);
    CHECK(g.areas.value->records.f32(0, 0xc) == want.w);
    CHECK(g.areas.value->records.f32(0, 0xc) > before.areas.value->records.f32(0, 0xc));
    CHECK(g.areas.value->records.bytes.size() == before.areas.value->records.bytes.size());
    CHECK(std::equal(g.areas.value->records.bytes.begin() + 0x30, g.areas.value->records.bytes.end(),
                     before.areas.value->records.bytes.begin() + 0x30));  // area 1 links no moved path
    // A new path, then removed again; a path an area links stays.
    lines = lines_of(shown(g, "paths.csv"));
    lines.push_back("path,7,0,1,2,3,0");
    lines.push_back("path,7,1,4,5,6,0");
    g = edited(file, "paths.csv", joined(lines));
    REQUIRE(g.paths.value->splines.size() == 4);
    CHECK(g.paths.value->splines[3].vertices.size() == 2);
    lines = lines_of(shown(g, "paths.csv"));
    std::vector<std::string> without;
    for (const auto& l : lines)
        if (!l.starts_with("path,3,") && !l.starts_with("path,2,")) without.push_back(l);
    CHECK(refusal(file, "paths.csv", joined(without)).find("path 2 is linked by area 1") != std::string::npos);
    without.clear();
    for (const auto& l : lines)
        if (!l.starts_with("path,3,")) without.push_back(l);
    g = edited(file, "paths.csv", joined(without));
    CHECK(g.paths.value->splines.size() == 3);
}

TEST_CASE("a grind path point moved: its bounding sphere is recomputed (formats-gameplay.md 3.6)") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    auto lines = lines_of(shown(before, "paths.csv"));
    const auto at = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.starts_with("grind,0,0,"); });
    REQUIRE(at != lines.end());
    *at = "grind,0,0,-500,0,0,0";
    const Gameplay g = edited(file, "paths.csv", joined(lines));
    const Vec4 want = bounding_sphere(g.grind_paths.value->splines[0].vertices);
    CHECK(g.grind_paths.value->grind.f32(0, 0) == want.x);
    CHECK(g.grind_paths.value->grind.f32(0, 0xc) == want.w);
    CHECK(g.grind_paths.value->grind.s32(0, 0x10) == before.grind_paths.value->grind.s32(0, 0x10));  // fields kept
}

TEST_CASE("visibility: a moved moby's bit is shown in every mask, a copy gets a free bit of its own, a removed one's bit is freed") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    const auto& mobies = before.occlusion.value->kinds[2];
    REQUIRE(std::any_of(mobies.begin(), mobies.end(), [&](const auto& m) { return m.id == before.mobies.value->s32(2, 0x10) && m.bit_index == 2; }));
    auto lines = lines_of(shown(before, "mobies.csv"));
    const size_t x = column(lines[0], "pos_x");
    auto moved = cells_of(lines[3]);  // moby 2, occlusion 0, mapped to bit 2
    moved[x] = shortest(std::stof(moved[x]) + 5);
    lines[3] = row_of(moved);
    lines.push_back(lines[3]);  // its copy
    lines.erase(lines.begin() + 7);  // moby 6: bit 6, which nothing else names
    const auto out = import_file(file, "mobies.csv", joined(lines));
    REQUIRE_MESSAGE(out.ok(), out.error().message);
    const Visibility& v = out->visibility;
    CHECK(v.mappings_changed);
    std::set<int32_t> used;
    for (const auto& kind : before.occlusion.value->kinds)
        for (const auto& m : kind) used.insert(m.bit_index);
    int32_t free_bit = 0;
    while (used.contains(free_bit) && free_bit != 6) ++free_bit;
    CHECK(v.shown_everywhere == std::set<int32_t>{2, free_bit});
    CHECK(v.freed == std::set<int32_t>{6});
    const Gameplay g = read_gameplay(out->gameplay);
    REQUIRE(g.occlusion.ok());
    const auto& now = g.occlusion.value->kinds[2];
    const int32_t copy_uid = g.mobies.value->s32(g.mobies.value->count() - 1, 0x10);
    CHECK(std::any_of(now.begin(), now.end(), [&](const auto& m) { return m.id == copy_uid && m.bit_index == free_bit; }));
    CHECK(now.size() == mobies.size());  // one in, one out
}

TEST_CASE("visibility: a moved tie keeps its bit in every mask, through the level's copy of the mappings when gameplay.bin has none") {
    Bytes copy;
    Bytes file = built(1, &copy);
    const Gameplay before = read_gameplay(file);
    REQUIRE_FALSE(before.occlusion.present());  // odd levels: the slot is 0, as Wrench's packer leaves it
    auto lines = lines_of(shown(before, "ties.csv"));
    auto cells = cells_of(lines[3]);  // tie 2, mapped to bit 2
    const size_t col3 = column(lines[0], "col3_x");
    cells[col3] = shortest(std::stof(cells[col3]) + 40);
    cells[column(lines[0], "pos_x")] = cells[col3];
    lines[3] = row_of(cells);
    const LevelContext level{{}, copy};
    const auto out = import_file(file, "ties.csv", joined(lines), &level);
    REQUIRE_MESSAGE(out.ok(), out.error().message);
    CHECK(out->visibility.shown_everywhere == std::set<int32_t>{2});
    CHECK(out->visibility.freed.empty());
    CHECK_FALSE(out->visibility.mappings_changed);
}

TEST_CASE("a table saved twice: the second save's index cells name the rows the first one showed, and are kept as the base's") {
    const Bytes base = built();
    const Gameplay g0 = read_gameplay(base);
    auto lines = lines_of(shown(g0, "mobies.csv"));
    lines.erase(lines.begin() + 3);  // moby 2 removed: moby 6 shows as row 5
    lines.push_back(lines[2]);       // moby 1 copied: the new row 13
    const std::string earlier = joined(lines);
    Bytes once = base;
    const Gameplay g1 = edited(once, "mobies.csv", earlier);
    auto again = lines_of(shown(g1, "mobies.csv"));
    const size_t scale = column(again[0], "scale");
    auto six = cells_of(again[6]);  // row 5: moby 6
    REQUIRE(six[column(again[0], "uid")] == std::to_string(g0.mobies.value->s32(6, 0x10)));
    six[scale] = "9";
    again[6] = row_of(six);
    const auto rebased = rebase_text(base, "mobies.csv", earlier, joined(again), nullptr);
    REQUIRE_MESSAGE(rebased.ok(), rebased.error().message);
    const auto rows = lines_of(*rebased);
    CHECK(cells_of(rows[6])[0] == "6");   // row 5 of the shown table was moby 6
    CHECK(cells_of(rows.back())[0] == "1");  // the copy: index 1 a second time
    Bytes twice = base;
    const Gameplay g2 = edited(twice, "mobies.csv", *rebased);
    CHECK(g2.mobies.value->f32(5, 0x2c) == 9.f);  // the base's moby 6, row 5 again
    CHECK(g2.mobies.value->bytes.size() == g1.mobies.value->bytes.size());
    CHECK(shown(g2, "mobies.csv") == joined(again));  // the same table as the second save made over the first
}

TEST_CASE("saved twice after a moby with pvars went: the pvar_index cells shown renumbered are the base's again") {
    const Bytes base = built();
    const Gameplay g0 = read_gameplay(base);
    const RecordTable& mobies = *g0.mobies.value;
    std::vector<size_t> with_pvars;
    for (size_t i = 0; i < mobies.count(); ++i)
        if (mobies.s32(i, 0x68) >= 0) with_pvars.push_back(i);
    REQUIRE(with_pvars.size() >= 2);
    auto lines = lines_of(shown(g0, "mobies.csv"));
    lines.erase(lines.begin() + 1 + static_cast<int64_t>(with_pvars[0]));  // the first moby with pvars removed
    const std::string earlier = joined(lines);
    Bytes once = base;
    const Gameplay g1 = edited(once, "mobies.csv", earlier);
    auto again = lines_of(shown(g1, "mobies.csv"));
    const size_t later = with_pvars[1];  // shown one row up, its pvar_index one lower
    auto cells = cells_of(again[later]);
    REQUIRE(cells[column(again[0], "uid")] == std::to_string(mobies.s32(later, 0x10)));
    CHECK(cells[column(again[0], "pvar_index")] != std::to_string(mobies.s32(later, 0x68)));
    cells[column(again[0], "scale")] = "9";
    again[later] = row_of(cells);
    const auto rebased = rebase_text(base, "mobies.csv", earlier, joined(again), nullptr);
    REQUIRE_MESSAGE(rebased.ok(), rebased.error().message);
    CHECK(cells_of(lines_of(*rebased)[later])[column(again[0], "pvar_index")] == std::to_string(mobies.s32(later, 0x68)));
    Bytes twice = base;
    const Gameplay g2 = edited(twice, "mobies.csv", *rebased);
    CHECK(g2.mobies.value->f32(later - 1, 0x2c) == 9.f);
    CHECK(shown(g2, "mobies.csv") == joined(again));
    // A pvar_index changed by hand is still refused.
    cells[column(again[0], "pvar_index")] = "77";
    again[later] = row_of(cells);
    const auto changed = rebase_text(base, "mobies.csv", earlier, joined(again), nullptr);
    REQUIRE(changed.ok());
    CHECK_FALSE(import_file(base, "mobies.csv", *changed).ok());
}

TEST_CASE("a moby's pvar file written back: in place at its size, packed again at another, refused at a size its class does not have") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    const RecordTable& mobies = *before.mobies.value;
    auto file_of = [&](const Gameplay& g, size_t moby) {
        const std::string name = fmt::format("pvars/moby_{}.bin", g.mobies.value->s32(moby, 0x10));
        for (const auto& f : export_gameplay(g))
            if (f.name == name) return std::pair{name, f.content};
        FAIL("no pvar file for moby ", moby);
        return std::pair<std::string, std::string>{};
    };
    // Moby 1 (pvar 0) shares class 101 with moby 13: one size.
    auto [name, pvars] = file_of(before, 1);
    REQUIRE(pvars.size() == 0x30);
    pvars[0x2c] = '\x7f';
    Gameplay g = edited(file, name, pvars);
    const PvarEntry& e = g.pvar_table.value->at(0);
    CHECK(g.pvar_data.value->at(static_cast<size_t>(e.offset) + 0x2c) == 0x7f);
    CHECK(g.pvar_table.bytes == before.pvar_table.bytes);  // the same size: in place
    const std::string refused = refusal(file, name, pvars + std::string(16, '\0'));
    CHECK_MESSAGE(refused.find("64 bytes, where moby class 101 has 48-byte pvars (moby 13's)") != std::string::npos, refused);
    CHECK(refusal(file, name, pvars.substr(0, 0x2c)).find("48-byte pvars") != std::string::npos);
    if (mobies.s32(1, 0x70) & kSubVarsBit) {
        std::string header = pvars;
        header[4] = '\x55';
        CHECK(refusal(file, name, header).find("sub-vars header") != std::string::npos);
    }
    // Moby 5 (pvar 1) is its class's only one: another size packs the data again.
    auto [five, five_pvars] = file_of(g, 5);
    g = edited(file, five, five_pvars + std::string(16, '\x11'));
    CHECK(g.pvar_table.value->at(1).size == 0x40);
    CHECK(g.pvar_table.value->at(2).offset == g.pvar_table.value->at(1).offset + 0x40);
    CHECK(file_of(g, 5).second == five_pvars + std::string(16, '\x11'));
    // A pvar too short for its fixups, and a name of no moby.
    CHECK(refusal(file, five, five_pvars.substr(0, 0x20)).find("moby-link fixup at pvar byte 0x20") != std::string::npos);
    CHECK(refusal(file, "pvars/moby_424242.bin", pvars).find("names no moby with pvars") != std::string::npos);
}

TEST_CASE("the limits: an s16 tie index holds ambient bytes up to tie 32767 (formats-gameplay.md 3.18), 1024 visibility bits (formats.md 8.1)") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    auto ties = lines_of(shown(before, "ties.csv"));
    const std::string with_ambient = ties[5];  // tie 4: ambient bytes, in no group
    const std::string no_ambient = ties[4];    // tie 3: neither
    while (ties.size() < 32768) ties.push_back(no_ambient);
    ties.push_back(with_ambient);  // tie 32767
    Bytes fits = file;
    const Gameplay g = edited(fits, "ties.csv", joined(ties));
    CHECK(g.tie_ambient.value->back().tie_index == 32767);
    ties.back() = no_ambient;
    ties.push_back(with_ambient);  // tie 32768
    const std::string refused = refusal(file, "ties.csv", joined(ties));
    CHECK_MESSAGE(refused.find("tie 32768 cannot have ambient bytes") != std::string::npos, refused);

    // Each copy of a mapped moby takes a free bit of the 1024.
    std::set<int32_t> used;
    for (const auto& kind : before.occlusion.value->kinds)
        for (const auto& m : kind) used.insert(m.bit_index);
    auto mobies = lines_of(shown(before, "mobies.csv"));
    const std::string mapped = mobies[1];  // moby 0: occlusion 0, mapped
    const size_t free_bits = 1024 - used.size();
    for (size_t i = 0; i < free_bits; ++i) mobies.push_back(mapped);
    Bytes all = file;
    const auto out = import_file(all, "mobies.csv", joined(mobies));
    REQUIRE_MESSAGE(out.ok(), out.error().message);
    CHECK(out->visibility.shown_everywhere.size() == free_bits);
    mobies.push_back(mapped);
    const std::string no_bit = refusal(file, "mobies.csv", joined(mobies));
    CHECK_MESSAGE(no_bit.find("no visibility bit is free for the new moby: the masks have 1024") != std::string::npos, no_bit);
}

TEST_CASE("env transitions added, copied and removed: a new matrix's sphere is computed, a sphere cell is the writer's (formats-gameplay.md 3.15)") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    auto lines = lines_of(shown(before, "env_transitions.csv"));
    REQUIRE(lines.size() == 3);
    const auto head = cells_of(lines[0]);
    std::vector<std::string> fresh(head.size());
    const float m[16] = {0.1f, 0, 0, 0, 0, 0.1f, 0, 0, 0, 0, 0.125f, 0, -5, -6, -1, 1};  // the volume: 20 x 20 x 16 about (50, 60, 8)
    for (int k = 0; k < 16; ++k) fresh[column(lines[0], "inverse_col0_x") + static_cast<size_t>(k)] = shortest(m[k]);
    fresh[column(lines[0], "flags")] = "1";
    lines.push_back(row_of(fresh));
    lines.push_back(lines[1]);  // a copy of transition 0
    lines.erase(lines.begin() + 2);  // transition 1 removed
    const Gameplay g = edited(file, "env_transitions.csv", joined(lines));
    const EnvTransitions& now = *g.env_transitions.value;
    REQUIRE(now.transitions.count() == 3);
    CHECK(now.spheres.record(0).size() == 0x10);
    CHECK(std::equal(now.transitions.record(2).begin(), now.transitions.record(2).end(), before.env_transitions.value->transitions.record(0).begin()));
    const Vec4 want = transition_sphere(now.transitions.floats<16>(1, 0));
    CHECK(now.spheres.f32(1, 0) == want.x);
    CHECK(now.spheres.f32(1, 0xc) == want.w);
    CHECK(std::abs(want.x - 50) < 1e-3);
    CHECK(std::abs(want.w - std::sqrt(10.f * 10 * 2 + 8 * 8)) < 1e-3);
    auto again = lines_of(shown(g, "env_transitions.csv"));
    auto cells = cells_of(again[1]);
    cells[column(again[0], "radius")] = "1";
    again[1] = row_of(cells);
    CHECK(refusal(file, "env_transitions.csv", joined(again)).find("line 2, column 5 (radius): the bounding sphere is computed") != std::string::npos);
}

TEST_CASE("lights: point lights added and removed with their masks computed again, directional lights kept in place (formats-gameplay.md 3.10)") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    auto lines = lines_of(shown(before, "lights.csv"));
    const auto head = cells_of(lines[0]);
    const size_t points = before.point_lights.value->lights.count();
    REQUIRE(points >= 2);
    std::vector<std::string> fresh(head.size());
    fresh[0] = "point";
    for (const auto& [name, value] : {std::pair{"pos_x", "100"}, {"pos_y", "36"}, {"pos_z", "10"}, {"radius", "20"}, {"colour_r", "1"},
                                      {"colour_g", "0.5"}, {"colour_b", "0.25"}})
        fresh[column(lines[0], name)] = value;
    lines.push_back(row_of(fresh));
    const auto first_point = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.starts_with("point,"); });
    lines.erase(first_point);
    const Gameplay g = edited(file, "lights.csv", joined(lines));
    const RecordTable& now = g.point_lights.value->lights;
    REQUIRE(now.count() == points);
    // §3.10's worked record: (100, 36, 10) r 20 -> 1900 0900 0280 0500 ffff 8000 4000 0000.
    const ByteSpan r = now.record(points - 1);
    CHECK(u16_at(r, 0) == 0x1900);
    CHECK(u16_at(r, 6) == 0x0500);
    CHECK(u16_at(r, 10) == 0x8000);
    // ... and its masks: x columns 5-7 and y rows 1-3 have its bit.
    const Bytes& masks = g.point_lights.value->masks;
    const size_t bit = points - 1;
    auto has = [&](size_t mask) { return (masks.at(16 * mask + bit / 8) >> (bit % 8) & 1) != 0; };
    CHECK((has(5) && has(6) && has(7) && !has(4) && !has(8)));
    CHECK((has(64 + 1) && has(64 + 3) && !has(64 + 0) && !has(64 + 4)));
    // Directional lights stay where they are; a new one follows them.
    auto dirs = lines_of(shown(g, "lights.csv"));
    auto without = dirs;
    without.erase(without.begin() + 1);
    CHECK(refusal(file, "lights.csv", joined(without)).find("directional lights keep their places") != std::string::npos);
    auto added = cells_of(dirs[1]);
    added[1] = "";
    dirs.push_back(row_of(added));
    CHECK(edited(file, "lights.csv", joined(dirs)).dir_lights.value->count() == before.dir_lights.value->count() + 1);
    // One value twice: a world cell and its raw u16 that disagree are refused; 128 point lights are.
    auto twice = lines_of(shown(read_gameplay(file), "lights.csv"));
    auto cells = cells_of(twice.back());
    cells[column(twice[0], "pos_x")] = "1";
    cells[column(twice[0], "raw_pos_x")] = "1";
    twice.back() = row_of(cells);
    CHECK(refusal(file, "lights.csv", joined(twice)).find("are one value, and give two") != std::string::npos);
    auto many = lines_of(shown(read_gameplay(file), "lights.csv"));
    while (std::count_if(many.begin(), many.end(), [](const std::string& l) { return l.starts_with("point,"); }) < 128) many.push_back(row_of(fresh));
    CHECK(refusal(file, "lights.csv", joined(many)).find("128 point lights: a level holds at most 127") != std::string::npos);
}

TEST_CASE("groups.csv: a group added, one removed, a member moved; the mobies' group fields follow (formats-gameplay.md 3.1, 3.11)") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    REQUIRE(before.moby_groups.value->groups.size() >= 3);
    const std::vector<uint16_t> second = before.moby_groups.value->groups[1].members, third = before.moby_groups.value->groups[2].members;
    auto lines = lines_of(shown(before, "groups.csv"));
    REQUIRE(lines[1].starts_with("moby,0,"));
    lines.erase(lines.begin() + 1);  // moby group 0 goes: group 1 is now 0
    lines.push_back("moby,,,3 1");   // a new moby group, counted by gcfs
    lines.push_back("shrub,,1,0");  // a shrub may be in two groups: the references bound only mobies (§3.1)
    const Gameplay g = edited(file, "groups.csv", joined(lines));
    const auto& now = g.moby_groups.value->groups;
    REQUIRE(now.size() == before.moby_groups.value->groups.size());
    CHECK(now[0].members == second);
    CHECK(now[1].members == third);
    CHECK(now.back().members == std::vector<uint16_t>{3, 1});
    for (size_t m = 0; m < g.mobies.value->count(); ++m) {
        int32_t listed = -1;
        for (size_t k = 0; k < now.size(); ++k)
            if (std::find(now[k].members.begin(), now[k].members.end(), m) != now[k].members.end()) listed = static_cast<int32_t>(k);
        CHECK_MESSAGE(g.mobies.value->s32(m, 0x58) == listed, "moby ", m);
    }
    CHECK(g.shrub_groups.value->groups.back().members == std::vector<uint16_t>{0});
    // Refused with the line and column: a moby in two groups, a count that is not the members', a row that is no moby.
    const std::string shown_now = shown(g, "groups.csv");
    CHECK(refusal(file, "groups.csv", shown_now + "moby,,,3\n").find("moby 3 is already a member on line") != std::string::npos);
    CHECK(refusal(file, "groups.csv", shown_now + "moby,,5,7\n").find("column 3: count \"5\" is not the number of members listed: 1") !=
          std::string::npos);
    const std::string beyond = fmt::format("moby,,,{}\n", g.mobies.value->count());
    CHECK(refusal(file, "groups.csv", shown_now + beyond).find("column 4") != std::string::npos);
    CHECK(refusal(file, "groups.csv", shown_now + "bolt,,,1\n").find("column 1") != std::string::npos);
}

TEST_CASE("groups.csv saved after mobies.csv, which is saved again: its members follow the rows the new save gives the mobies") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    const std::string mobies = shown(before, "mobies.csv");
    const std::string groups = "kind,group,count,members\nmoby,0,3,0 2 4\ntie,0,2,0 1\n";
    auto lines = lines_of(mobies);
    lines.erase(lines.begin() + 1);                  // moby 0 removed: it leaves its group, the others move up one
    lines.insert(lines.begin() + 3, lines[3]);       // moby 3 (now line 4) copied: a line more before moby 4
    const auto followed = follow_rows("mobies.csv", mobies, joined(lines), "groups.csv", groups);
    REQUIRE(followed.ok());
    REQUIRE(followed->has_value());
    CHECK(**followed == "kind,group,count,members\nmoby,0,2,1 4\ntie,0,2,0 1\n");
    // The same rows in the same order, or a file that names no moby: nothing to follow.
    CHECK_FALSE(follow_rows("mobies.csv", mobies, mobies, "groups.csv", groups)->has_value());
    CHECK_FALSE(follow_rows("mobies.csv", mobies, joined(lines), "paths.csv", groups)->has_value());
    // areas.csv's path links are not rewritten: paths.csv saved again with a path less is refused under it.
    const std::string paths = shown(before, "paths.csv");
    auto fewer = lines_of(paths);
    std::erase_if(fewer, [](const std::string& l) { return l.starts_with("path,1,"); });
    const auto cut = follow_rows("paths.csv", paths, joined(fewer), "areas.csv", shown(before, "areas.csv"));
    REQUIRE_FALSE(cut.ok());
    CHECK(cut.error().message.find("it names paths by number") != std::string::npos);
    CHECK_FALSE(follow_rows("paths.csv", paths, paths, "areas.csv", shown(before, "areas.csv"))->has_value());
    // volumes.csv with a cuboid inserted before the others, under areas.csv or settings.json: refused the same way.
    const std::string volumes = shown(before, "volumes.csv");
    auto inserted = lines_of(volumes);
    inserted.insert(inserted.begin() + 1, inserted[1]);
    CHECK_FALSE(follow_rows("volumes.csv", volumes, joined(inserted), "settings.json", "{}").ok());
    CHECK_FALSE(follow_rows("volumes.csv", volumes, volumes, "areas.csv", "")->has_value());
    // settings.json saved again under a paths.csv edit: ship_path as shown goes back to the earlier save's; changed, refused.
    const std::string earlier = R"({"settings": {"ship_path": 2, "death_height": 1.0}, "chunk_planes": []})";
    const std::string seen = R"({"settings": {"ship_path": 1, "death_height": 1.0}, "chunk_planes": []})";
    const std::string saved = R"({"settings": {"ship_path": 1, "death_height": -5.0}, "chunk_planes": []})";
    const auto kept_settings = settings_as_earlier(seen, earlier, saved, {"ship_path"});
    REQUIRE(kept_settings.ok());
    const auto j = nlohmann::json::parse(*kept_settings);
    CHECK(j["settings"]["ship_path"] == 2);
    CHECK(j["settings"]["death_height"] == -5.0);
    CHECK_FALSE(settings_as_earlier(seen, earlier, R"({"settings": {"ship_path": 0}, "chunk_planes": []})", {"ship_path"}).ok());
    // The mobies.csv the mount showed after groups.csv put moby 3 in group 2: saved again, the cell
    // left as shown goes back to the earlier save's (groups.csv sets it again); a changed one is refused.
    auto shown_lines = lines_of(mobies);
    const size_t group = column(shown_lines[0], "group");
    auto cells = cells_of(shown_lines[4]);
    const std::string earlier_group = cells[group];
    cells[group] = "2";
    shown_lines[4] = row_of(cells);
    const auto kept = cells_as_earlier("mobies.csv", joined(shown_lines), mobies, joined(shown_lines), {"group"});
    REQUIRE(kept.ok());
    CHECK(cells_of(lines_of(*kept)[4])[group] == earlier_group);
    auto moved = shown_lines;
    cells[group] = "0";
    moved[4] = row_of(cells);
    const auto refused = cells_as_earlier("mobies.csv", joined(shown_lines), mobies, joined(moved), {"group"});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("line 5, column") != std::string::npos);
}

TEST_CASE("areas.csv: an area added, copied and removed, links changed; counts, offsets and spheres are the writer's (formats-gameplay.md 3.14)") {
    Bytes file = built();
    const Gameplay before = read_gameplay(file);
    const std::string as_shown = shown(before, "areas.csv");
    const auto same = import_file(file, "areas.csv", as_shown);
    REQUIRE(same.ok());
    CHECK(same->gameplay == file);  // nothing changed: nothing written
    auto lines = lines_of(as_shown);
    REQUIRE(lines.size() == 3);
    const std::array<const RecordTable*, 3> volumes = {&*before.cuboids.value, &*before.spheres.value, &*before.cylinders.value};
    std::vector<std::vector<Vec4>> splines;
    for (const auto& sp : before.paths.value->splines) splines.push_back(sp.vertices);
    // Area 0 unlinks path 1 (its counts and offsets left as shown), area 1 goes, area 0 is copied, a new one links cuboid 1.
    auto first = cells_of(lines[1]);
    const size_t paths_links = column(lines[0], "paths_links");
    first[paths_links] = "0";
    lines[1] = row_of(first);
    lines[2] = lines[1];
    lines.push_back(",,,,,,,,,,7,,,,,,,1,,,");
    Gameplay g = edited(file, "areas.csv", joined(lines));
    const Areas& now = *g.areas.value;
    REQUIRE(now.records.count() == 3);
    CHECK(now.links[0][0] == std::vector<int32_t>{0});
    CHECK(now.links[1] == now.links[0]);
    CHECK(now.links[2][1] == std::vector<int32_t>{1});
    CHECK(now.records.s32(0, 0x10) == (1 | (before.areas.value->records.s32(0, 0x10) & ~0xffff)));  // paths_count 1, cuboids_count kept
    CHECK(int16_t(now.records.s32(2, 0x18) >> 16) == 7);                                            // last_update_time
    for (size_t a = 0; a < 3; ++a) {
        const Vec4 want = area_sphere(splines, volumes, now.links[a]);
        CHECK_MESSAGE(now.records.f32(a, 0xc) == want.w, "area ", a);
        CHECK(now.records.f32(a, 0x0) == want.x);
    }
    // Path 1 is no area's now, so paths.csv may remove it (the area links follow the numbers).
    std::vector<std::string> paths;
    for (const auto& l : lines_of(shown(g, "paths.csv")))
        if (!l.starts_with("path,1,")) paths.push_back(l);
    g = edited(file, "paths.csv", joined(paths));
    CHECK(g.areas.value->links[0][0] == std::vector<int32_t>{0});
    // Refused with line and column: a link past its block, a sphere cell, a count that is not the links'.
    const auto refused = [&](size_t line, std::string_view name, std::string value) {
        auto l = lines_of(shown(g, "areas.csv"));
        auto c = cells_of(l[line]);
        c[column(l[0], name)] = std::move(value);
        l[line] = row_of(c);
        return refusal(file, "areas.csv", joined(l));
    };
    CHECK(refused(1, "cuboids_links", "0 99").find("99 is not a cuboid: the level has") != std::string::npos);
    CHECK(refused(1, "bsphere_r", "5").find("the bounding sphere is computed from the links") != std::string::npos);
    CHECK(refused(2, "spheres_count", "9").find("line 3, column") != std::string::npos);
    CHECK(refused(1, "paths_links", "x").find("column 17 (paths_links)") != std::string::npos);
    // §3.14's s16 counts: 32767 links of a part hold, one more is refused with the number.
    std::string most;
    for (int i = 0; i < 32767; ++i) most += i ? " 0" : "0";
    auto l = lines_of(shown(g, "areas.csv"));
    auto c = cells_of(l[1]);
    c[column(l[0], "spheres_links")] = most;
    c[column(l[0], "spheres_count")] = "";
    l[1] = row_of(c);
    const Gameplay full = edited(file, "areas.csv", joined(l));
    CHECK(full.areas.value->links[0][2].size() == 32767);
    CHECK(refused(1, "spheres_links", most + " 0").find("32768 links: an area's count of a part is an s16, at most 32767") != std::string::npos);
}

TEST_CASE("volumes.csv: a cuboid added before the others, a sphere moved, a pill removed; areas, ship camera and grid follow (formats-gameplay.md 3.7, 3.14, 3.16)") {
    Bytes file = built(1);  // odd levels: a ship path, its camera cuboids 1-2
    const Gameplay before = read_gameplay(file);
    const std::string as_shown = shown(before, "volumes.csv");
    const auto same = import_file(file, "volumes.csv", as_shown);
    REQUIRE(same.ok());
    CHECK(same->gameplay == file);
    auto lines = lines_of(as_shown);
    const size_t col3_x = column(lines[0], "col3_x"), inverse_x = column(lines[0], "inverse_col0_x");
    // A new cuboid first: every cuboid after it is numbered one more.
    lines.insert(lines.begin() + 1, "cuboid,,2,0,0,0,0,2,0,0,0,0,3,0,100,120,4,0.01,,,,,,,,,,,,,0,0,0.5,0");
    // Sphere 0 (a camera-collision volume) 40 units along x; pill 0 goes.
    const auto sphere = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.starts_with("sphere,0,"); });
    REQUIRE(sphere != lines.end());
    auto cells = cells_of(*sphere);
    const float sphere_x = std::stof(cells[col3_x]) + 40;
    cells[col3_x] = fmt::format("{}", sphere_x);
    *sphere = row_of(cells);
    std::erase_if(lines, [](const std::string& l) { return l.starts_with("pill,0,"); });
    const Gameplay g = edited(file, "volumes.csv", joined(lines));
    const RecordTable& cuboids = *g.cuboids.value;
    REQUIRE(cuboids.count() == before.cuboids.value->count() + 1);
    CHECK(g.pills.value->count() == before.pills.value->count() - 1);
    // §3.7: the new cuboid's inverse is computed, its col3.w written 0.01.
    CHECK(cuboids.f32(0, 0x40) == 0.5f);
    CHECK(cuboids.f32(0, 0x68) == doctest::Approx(1.f / 3));
    CHECK(cuboids.f32(0, 0x3c) == 0.01f);
    CHECK(std::equal(cuboids.bytes.begin() + 0x80, cuboids.bytes.end(), before.cuboids.value->bytes.begin()));
    // §3.14: the links name the same cuboids; area 0's sphere bounds the moved sphere.
    const Areas& areas = *g.areas.value;
    CHECK(areas.links[0][1] == std::vector<int32_t>{1});
    CHECK(areas.links[0][4] == std::vector<int32_t>{3});
    CHECK(areas.links[1][1] == std::vector<int32_t>{2, 3});
    std::vector<std::vector<Vec4>> splines;
    for (const auto& s : g.paths.value->splines) splines.push_back(s.vertices);
    const Vec4 want = area_sphere(splines, {&cuboids, &*g.spheres.value, &*g.cylinders.value}, areas.links[0]);
    CHECK(areas.records.f32(0, 0) == want.x);
    CHECK(areas.records.f32(0, 0xc) == want.w);
    // §3.5: the ship camera's cuboids follow.
    CHECK(g.level_settings.value->first.s32(0, 0x50) == 2);
    CHECK(g.level_settings.value->first.s32(0, 0x54) == 3);
    // §3.16: the grid names cuboid 1 (was 0) and the moved sphere where it now stands.
    std::set<std::pair<int32_t, int32_t>> named;
    float sphere_centre = 0;
    for (const auto& cell : g.cam_coll_grid.value->cells)
        for (size_t i = 0; i < cell.prims.count(); ++i) {
            named.insert({cell.prims.s32(i, 0x10), cell.prims.s32(i, 0x14)});
            if (cell.prims.s32(i, 0x10) == 5) sphere_centre = cell.prims.f32(i, 0);
        }
    CHECK(named == std::set<std::pair<int32_t, int32_t>>{{3, 1}, {5, 0}});
    const auto corners = unit_cube_corners([&] {
        auto m = g.spheres.value->floats<16>(0, 0);
        m[15] = 1;
        return m;
    }());
    CHECK(sphere_centre == bounding_sphere(corners).x);
    // Refused: a cuboid an area links, an inverse cell, a matrix with no inverse.
    const std::string now = shown(g, "volumes.csv");
    auto without = lines_of(now);
    std::erase_if(without, [](const std::string& l) { return l.starts_with("cuboid,1,"); });
    CHECK(refusal(file, "volumes.csv", joined(without)).find("cuboid 1 is linked by area 0") != std::string::npos);
    auto inverse = lines_of(now);
    auto c = cells_of(inverse[1]);
    c[inverse_x] = "7";
    inverse[1] = row_of(c);
    CHECK(refusal(file, "volumes.csv", joined(inverse)).find("the inverse is computed from the matrix") != std::string::npos);
    CHECK(refusal(file, "volumes.csv", now + "pill,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,\n").find("has no inverse") != std::string::npos);
}

}  // namespace test_instance_edit
