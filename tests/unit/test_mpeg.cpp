// The MPEG WAD, subtitles and SubRip (formats-globals.md §4): the vector's
// slots, videos, subtitle times and texts as Wrench's unpacker read them;
// its bad variants fail their slot's subtitles alone; the builder's program
// streams are well formed.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <regex>
#include <sstream>

#include "formats/mpeg/mpeg_wad.h"
#include "formats/mpeg/pss.h"
#include "formats/mpeg/subtitles.h"
#include "tests/unit/gameplay_vectors.h"

namespace test_mpeg {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats;
using namespace gcfs::formats::mpeg;

namespace {

Bytes wad_bytes(const std::string& name) { return test::read_bytes(test::shared_path("vectors/globals/mpeg/" + name + ".wad")); }
std::string record(const std::string& name) { return test::read_text(test::shared_path("vectors/globals/mpeg/" + name + ".wrench.txt")); }

Bytes unhex(const std::string& hex) {
    Bytes out;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
    return out;
}

struct ListedSubtitle {
    int start = 0, stop = 0;
    double start_time = 0, stop_time = 0;  // Wrench's float32s, from its .asset
    std::vector<Bytes> texts;
};

// "  start   30 -> 1.001000 s, stop   95 -> 3.169833 s" then five "      <lang>  b'...'  hex ..." lines.
std::vector<ListedSubtitle> listed_subtitles(const std::string& text) {
    std::vector<ListedSubtitle> out;
    const std::regex times(R"(  start\s+(\d+) -> [\d.]+ s, stop\s+(\d+) -> [\d.]+ s)");
    const std::regex language(R"(      \w+\s+b['"].*['"]\s+hex ?([0-9a-f]*))");
    const std::regex asset_time(R"(\s+: \t\t\t(start|stop)_time: ([\d.]+))");
    std::istringstream in(text);
    std::vector<double> starts, stops;
    for (std::string l; std::getline(in, l);) {
        std::smatch m;
        if (std::regex_match(l, m, times)) out.push_back({std::stoi(m[1]), std::stoi(m[2])});
        else if (std::regex_match(l, m, language) && !out.empty()) out.back().texts.push_back(unhex(m[1]));
        else if (std::regex_match(l, m, asset_time)) (m[1] == "start" ? starts : stops).push_back(std::stod(m[2]));
    }
    REQUIRE(starts.size() == out.size());
    REQUIRE(stops.size() == out.size());
    for (size_t i = 0; i < out.size(); ++i) {
        out[i].start_time = starts[i];
        out[i].stop_time = stops[i];
    }
    return out;
}

}  // namespace

TEST_CASE("the MPEG vector: slots, exact video ranges, subtitle frames, times and texts as Wrench read them") {
    const Bytes wad = wad_bytes("mpeg_gc");
    const auto slots = parse_mpeg_wad(wad, wad.size());
    REQUIRE_MESSAGE(slots.ok(), slots.error().describe());
    REQUIRE(slots->size() == 2);  // slots 1 and 2 are empty
    const MpegSlot& first = (*slots)[0];
    const MpegSlot& fourth = (*slots)[1];
    CHECK(first.index == 0);
    CHECK(fourth.index == 3);
    CHECK(first.video.size_bytes == 2924);  // Wrench's video_ntsc.pss: exactly size_bytes
    CHECK(fourth.video.size_bytes == 2500);
    CHECK(fourth.subtitles.empty());
    CHECK(first.video_error.empty());
    CHECK(starts_with_pack_header(ByteSpan(wad).subspan(first.video.byte_offset(), 4)));

    const auto subs = parse_subtitles(ByteSpan(wad).subspan(first.subtitles.byte_offset(), first.subtitles.byte_size()));
    REQUIRE_MESSAGE(subs.ok(), subs.error().describe());
    const auto listed = listed_subtitles(record("mpeg_gc"));
    REQUIRE(listed.size() == 3);
    REQUIRE(subs->size() == listed.size());
    for (size_t i = 0; i < listed.size(); ++i) {
        CAPTURE(i);
        CHECK((*subs)[i].start_frame == listed[i].start);
        CHECK((*subs)[i].stop_frame == listed[i].stop);
        REQUIRE(listed[i].texts.size() == 5);
        for (size_t l = 0; l < 5; ++l) CHECK((*subs)[i].text[l] == listed[i].texts[l]);
        // Wrench's seconds (float32) and gcfs's milliseconds agree to the millisecond.
        CHECK(frame_milliseconds(listed[i].start, VideoRegion::ntsc) == std::llround(listed[i].start_time * 1000));
        CHECK(frame_milliseconds(listed[i].stop, VideoRegion::ntsc) == std::llround(listed[i].stop_time * 1000));
    }
}

TEST_CASE("SubRip from the vector: numbered cues, NTSC times, UTF-8, an empty string skipped") {
    const Bytes wad = wad_bytes("mpeg_gc");
    const MpegSlot slot = (*parse_mpeg_wad(wad, wad.size()))[0];
    const auto subs = parse_subtitles(ByteSpan(wad).subspan(slot.subtitles.byte_offset(), slot.subtitles.byte_size()));
    CHECK(subrip(*subs, 2, VideoRegion::ntsc) ==
          "1\n00:00:01,001 --> 00:00:03,170\nGr\u00fc\u00dfe, Ratchet.\n\n"
          "2\n00:00:04,004 --> 00:00:07,040\nClank, die Schrauben! \u20ac\u2122\n\n"
          "3\n00:00:10,010 --> 00:00:15,048\nZeile drei\n\n");
    const std::string italian = subrip(*subs, 4, VideoRegion::ntsc);  // record 1's Italian is empty
    CHECK(italian.find("2\n00:00:10,010") != std::string::npos);
    CHECK(italian.find("00:00:04,004") == std::string::npos);
    CHECK(subrip(*subs, 0, VideoRegion::pal).find("00:00:01,200 --> 00:00:03,800") != std::string::npos);
}

TEST_CASE("the game's text bytes as UTF-8: Windows-1252 above 0x7F, U+FFFD for what it leaves undefined") {
    const Bytes text = {'a', 0xE9, 0x80, 0x81, 0x85, 0x01, '\r', '\n', '\n', 'b', '\n'};
    CHECK(game_text_utf8(text) == "a\u00e9\u20ac\ufffd\u2026\ufffd\nb");
}

TEST_CASE("a bad subtitle offset fails that slot's subtitles, naming the field") {
    for (const auto& item : {std::tuple{"mpeg_gc_bad_negative_offset", "negative", 16 + 4 + 4},
                             std::tuple{"mpeg_gc_bad_offset_past_end", "past the", 32 + 4 + 6}}) {
        const auto& name = std::get<0>(item);
        const auto& says = std::get<1>(item);
        const auto& field = std::get<2>(item);
        CAPTURE(name);
        const Bytes wad = wad_bytes(name);
        const auto slots = parse_mpeg_wad(wad, wad.size());
        REQUIRE(slots.ok());  // the WAD and its videos stand
        const MpegSlot& slot = (*slots)[0];
        const auto subs = parse_subtitles(ByteSpan(wad).subspan(slot.subtitles.byte_offset(), slot.subtitles.byte_size()));
        REQUIRE(!subs.ok());
        CHECK(subs.error().message.find(says) != std::string::npos);
        CHECK(subs.error().offset == static_cast<uint64_t>(field));
    }
}

TEST_CASE("subtitle tables: the writer's layout reads back; a table without its end record fails") {
    const Bytes blob = write_subtitles({{"one", "un", "eins", "uno", ""}, {"two", "deux", "zwei", "dos", "due"}}, {{1, 2}, {3, 4}});
    const auto back = parse_subtitles(blob);
    REQUIRE(back.ok());
    REQUIRE(back->size() == 2);
    CHECK(back->at(1).stop_frame == 4);
    CHECK(std::string(back->at(1).text[3].begin(), back->at(1).text[3].end()) == "dos");
    for (const auto& s : *back)
        for (int16_t o : s.offsets) CHECK(o % 4 == 0);  // Wrench pads each string to 4
    CHECK(!parse_subtitles(ByteSpan(blob).first(16)).ok());
    const Bytes no_nul = {0, 0, 0, 0, 0x14, 0, 0x14, 0, 0x14, 0, 0x14, 0, 0x14, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 'x'};
    CHECK(parse_subtitles(no_nul).error().message.find("no NUL") != std::string::npos);
}

TEST_CASE("SubRip cues: sorted by start (stable), none for a blank string or a record of no time; an edit pairs cues the same way") {
    // Out of time order; a string of spaces and an empty one; stop = start; two equal starts.
    const Bytes blob = write_subtitles({{"late", "", "", "", ""}, {"early", "", "", "", ""}, {"   ", "", "", "", ""}, {"", "", "", "", ""},
                                        {"instant", "", "", "", ""}, {"tie a", "", "", "", ""}, {"tie b", "", "", "", ""}},
                                       {{300, 330}, {30, 60}, {90, 120}, {150, 180}, {200, 200}, {100, 110}, {100, 115}});
    const auto records = parse_subtitles(blob);
    REQUIRE(records.ok());
    CHECK(cue_records(*records, 0) == std::vector<size_t>{1, 5, 6, 0});
    const std::string srt = subrip(*records, 0, VideoRegion::pal);
    CHECK(srt ==
          "1\n00:00:01,200 --> 00:00:02,400\nearly\n\n"
          "2\n00:00:04,000 --> 00:00:04,400\ntie a\n\n"
          "3\n00:00:04,000 --> 00:00:04,600\ntie b\n\n"
          "4\n00:00:12,000 --> 00:00:13,200\nlate\n\n");
    // The file as shown encodes to the same table; a cue edited in place changes its own record.
    std::string note;
    const auto same = import_subrip(blob, 0, srt, VideoRegion::pal, note);
    REQUIRE(same.ok());
    CHECK(*same == blob);
    std::string edited = srt;
    edited.replace(edited.find("tie b"), 5, "tie B");
    const auto changed = import_subrip(blob, 0, edited, VideoRegion::pal, note);
    REQUIRE(changed.ok());
    const auto back = parse_subtitles(*changed);
    REQUIRE(back.ok());
    CHECK(std::string(back->at(6).text[0].begin(), back->at(6).text[0].end()) == "tie B");
    // A cue made blank, or given no time, would vanish: refused.
    std::string blanked = srt;
    blanked.replace(blanked.find("early"), 5, "  ");
    CHECK_FALSE(import_subrip(blob, 0, blanked, VideoRegion::pal, note).ok());
    std::string timeless = srt;
    timeless.replace(timeless.find("00:00:02,400"), 12, "00:00:01,200");
    CHECK_FALSE(import_subrip(blob, 0, timeless, VideoRegion::pal, note).ok());
}

TEST_CASE("MPEG WAD ranges past the file's end fail their slot's part alone") {
    std::array<std::pair<SectorByteRange, SectorByteRange>, kMpegSlots> slots{};
    slots[0] = {{1, 100}, {2, 3000}};
    slots[49] = {{0, 0}, {4, 5000}};
    const Bytes header = write_mpeg_header(slots);
    CHECK(header.size() == kMpegHeaderSize);
    const auto parsed = parse_mpeg_wad(header, 5 * kSectorSize);
    REQUIRE(parsed.ok());
    REQUIRE(parsed->size() == 2);
    CHECK(parsed->at(0).video_error.empty());
    CHECK(parsed->at(1).index == 49);
    CHECK(parsed->at(1).video_error.find("header byte 0x320") != std::string::npos);
}

TEST_CASE("the builder's PSS: packs, one system header, a PES per picture, the end code") {
    std::vector<FlatPicture> pictures(3);
    for (auto& p : pictures) p.macroblocks.assign(12, YCbCr{200, 100, 150});
    const Bytes pss = write_pss(64, 48, pictures);
    CHECK(starts_with_pack_header(pss));
    auto count = [&](uint8_t code) {
        int n = 0;
        for (size_t i = 0; i + 4 <= pss.size(); ++i) n += pss[i] == 0 && pss[i + 1] == 0 && pss[i + 2] == 1 && pss[i + 3] == code;
        return n;
    };
    CHECK(count(0xBA) == 3);
    CHECK(count(0xBB) == 1);
    CHECK(count(0xE0) == 3);
    CHECK(count(0x00) == 3);  // picture start codes
    CHECK(count(0x01) == 3);  // the first slice of each picture (three rows: 0x01..0x03)
    CHECK(count(0xB7) == 1);
    CHECK(std::equal(pss.end() - 4, pss.end(), Bytes{0, 0, 1, 0xB9}.begin()));
    CHECK_THROWS(write_pss(60, 48, pictures));
}

}  // namespace test_mpeg
