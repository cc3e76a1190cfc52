// Mod folders stacked (issue 57) without a mount: three-way merges at each
// file's grain, the VCDIFF writer's windows (decoded here by RFC 3284's own
// rules for the instructions it writes; xdelta3 decodes them in
// tests/mount/mods.py), and a stack of two folders made by edit sessions.
#include <unistd.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <functional>
#include <random>

#include "disc_fixture.h"
#include "edit/edited_disc.h"
#include "edit/mods/merge.h"
#include "edit/mods/stack_diff.h"
#include "edit/mods/stacked_image.h"
#include "edit/session.h"
#include "formats/vcdiff/vcdiff_write.h"

using namespace gcfs;
using edit::mods::Grain;
using edit::mods::merge3;

namespace {

const char* kTable =
    "index,uid,bolts,draw\n"
    "0,1000,5,64\n"
    "1,1001,6,64\n"
    "2,1002,7,64\n";

std::string temp_dir(const char* name) {
    const auto dir = std::filesystem::temp_directory_path() / (std::string("gcfs-test-mods-") + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    return dir.string();
}

uint64_t varint(const formats::Bytes& b, size_t& at) {
    uint64_t v = 0;
    while (true) {
        const uint8_t byte = b.at(at++);
        v = (v << 7) | (byte & 0x7f);
        if (!(byte & 0x80)) return v;
    }
}

// RFC 3284 §4-5 for what the writer emits: windows with or without a source
// segment, ADD (code 1) and COPY mode 0 (code 19) with sizes following.
formats::Bytes apply_delta(const formats::Bytes& source, const formats::Bytes& delta) {
    REQUIRE(delta.size() >= 5);
    CHECK(delta[0] == 0xD6);
    CHECK(delta[1] == 0xC3);
    CHECK(delta[2] == 0xC4);
    formats::Bytes out;
    size_t at = 5;
    while (at < delta.size()) {
        const uint8_t indicator = delta[at++];
        uint64_t seg_n = 0, seg_at = 0;
        if (indicator & 1) seg_n = varint(delta, at), seg_at = varint(delta, at);
        varint(delta, at);  // the delta encoding's length
        const uint64_t target_n = varint(delta, at);
        CHECK(delta.at(at++) == 0);
        const uint64_t data_n = varint(delta, at), inst_n = varint(delta, at), addr_n = varint(delta, at);
        size_t data = at, inst = at + data_n, addr = inst + inst_n;
        const size_t end = addr + addr_n;
        const size_t window_start = out.size();
        while (inst < at + data_n + inst_n) {
            const uint8_t code = delta[inst++];
            const uint64_t n = varint(delta, inst);
            if (code == 1) {
                out.insert(out.end(), delta.begin() + data, delta.begin() + data + n);
                data += n;
            } else {
                REQUIRE(code == 19);
                const uint64_t from = varint(delta, addr);
                REQUIRE(from + n <= seg_n);
                out.insert(out.end(), source.begin() + seg_at + from, source.begin() + seg_at + from + n);
            }
        }
        CHECK(out.size() - window_start == target_n);
        at = end;
    }
    return out;
}

formats::Bytes delta_of(const formats::Bytes& source, const formats::Bytes& target, std::function<uint64_t(uint64_t)> origin = nullptr,
                        std::vector<uint64_t> breaks = {}) {
    formats::Bytes delta;
    formats::vcdiff::Files files;
    files.breaks = std::move(breaks);
    files.source_size = source.size();
    files.target_size = target.size();
    files.read_source = [&](uint64_t at, std::span<uint8_t> out) { return std::copy_n(source.begin() + at, out.size(), out.begin()), true; };
    files.read_target = [&](uint64_t at, std::span<uint8_t> out) { return std::copy_n(target.begin() + at, out.size(), out.begin()), true; };
    files.origin = origin ? origin : [](uint64_t at) { return at; };
    files.write = [&](formats::ByteSpan piece) { return delta.insert(delta.end(), piece.begin(), piece.end()), true; };
    formats::vcdiff::write_delta(files);
    return delta;
}

// A save through an edit session of DIR, as a writer closing the file makes it.
void save(const std::string& dir, const std::string& path, const std::string& text) {
    edit::Session session(small_disc().path, dir, 16 << 20);
    int error = 0;
    const auto held = session.disc();
    const uint64_t handle = session.open(*held->tree.resolve(path), path, true, error);
    REQUIRE(handle);
    REQUIRE(session.write(handle, text.data(), text.size(), 0) == static_cast<int>(text.size()));
    REQUIRE(session.apply(handle, ::getpid()) == 0);
    session.release(handle);
}

std::string with_cell(std::string csv, const std::string& from, const std::string& to) {
    const size_t at = csv.find(from);
    REQUIRE(at != std::string::npos);
    return csv.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("two mods that change different cells of one row both apply; the same cell is a conflict the later wins") {
    const std::string a = "index,uid,bolts,draw\n0,1000,50,64\n1,1001,6,64\n2,1002,7,64\n";
    const std::string b = "index,uid,bolts,draw\n0,1000,5,99\n1,1001,6,64\n2,1002,7,64\n";
    auto m = merge3(Grain::table_cells, kTable, a, b);
    CHECK(m.conflicts.empty());
    CHECK(m.text == "index,uid,bolts,draw\n0,1000,50,99\n1,1001,6,64\n2,1002,7,64\n");
    const std::string c = "index,uid,bolts,draw\n0,1000,51,64\n1,1001,6,64\n2,1002,7,64\n";
    m = merge3(Grain::table_cells, kTable, a, c);
    REQUIRE(m.conflicts.size() == 1);
    CHECK(m.conflicts[0] == "row index 0 (uid 1000), bolts");
    CHECK(m.text.find("0,1000,51,64") != std::string::npos);
    // The same change from both is no conflict.
    CHECK(merge3(Grain::table_cells, kTable, a, a).conflicts.empty());
}

TEST_CASE("rows added and removed merge: removals apply, added rows by uid, the same uid added twice conflicts") {
    const std::string removes_1 = "index,uid,bolts,draw\n0,1000,5,64\n2,1002,7,64\n";
    const std::string adds = "index,uid,bolts,draw\n0,1000,5,64\n1,1001,6,64\n2,1002,7,64\n,2000,1,1\n";
    auto m = merge3(Grain::table_cells, kTable, removes_1, adds);
    CHECK(m.conflicts.empty());
    CHECK(m.text == "index,uid,bolts,draw\n0,1000,5,64\n2,1002,7,64\n,2000,1,1\n");
    const std::string adds_other = "index,uid,bolts,draw\n0,1000,5,64\n1,1001,6,64\n2,1002,7,64\n,2000,9,9\n";
    m = merge3(Grain::table_cells, kTable, adds, adds_other);
    CHECK(m.conflicts.size() == 2);  // both cells of the row both added
    CHECK(m.text.find(",2000,9,9") != std::string::npos);
    CHECK(m.text.find(",2000,1,1") == std::string::npos);
    // A copy (a second line with one index) is a new row, kept beside the changed original.
    const std::string copies = "index,uid,bolts,draw\n0,1000,5,64\n0,,5,64\n1,1001,6,64\n2,1002,7,64\n";
    const std::string changes = "index,uid,bolts,draw\n0,1000,8,64\n1,1001,6,64\n2,1002,7,64\n";
    m = merge3(Grain::table_cells, kTable, copies, changes);
    CHECK(m.conflicts.empty());
    CHECK(m.text == "index,uid,bolts,draw\n0,1000,8,64\n0,,5,64\n1,1001,6,64\n2,1002,7,64\n");
    // Changed by one and removed by the other: the later wins, and says so.
    m = merge3(Grain::table_cells, kTable, with_cell(kTable, "1,1001,6", "1,1001,60"), removes_1);
    CHECK(m.conflicts.size() == 1);
    CHECK(m.text.find("1001") == std::string::npos);
}

TEST_CASE("help messages, subtitle cues and settings keys merge at their grain") {
    const std::string help = "4097\tJump\n4098\tRun\n";
    auto m = merge3(Grain::help_messages, help, "4097\tLeap\n4098\tRun\n", "4097\tJump\n4098\tDash\n4099\tNew\n");
    CHECK(m.conflicts.empty());
    CHECK(m.text == "4097\tLeap\n4098\tDash\n4099\tNew\n");
    CHECK(merge3(Grain::help_messages, help, "4097\tLeap\n4098\tRun\n", "4097\tHop\n4098\tRun\n").conflicts == std::vector<std::string>{"message 4097, its line"});

    const std::string srt = "1\n00:00:01,001 --> 00:00:03,170\nHello.\n\n2\n00:00:04,004 --> 00:00:07,040\nBolts!\n";
    const std::string retimed = "1\n00:00:01,500 --> 00:00:03,170\nHello.\n\n2\n00:00:04,004 --> 00:00:07,040\nBolts!\n";
    const std::string reworded = "1\n00:00:01,001 --> 00:00:03,170\nHello.\n\n2\n00:00:04,004 --> 00:00:07,040\nThe bolts!\n\n3\n00:00:00,100 --> 00:00:00,900\nFirst.\n";
    m = merge3(Grain::subtitle_cues, srt, retimed, reworded);
    CHECK(m.conflicts.empty());
    CHECK(m.text == "1\n00:00:00,100 --> 00:00:00,900\nFirst.\n\n2\n00:00:01,500 --> 00:00:03,170\nHello.\n\n3\n00:00:04,004 --> 00:00:07,040\nThe bolts!\n");

    m = merge3(Grain::settings_keys, R"({"a": 1, "b": [1, 2]})", R"({"a": 2, "b": [1, 2]})", R"({"a": 1, "b": [3]})");
    CHECK(m.conflicts.empty());
    CHECK(m.text == "{\n  \"a\": 2,\n  \"b\": [\n    3\n  ]\n}\n");
    CHECK_THROWS(merge3(Grain::settings_keys, "{}", "[1]", "{}"));
    CHECK_THROWS(merge3(Grain::table_cells, kTable, "other,columns\n", kTable));
}

TEST_CASE("a file without a finer grain is one item: two changes conflict, the later applies") {
    CHECK(edit::mods::grain_of("LEVEL00/textures/tfrag_000.png") == Grain::whole);
    CHECK(edit::mods::grain_of("LEVEL00/gameplay/mobies.csv") == Grain::table_cells);
    CHECK(edit::mods::grain_of("LEVEL03/gameplay/help/french.txt") == Grain::help_messages);
    CHECK(edit::mods::grain_of("global/mpeg/00.en.srt") == Grain::subtitle_cues);
    const auto m = merge3(Grain::whole, "base", "one", "two");
    CHECK(m.text == "two");
    CHECK(m.conflicts == std::vector<std::string>{"the whole file"});
}

TEST_CASE("the VCDIFF writer: an unchanged file is one COPY a window, a shifted tail is found again, every byte comes back") {
    std::mt19937 random(7);
    formats::Bytes source(3 * formats::vcdiff::kWindowBytes + 12345);
    for (auto& b : source) b = static_cast<uint8_t>(random());
    const formats::Bytes same = delta_of(source, source);
    CHECK(apply_delta(source, same) == source);
    CHECK(same.size() < 5 + 24 * 4);  // four windows, each a header and one COPY
    // 100 bytes changed and 37 inserted in the middle: what follows moved.
    formats::Bytes target = source;
    const size_t at = source.size() / 2;
    for (size_t i = 0; i < 100; ++i) target[at + i] ^= 0x5a;
    target.insert(target.begin() + at + 100, 37, 0xee);
    const formats::Bytes delta = delta_of(source, target);
    CHECK(apply_delta(source, delta) == target);
    CHECK(delta.size() < 1000);
    // A target longer than its source: the window past the source's end is all ADD.
    formats::Bytes longer = source;
    longer.resize(source.size() + formats::vcdiff::kWindowBytes + 5, 0x42);
    CHECK(apply_delta(source, delta_of(source, longer)) == longer);
    // A piece moved to the end (a container that grew): found at its old
    // place when the writer is told so, its ends breaking the windows.
    const uint64_t from = 700000, moved = 1500000;
    formats::Bytes shuffled(source.begin(), source.begin() + from);
    shuffled.insert(shuffled.end(), source.begin() + from + moved, source.end());
    const uint64_t lands = shuffled.size();
    shuffled.insert(shuffled.end(), source.begin() + from, source.begin() + from + moved);
    const auto origin = [&](uint64_t at) { return at >= lands ? from + (at - lands) : at < from ? at : at + moved; };
    const formats::Bytes told = delta_of(source, shuffled, origin, {from, lands});
    CHECK(apply_delta(source, told) == shuffled);
    CHECK(told.size() < 2000);
}

TEST_CASE("a stack of two folders made by edit sessions: each one's cell of one row, a third's same cell is a conflict") {
    const std::string base_dir = temp_dir("stack");
    const auto original = tree::open_disc(small_disc().path, 16 << 20);
    const std::string path = "LEVEL00/gameplay/mobies.csv";
    const std::string shown = file_text(*original, path);
    const std::string first_row = shown.substr(shown.find('\n') + 1, shown.find('\n', shown.find('\n') + 1) - shown.find('\n') - 1);
    // Row 0's cells 6 (bolts) and 13 (draw_distance) (mobies.csv's header, formats-gameplay.md 3.1).
    auto row_with = [&](size_t column, const std::string& value) {
        std::vector<std::string> cells;
        std::string cell;
        for (char c : first_row + ",") {
            if (c == ',') cells.push_back(cell), cell.clear();
            else cell += c;
        }
        cells.at(column) = value;
        std::string row;
        for (size_t i = 0; i < cells.size(); ++i) row += (i ? "," : "") + cells[i];
        std::string out = shown;
        return out.replace(out.find(first_row), first_row.size(), row);
    };
    save(base_dir + "/A", path, row_with(6, "77"));
    save(base_dir + "/B", path, row_with(13, "99"));
    save(base_dir + "/C", path, row_with(6, "78"));
    {
        auto stacked = edit::mods::open_stacked(small_disc().path, {base_dir + "/A", base_dir + "/B"}, 16 << 20);
        CHECK(stacked->stack->conflicts().empty());
        const std::string merged = file_text(*stacked->disc, path);
        CHECK(merged.find(first_row) == std::string::npos);  // row 0 changed
        const std::string row0 = merged.substr(merged.find('\n') + 1, merged.find('\n', merged.find('\n') + 1) - merged.find('\n') - 1);
        CHECK(row0.find(",77,") != std::string::npos);
        CHECK(row0.find(",99,") != std::string::npos);
    }
    {
        auto stacked = edit::mods::open_stacked(small_disc().path, {base_dir + "/A", base_dir + "/B", base_dir + "/C"}, 16 << 20);
        REQUIRE(stacked->stack->conflicts().size() == 1);
        CHECK(stacked->stack->conflicts()[0].item.find("bolts") != std::string::npos);
        CHECK(stacked->stack->conflicts()[0].folders == std::vector<std::string>{base_dir + "/A", base_dir + "/B", base_dir + "/C"});
        const std::string merged = file_text(*stacked->disc, path);
        CHECK(merged.find(",78,") != std::string::npos);
        CHECK(stacked->stack->render().find("conflict  " + path) != std::string::npos);
    }
    {
        // A stack that changes no level (a subtitle of the MPEG WAD) lists and diffs its file too.
        const std::string cues = "global/mpeg/00.en.srt";
        std::string srt = file_text(*original, cues);
        REQUIRE(srt.find("Hello") != std::string::npos);
        save(base_dir + "/G", cues, srt.replace(srt.find("Hello"), 5, "Hi"));
        auto stacked = edit::mods::open_stacked(small_disc().path, {base_dir + "/G"}, 16 << 20);
        CHECK(stacked->stack->paths() == std::vector<std::string>{cues});
        CHECK(file_text(*stacked->disc, cues).find("Hi, Ratchet") != std::string::npos);
        const auto diffs = edit::mods::diff_files(*stacked->original, *stacked->disc, stacked->stack->paths());
        REQUIRE(diffs.size() == 1);
        CHECK(edit::mods::diff_text(diffs).find("cue 1, its text") != std::string::npos);
    }
    std::filesystem::remove_all(base_dir);
}
