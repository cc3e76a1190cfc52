// The edit layer without a mount: the container writer keeps what no edit
// touches, an edits folder is untrusted input, the picture and text decoders
// place what they can and refuse the rest with the line and column.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "disc_fixture.h"
#include "edit/containers.h"
#include "edit/edit_store.h"
#include "edit/level_parts.h"
#include "edit/session.h"
#include "formats/audio/audio_wad.h"
#include "formats/audio/vag.h"
#include "formats/core/texture_encode.h"
#include "formats/mpeg/subtitles.h"
#include "formats/pif/pif.h"
#include "formats/disc/level_rewrite.h"
#include "formats/export/texture_png.h"
#include "formats/disc/level_wad.h"
#include "formats/export/csv_read.h"
#include "formats/gameplay/import.h"
#include "formats/wad_lz/wad_lz.h"

using namespace gcfs;
using formats::Bytes;

namespace {

std::string edit_test_dir(const char* name) {
    const auto dir = std::filesystem::temp_directory_path() / (std::string("gcfs-test-") + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    return dir.string();
}

}  // namespace

TEST_CASE("a container rewritten with no part changed is its own bytes") {
    const auto disc = tree::open_disc(small_disc().path, 16 << 20);
    const Bytes container = level_container(*disc, 0);
    const auto same = formats::rewrite_level_container(container, {});
    REQUIRE_MESSAGE(same.ok(), (same.ok() ? "" : same.error().describe()));
    CHECK(*same == container);
}

TEST_CASE("a grown gameplay stream pushes what follows it, every other part keeps its bytes") {
    const auto disc = tree::open_disc(small_disc().path, 16 << 20);
    const Bytes container = level_container(*disc, 0);
    edit::LevelParts parts(container);
    Bytes gameplay = *parts.content("gameplay");
    const Bytes sound_bank_before = *parts.content("gs_ram");
    gameplay.resize(gameplay.size() + 200000, 0);
    for (size_t i = 0; i < gameplay.size(); ++i) gameplay[i] ^= static_cast<uint8_t>(i * 2654435761u >> 24);  // incompressible
    parts.replace("gameplay", gameplay);
    const auto rebuilt = parts.rebuild();
    REQUIRE(rebuilt.ok());
    CHECK(rebuilt->size() > container.size());
    CHECK(rebuilt->size() % formats::kSectorSize == 0);
    const auto before = *formats::parse_level_header(container);
    const auto after = *formats::parse_level_header(*rebuilt);
    CHECK(formats::claimed_sectors(after) == rebuilt->size() / formats::kSectorSize);  // the extents still tile
    CHECK(formats::extent_problems(after, rebuilt->size() / formats::kSectorSize).empty());
    edit::LevelParts again(*rebuilt);
    CHECK(*again.content("gameplay") == gameplay);
    CHECK(*again.content("gs_ram") == sound_bank_before);
    // The data lump is not moved by a gameplay edit when it lies before it, and its bytes are the same.
    if (before.data.offset < before.gameplay.offset)
        CHECK(std::equal(container.begin() + static_cast<int64_t>(before.data.byte_offset()),
                         container.begin() + static_cast<int64_t>(before.data.byte_offset() + before.data.byte_size()),
                         rebuilt->begin() + static_cast<int64_t>(after.data.byte_offset())));
}

TEST_CASE("a new core_data updates the core header's two sizes (formats.md 6.1 0x88, 0x8C)") {
    const auto disc = tree::open_disc(small_disc().path, 16 << 20);
    edit::LevelParts parts(level_container(*disc, 1));
    const auto decoded = parts.content("core_data");
    REQUIRE_MESSAGE(decoded.ok(), (decoded.ok() ? "" : decoded.error().describe()));
    Bytes core = *decoded;
    core.resize(core.size() + 4096, 0x5a);
    parts.replace("core_data", core);
    const auto rebuilt = parts.rebuild();
    REQUIRE(rebuilt.ok());
    edit::LevelParts again(*rebuilt);
    const Bytes index = *again.content("core_index");
    CHECK(formats::s32_at(index, 0x8C) == static_cast<int32_t>(core.size()));
    CHECK(*again.content("core_data") == core);
}

TEST_CASE("a part the container does not have cannot be added") {
    const auto disc = tree::open_disc(small_disc().path, 16 << 20);
    const auto result = formats::rewrite_level_container(level_container(*disc, 0), {{"hud_bank_4", Bytes(10)}});
    CHECK_FALSE(result.ok());
}

TEST_CASE("pictures: own colours keep their indices, new ones get a palette or the nearest shared colour") {
    formats::Palette palette{};
    for (size_t i = 0; i < 256; ++i) palette[i] = {uint8_t(i), 0, 0, 255};
    palette[9] = palette[4];  // a duplicate colour: a pixel keeps the index it had
    formats::png::RgbaImage picture{2, 2, {4, 0, 0, 255, 4, 0, 0, 255, 200, 0, 0, 255, 1, 0, 0, 255}};
    const Bytes old = {9, 4, 0, 0};
    const auto exact = formats::encode_indexed(picture, old, palette, false);
    CHECK(exact.texels == Bytes{9, 4, 200, 1});
    CHECK_FALSE(exact.new_palette);

    picture.rgba[8] = 201, picture.rgba[9] = 3;  // (201, 3, 0) is not in the palette
    const auto shared = formats::encode_indexed(picture, old, palette, false);
    CHECK(shared.texels[2] == 201);  // nearest: (201, 0, 0)
    CHECK(shared.how.find("nearest") != std::string::npos);
    const auto own = formats::encode_indexed(picture, old, palette, true);
    CHECK(own.new_palette);
    CHECK(own.palette[own.texels[2]].g == 3);
    // The stored palette gives the same colours back through the reader's conversion.
    CHECK(formats::ps2_palette(formats::ps2_palette_bytes(own.palette))[own.texels[2]].r == 201);
}

TEST_CASE("CSV read back: quotes, line breaks, and errors with line and column") {
    const auto rows = formats::csv::parse("a,\"b,c\"\n\"x\"\"y\",\"two\nlines\"\n");
    REQUIRE(rows.ok());
    REQUIRE(rows->size() == 2);
    CHECK(rows->at(0).cells == std::vector<std::string>{"a", "b,c"});
    CHECK(rows->at(1).cells == std::vector<std::string>{"x\"y", "two\nlines"});
    const auto bad = formats::csv::parse("a,b\nc,d\"e\n");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("line 2, column 4") != std::string::npos);
}

TEST_CASE("gameplay files: the shown text encodes to the same file; a bad cell names line and column") {
    const auto disc = tree::open_disc(small_disc().path, 16 << 20);
    const std::string gameplay_text = file_text(*disc, "LEVEL00/gameplay.bin");
    const Bytes gameplay(gameplay_text.begin(), gameplay_text.end());
    for (const char* name : {"mobies.csv", "ties.csv", "shrubs.csv", "cameras.csv", "sounds.csv", "env_samples.csv", "paths.csv", "env_transitions.csv", "lights.csv", "settings.json",
                             "help/us_english.txt"}) {
        CAPTURE(name);
        const std::string shown = file_text(*disc, std::string("LEVEL00/gameplay/") + name);
        const auto same = formats::gameplay::import_file(gameplay, name, shown);
        REQUIRE(same.ok());
        CHECK(same->gameplay == gameplay);
    }
    std::string mobies = file_text(*disc, "LEVEL00/gameplay/mobies.csv");
    const size_t second_line = mobies.find('\n') + 1;
    const size_t third_cell = mobies.find(',', mobies.find(',', second_line) + 1) + 1;
    mobies.replace(third_cell, mobies.find(',', third_cell) - third_cell, "x");
    const auto refused = formats::gameplay::import_file(gameplay, "mobies.csv", mobies);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("line 2, column 3") != std::string::npos);
    const auto not_a_message = formats::gameplay::import_file(gameplay, "help/us_english.txt", "4097 no tab\n");
    REQUIRE_FALSE(not_a_message.ok());
    CHECK(not_a_message.error().message.find("line 1, column 1") != std::string::npos);
    // Help text is UTF-8 of the game's Windows-1252 bytes (formats/common/game_text.h): é is 0xe9,
    // € 0x80, \x81 any byte; an arrow has no byte, and the refusal names its column.
    std::string help = file_text(*disc, "LEVEL00/gameplay/help/us_english.txt");
    const size_t first_tab = help.find('\t');
    help.insert(help.find('\n'), " Caf\u00e9 \u20ac\\x81");
    const auto accented = formats::gameplay::import_file(gameplay, "help/us_english.txt", help);
    REQUIRE(accented.ok());
    const std::string encoded(accented->gameplay.begin(), accented->gameplay.end());
    CHECK(encoded.find("Caf\xe9 \x80\x81") != std::string::npos);
    const std::string arrow = help.substr(0, first_tab + 1) + "\u2192" + help.substr(help.find('\n'));
    const auto unicode = formats::gameplay::import_file(gameplay, "help/us_english.txt", arrow);
    REQUIRE_FALSE(unicode.ok());
    CHECK_MESSAGE(unicode.error().message.find(fmt::format("line 1, column {}: U+2192", first_tab + 2)) != std::string::npos, unicode.error().message);
}

TEST_CASE("an edits folder is untrusted: another image's journal, a damaged one, hostile paths") {
    const std::string dir = edit_test_dir("edits");
    { edit::EditStore store(dir, "image-a"); }
    CHECK_THROWS_AS(edit::EditStore(dir, "image-b"), edit::EditStoreError);
    for (const char* journal : {"not json", R"({"gcfs_edits":1,"image":"image-a","next_sequence":1,"edits":[{"path":"../../etc/passwd","state":"applied","status":"","sequence":1,"size":1,"crc32":0,"containers":[]}]})",
                                R"({"gcfs_edits":1,"image":"image-a","next_sequence":1,"edits":[{"path":"LEVEL00/a\u001b[31m","state":"applied","status":"","sequence":1,"size":1,"crc32":0,"containers":[]}]})",
                                R"({"gcfs_edits":1,"image":"image-a","next_sequence":1,"edits":7})"}) {
        CAPTURE(journal);
        std::ofstream(dir + "/journal.json") << journal;
        CHECK_THROWS_AS(edit::EditStore(dir, "image-a"), edit::EditStoreError);
    }
    // A stored file that is not what the journal says turns its edit into a refused one.
    std::filesystem::remove_all(dir);
    {
        edit::EditStore store(dir, "image-a");
        const Bytes content = {1, 2, 3};
        store.commit(edit::EditRecord{"LEVEL00/core_data.bin", edit::EditState::applied, "ok"}, &content);
    }
    std::ofstream(dir + "/files/LEVEL00/core_data.bin") << "changed behind gcfs";
    edit::EditStore reopened(dir, "image-a");
    REQUIRE(reopened.find("LEVEL00/core_data.bin"));
    CHECK_FALSE(reopened.find("LEVEL00/core_data.bin")->applied());
    std::filesystem::remove_all(dir);
}

TEST_CASE("a batch of commits (a level.glb save) takes effect in one journal write: all, or none when aborted or cut short") {
    const std::string dir = edit_test_dir("batch");
    const Bytes a = {1, 2, 3}, b = {4, 5};
    auto commit_two = [&](edit::EditStore& store) {
        store.begin_batch();
        store.commit(edit::EditRecord{"LEVEL00/gameplay/mobies.csv", edit::EditState::applied, "one"}, &a);
        store.commit(edit::EditRecord{"LEVEL00/gameplay/ties.csv", edit::EditState::applied, "two"}, &b);
        store.commit(edit::EditRecord{"LEVEL00/level.glb", edit::EditState::translated, "read"}, nullptr);
        // Meanwhile the batch's contents are what stored() gives.
        CHECK(store.stored(*store.find("LEVEL00/gameplay/ties.csv")) == b);
    };
    {
        edit::EditStore store(dir, "image-a");
        commit_two(store);
        store.abort_batch();
        CHECK(store.records().empty());
        CHECK_FALSE(std::filesystem::exists(dir + "/files/LEVEL00/gameplay/mobies.csv.gcfs-new"));
        commit_two(store);  // and the process ends before finish_batch(): a crash
    }
    {
        edit::EditStore reopened(dir, "image-a");
        CHECK(reopened.records().empty());
        CHECK_FALSE(std::filesystem::exists(dir + "/files/LEVEL00/gameplay/mobies.csv.gcfs-new"));
        commit_two(reopened);
        reopened.finish_batch();
    }
    edit::EditStore reopened(dir, "image-a");
    REQUIRE(reopened.records().size() == 3);
    CHECK(reopened.stored(*reopened.find("LEVEL00/gameplay/mobies.csv")) == a);
    CHECK(reopened.find("LEVEL00/level.glb")->state == edit::EditState::translated);
    CHECK(reopened.render().find("translated  LEVEL00/level.glb  read") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("a session with an empty edits folder serves the image itself as edited.iso") {
    const std::string dir = edit_test_dir("session");
    edit::Session session(small_disc().path, dir, 16 << 20);
    const auto disc = session.disc();
    const std::string edited = file_text(*disc, "edited.iso");
    std::ifstream in(small_disc().path, std::ios::binary);
    const std::string image((std::istreambuf_iterator<char>(in)), {});
    CHECK(edited == image);
    CHECK(session.writable("LEVEL00/textures/tfrag_000.png"));
    CHECK(session.writable("LEVEL00/gameplay/mobies.csv"));
    CHECK(session.writable("LEVEL00/level.glb"));  // read as the instance tables' edits (issue 54)
    CHECK_FALSE(session.writable("LEVEL00/collision.glb"));
    CHECK_FALSE(session.writable("README.txt"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("a level AUDIO WAD with one sound replaced keeps every other VAG's bytes") {
    const auto disc = tree::open_disc(small_disc().path, 16 << 20);
    const Bytes wad = edit::read_container(*disc, edit::ContainerKey{edit::ContainerKey::level_audio, 0});
    auto before = formats::audio::parse_level_audio(wad, wad.size());
    REQUIRE(before.ok());
    const Bytes vag = formats::audio::write_vag(Bytes(16 * 500, 0x11), 22050, "big");  // larger than any slot: what follows moves
    auto replaced = formats::audio::replace_level_audio(wad, "sfx_001", vag);
    REQUIRE(replaced.ok());
    auto after = formats::audio::parse_level_audio(*replaced, replaced->size());
    REQUIRE(after.ok());
    REQUIRE(after->size() == before->size());
    for (size_t i = 0; i < after->size(); ++i) {
        const auto& b = (*before)[i];
        const auto& a = (*after)[i];
        CAPTURE(a.name);
        CHECK(a.error.empty());
        const formats::ByteSpan got = formats::ByteSpan(*replaced).subspan(a.range.byte_offset(), a.range.byte_size());
        if (a.name == "sfx_001")
            CHECK(Bytes(got.begin(), got.end()) == vag);
        else
            CHECK(Bytes(got.begin(), got.end()) == Bytes(wad.begin() + static_cast<int64_t>(b.range.byte_offset()),
                                                         wad.begin() + static_cast<int64_t>(b.range.byte_offset() + b.range.byte_size())));
    }
}

TEST_CASE("SubRip read back: texts and times land in their language's records; counts and characters are checked") {
    const Bytes table = formats::mpeg::write_subtitles({{"Hello", "Bonjour", "", "", ""}, {"Bye", "", "", "", ""}}, {{30, 90}, {120, 200}});
    const auto records = *formats::mpeg::parse_subtitles(table);
    const std::string shown = formats::mpeg::subrip(records, 1, formats::mpeg::VideoRegion::ntsc);
    std::string note;
    const auto same = formats::mpeg::import_subrip(table, 1, shown, formats::mpeg::VideoRegion::ntsc, note);
    REQUIRE(same.ok());
    CHECK(*same == table);
    std::string edited = shown;
    edited.replace(edited.find("Bonjour"), 7, "Été");
    const auto changed = formats::mpeg::import_subrip(table, 1, edited, formats::mpeg::VideoRegion::ntsc, note);
    REQUIRE(changed.ok());
    const auto now = *formats::mpeg::parse_subtitles(*changed);
    CHECK(now[0].text[1] == Bytes{0xC9, 't', 0xE9});  // Windows-1252
    CHECK(now[0].text[0] == records[0].text[0]);
    CHECK(formats::mpeg::subrip(now, 1, formats::mpeg::VideoRegion::ntsc).find("Été") != std::string::npos);
    std::string bad = shown;
    bad.replace(bad.find("Bonjour"), 7, "A \xE2\x98\x83");
    const auto refused = formats::mpeg::import_subrip(table, 1, bad, formats::mpeg::VideoRegion::ntsc, note);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("line 3, column 3") != std::string::npos);
    CHECK(refused.error().message.find("U+2603") != std::string::npos);
}

TEST_CASE("SubRip cues added and removed: a new record with no text in the other languages, a removed one leaves all five") {
    using formats::mpeg::VideoRegion;
    const Bytes table = formats::mpeg::write_subtitles({{"Hello", "Bonjour", "", "", ""}, {"Bye", "", "", "", ""}}, {{30, 90}, {120, 200}});
    const auto records = *formats::mpeg::parse_subtitles(table);
    const std::string french = formats::mpeg::subrip(records, 1, VideoRegion::ntsc);
    std::string note;
    const auto extra = formats::mpeg::import_subrip(table, 1, french + "\n2\n00:00:03,500 --> 00:00:03,900\nPlus\n", VideoRegion::ntsc, note);
    REQUIRE_MESSAGE(extra.ok(), extra.error().message);
    CHECK_MESSAGE(note.find("1 cue added, with no text in the other four languages") != std::string::npos, note);
    const auto grown = *formats::mpeg::parse_subtitles(*extra);
    REQUIRE(grown.size() == 3);
    CHECK(grown[1].text[1] == Bytes{'P', 'l', 'u', 's'});  // after the record of the cue before it
    CHECK(grown[1].text[0].empty());
    CHECK(grown[2].text[0] == records[1].text[0]);
    CHECK(formats::mpeg::subrip(grown, 0, VideoRegion::ntsc) == formats::mpeg::subrip(records, 0, VideoRegion::ntsc));
    // English shows Hello and Bye: Hello taken out (Bye renumbered 1, as editors do) removes its record, French's Bonjour with it.
    const std::string english = formats::mpeg::subrip(records, 0, VideoRegion::ntsc);
    std::string second = english.substr(english.find("\n\n") + 2);
    second[0] = '1';
    const auto fewer = formats::mpeg::import_subrip(table, 0, second, VideoRegion::ntsc, note);
    REQUIRE_MESSAGE(fewer.ok(), fewer.error().message);
    CHECK_MESSAGE(note.find("1 cue removed from all five languages") != std::string::npos, note);
    const auto shrunk = *formats::mpeg::parse_subtitles(*fewer);
    REQUIRE(shrunk.size() == 1);
    CHECK(shrunk[0].text[0] == records[1].text[0]);
    CHECK(formats::mpeg::subrip(shrunk, 1, VideoRegion::ntsc).empty());
}

TEST_CASE("a PIF written again from a picture of its own colours is its own bytes; a 4-bit one keeps 16 colours") {
    formats::Palette palette{};
    for (size_t i = 0; i < 256; ++i) palette[i] = {uint8_t(i), uint8_t(255 - i), uint8_t(i / 2), 255};
    Bytes indices(16 * 8);
    for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<uint8_t>(i * 7);
    std::array<formats::png::Rgba, 256> ps2{};
    for (size_t i = 0; i < 256; ++i) ps2[i] = {palette[i].r, palette[i].g, palette[i].b, 0x80};
    const Bytes pif = formats::pif::write_pif8(16, 8, ps2, indices, 2);
    formats::png::RgbaImage picture{16, 8, {}};
    for (uint8_t k : indices) picture.rgba.insert(picture.rgba.end(), {palette[k].r, palette[k].g, palette[k].b, 255});
    std::string how;
    const auto again = formats::pif::encode_like(pif, picture, how);
    REQUIRE(again.ok());
    CHECK(*again == pif);
    std::array<formats::png::Rgba, 16> sixteen{};
    for (size_t i = 0; i < 16; ++i) sixteen[i] = {uint8_t(16 * i), 0, 0, 0x80};
    const Bytes four = formats::pif::write_pif4(16, 8, sixteen, Bytes(128, 3));
    formats::png::RgbaImage many{16, 8, {}};
    for (int i = 0; i < 128; ++i) many.rgba.insert(many.rgba.end(), {uint8_t(i * 2), uint8_t(i), 0, 255});
    const auto quantised = formats::pif::encode_like(four, many, how);
    REQUIRE(quantised.ok());
    CHECK(quantised->size() == four.size());
    CHECK(how.find("libimagequant") != std::string::npos);
}

TEST_CASE("the journal: 100,000 edits parse, one more is refused, sequences never wrap, events render newest last and escaped") {
    auto entry = [](size_t i, uint64_t sequence) {
        return fmt::format(R"({{"path":"LEVEL00/x{}","state":"refused","status":"s","sequence":{},"size":0,"crc32":0,"containers":[]}})", i, sequence);
    };
    auto journal_of = [&](size_t count) {
        std::string text = R"({"gcfs_edits":1,"image":"k","next_sequence":1,"edits":[)";
        for (size_t i = 0; i < count; ++i) text += (i ? "," : "") + entry(i, i + 1);
        return text + "]}";
    };
    const edit::Journal big = edit::parse_journal(journal_of(edit::kMaxJournalRecords), "big");
    CHECK(big.records.size() == edit::kMaxJournalRecords);
    CHECK(big.next_sequence == edit::kMaxJournalRecords + 1);
    CHECK_THROWS_AS(edit::parse_journal(journal_of(edit::kMaxJournalRecords + 1), "too big"), edit::EditStoreError);
    const std::string wraps = R"({"gcfs_edits":1,"image":"k","next_sequence":1,"edits":[)" + entry(0, UINT64_MAX) + "]}";
    CHECK_THROWS_AS(edit::parse_journal(wraps, "wraps"), edit::EditStoreError);
    CHECK_THROWS_AS(edit::parse_journal(R"({"gcfs_edits":1,"image":"k","next_sequence":18446744073709551615,"edits":[]})", "next"),
                    edit::EditStoreError);
    // An applied edit refused later: the refusal is the last line; a status's escape is shown as \x1b.
    edit::Journal j;
    j.image_key = "k";
    j.records.push_back({"LEVEL00/a.png", edit::EditState::applied, "fine", 1, 100});
    j.records.push_back({"LEVEL00/b.png", edit::EditState::applied, "bad \x1b[31m", 2, 100});
    j.records[0].last_refusal = "too big";
    j.records[0].refusal_sequence = 3;
    const std::string shown = edit::render_journal(j, "/e");
    CHECK(shown.find('\x1b') == std::string::npos);
    CHECK(shown.find("\\x1b") != std::string::npos);
    const auto last_line = shown.substr(shown.rfind('\n', shown.size() - 2) + 1);
    CHECK(last_line.starts_with("refused  LEVEL00/a.png  too big"));
    const edit::Journal reread = edit::parse_journal(edit::write_journal_text(j), "again");
    CHECK(reread.records[0].refusal_sequence == 3);
    CHECK(reread.next_sequence == 4);
}

TEST_CASE("ties.csv's two copies of a position: the one a save changed wins, judged against what was shown") {
    const std::string other = "index,x\n0,1\n";
    const auto disc = tree::open_disc(small_disc().path, 16 << 20);
    const std::string ties = file_text(*disc, "LEVEL00/gameplay/ties.csv");
    auto with = [&](const std::string& text, const std::string& column, const std::string& value) {
        std::vector<std::string> lines;
        std::istringstream in(text);
        for (std::string l; std::getline(in, l);) lines.push_back(l);
        std::vector<std::string> header, cells;
        std::istringstream h(lines[0]), c(lines[1]);
        for (std::string x; std::getline(h, x, ',');) header.push_back(x);
        for (std::string x; std::getline(c, x, ',');) cells.push_back(x);
        cells[std::find(header.begin(), header.end(), column) - header.begin()] = value;
        lines[1] = fmt::format("{}", fmt::join(cells, ","));
        return fmt::format("{}\n", fmt::join(lines, "\n"));
    };
    const std::string col3_changed = with(ties, "col3_z", "99.5");
    const std::string out = formats::gameplay::reconcile_positions("ties.csv", col3_changed, ties);
    CHECK(out == with(col3_changed, "pos_z", "99.5"));
    const std::string pos_changed = with(ties, "pos_y", "-3.25");
    CHECK(formats::gameplay::reconcile_positions("ties.csv", pos_changed, ties) == with(pos_changed, "col3_y", "-3.25"));
    CHECK_THROWS_AS(formats::gameplay::reconcile_positions("ties.csv", with(col3_changed, "pos_z", "1.5"), ties), std::invalid_argument);
    CHECK(formats::gameplay::reconcile_positions("cameras.csv", other, "") == other);  // any other file as it is
}
