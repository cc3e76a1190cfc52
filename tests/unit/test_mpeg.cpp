// The MPEG WAD, subtitles and SubRip (formats-globals.md §4): the vector's
// slots, videos, subtitle times and texts as Wrench's unpacker read them;
// its bad variants fail their slot's subtitles alone; the builder's program
// streams are well formed, and their sound tracks read back.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "formats/audio/vag.h"
#include "formats/audio/wav.h"
#include "formats/mpeg/mpeg_wad.h"
#include "formats/mpeg/pss.h"
#include "formats/mpeg/pss_mpg.h"
#include "formats/mpeg/subtitles.h"
#include "mkdisc/mpeg.h"
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

namespace {

// Two channels of PS-ADPCM, whole 512-byte blocks: a rising and a falling ramp.
std::vector<Bytes> two_tracks(uint64_t blocks) {
    std::vector<Bytes> tracks;
    for (int c = 0; c < 2; ++c) {
        std::vector<int16_t> pcm(blocks * 896);
        for (size_t i = 0; i < pcm.size(); ++i) pcm[i] = static_cast<int16_t>((c ? -1 : 1) * static_cast<int>(i % 4000) * 5);
        tracks.push_back(audio::encode_adpcm(pcm, {.loop = std::nullopt, .end_frame = false}));
    }
    return tracks;
}

std::vector<FlatPicture> grey(size_t count) {
    std::vector<FlatPicture> pictures(count);
    for (auto& p : pictures) p.macroblocks.assign(12, YCbCr{120, 128, 128});
    return pictures;
}

}  // namespace

TEST_CASE("a PSS's sound track: private stream 1 packets whose payloads join into the SPU stream, decoded channel by channel") {
    const std::vector<Bytes> tracks = two_tracks(5);
    const Bytes stream = write_audio_stream(tracks, 48000, 512);
    REQUIRE(stream.size() == kSpuStreamHeader + 2 * tracks[0].size());
    const Bytes pss = write_pss(64, 48, grey(3), stream);  // more sound than three pictures carry: the rest after them
    Bytes joined;
    REQUIRE(walk_pss(pss, [&](const PssPiece& piece) {
                joined.insert(joined.end(), piece.payload.begin(), piece.payload.end());
                return true;
            }).ok());
    CHECK(joined == stream);
    const auto head = pss_sound_header(ByteSpan(pss).first(4096));
    REQUIRE(head.ok());
    REQUIRE(head->has_value());
    CHECK((*head)->channels == 2);
    CHECK((*head)->sample_rate == 48000);
    CHECK((*head)->samples() == 5 * 896);
    const auto wav = pss_sound_wav(pss);
    REQUIRE(wav.ok());
    REQUIRE(wav->size() == audio::wav_size((*head)->wav()));
    // Each channel decoded alone, its frames in one run: the WAV interleaves exactly those samples.
    for (int c = 0; c < 2; ++c) {
        std::vector<int16_t> want(5 * 896);
        audio::AdpcmHistory history;
        REQUIRE(audio::decode_frames(tracks[static_cast<size_t>(c)], 5 * 32, history, want).ok());
        for (size_t i = 0; i < want.size(); i += 97) {
            CAPTURE(i);
            const size_t at = 44 + 2 * (2 * i + static_cast<size_t>(c));
            CHECK(static_cast<int16_t>((*wav)[at] | (*wav)[at + 1] << 8) == want[i]);
        }
    }
    CHECK_FALSE(pss_sound_header(write_pss(64, 48, grey(2)))->has_value());  // no sound track, no WAV
}

TEST_CASE("a PSS's sound track is held to its headers: each check fails naming the byte in the PSS") {
    const Bytes stream = write_audio_stream(two_tracks(2), 22050, 512);
    const Bytes pss = write_pss(64, 48, grey(2), stream);
    const auto first = std::search(pss.begin(), pss.end(), stream.begin(), stream.begin() + 4);  // "SShd"
    REQUIRE(first != pss.end());
    const uint64_t sshd = static_cast<uint64_t>(first - pss.begin());
    auto with = [&](uint64_t at, uint32_t value) {
        Bytes b = pss;
        for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(value >> (8 * i));
        return b;
    };
    struct Case {
        const char* what;
        Bytes pss;
        const char* says;
    };
    const Case cases[] = {
        {"16-bit PCM", with(sshd + 8, 1), "sound type 1"},
        {"nine channels", with(sshd + 16, 9), "9 channels"},
        {"an interleave of no whole frames", with(sshd + 20, 500), "interleave 500"},
        {"a body past the packets", with(sshd + 36, static_cast<uint32_t>(stream.size())), "whole blocks"},
        {"a body short of the packets", with(sshd + 36, 1024), "SSbd declares 1024 bytes"},
        {"a rate of 0", with(sshd + 12, 0), "sample rate 0"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what);
        const auto wav = pss_sound_wav(c.pss);
        REQUIRE_FALSE(wav.ok());
        CHECK_MESSAGE(wav.error().message.find(c.says) != std::string::npos, wav.error().message);
        CHECK(wav.error().offset >= sshd);  // a byte of the PSS, not of the joined track
        CHECK(wav.error().offset < sshd + 40);
    }
    // A packet that runs past the bytes: the walk stops with the packet's byte.
    const auto cut = pss_sound_wav(ByteSpan(pss).first(sshd + 100));
    REQUIRE_FALSE(cut.ok());
    CHECK(cut.error().code == Errc::truncated);
    // A damaged frame (predictor 5) names its byte too.
    Bytes damaged = pss;
    damaged[sshd + 40 + 16 * 3] = 0x50;
    const auto frame = pss_sound_wav(damaged);
    REQUIRE_FALSE(frame.ok());
    CHECK(frame.error().offset == sshd + 40 + 16 * 3);
}

TEST_CASE("NN.mpg: the PSS's bytes in order with the sound added as DVD LPCM packets, at the size the headers give") {
    const std::vector<Bytes> tracks = two_tracks(3);
    const Bytes pss = write_pss(64, 48, grey(4), write_audio_stream(tracks, 44100, 512));
    const auto head = pss_sound_header(pss);
    REQUIRE(head.ok());
    REQUIRE(head->has_value());
    REQUIRE(lpcm_carries(**head));
    const auto mpg = pss_to_mpg(pss);
    REQUIRE(mpg.ok());
    CHECK(mpg->size() == mpg_size(pss.size(), **head));
    // Take the LPCM packets out again: what is left is the PSS, byte for byte; their samples
    // (big-endian after a 7-byte sub-stream and LPCM header) are the WAV's.
    Bytes rest, samples;
    uint64_t lpcm_packets = 0;
    const auto walked = walk_pss(*mpg, [&](const PssPiece& piece) {
        const bool lpcm = (*mpg)[piece.begin + 3] == kPrivateStream1 && (*mpg)[piece.begin + 9 + (*mpg)[piece.begin + 8]] == kLpcmSubStream;
        if (!lpcm) {
            rest.insert(rest.end(), mpg->begin() + static_cast<std::ptrdiff_t>(piece.begin), mpg->begin() + static_cast<std::ptrdiff_t>(piece.end));
            return true;
        }
        ++lpcm_packets;
        const uint64_t data = piece.begin + 9 + (*mpg)[piece.begin + 8] + 7;
        CHECK((*mpg)[data - 2] == (2 << 4 | 1));  // 44.1 kHz is code 2; two channels
        samples.insert(samples.end(), mpg->begin() + static_cast<std::ptrdiff_t>(data), mpg->begin() + static_cast<std::ptrdiff_t>(piece.end));
        return true;
    });
    REQUIRE(walked.ok());
    rest.insert(rest.end(), mpg->begin() + static_cast<std::ptrdiff_t>(*walked), mpg->end());
    CHECK(rest == pss);
    CHECK(lpcm_packets == (3 * 896 + 999) / 1000);
    const auto wav = pss_sound_wav(pss);
    REQUIRE(wav.ok());
    REQUIRE(samples.size() == wav->size() - 44);
    for (size_t i = 0; i + 1 < samples.size(); i += 2) {
        if (samples[i] != (*wav)[44 + i + 1] || samples[i + 1] != (*wav)[44 + i]) {
            FAIL_CHECK("sample byte " << i << " differs");
            break;
        }
    }
    // A rate DVD LPCM has no code for: no MPEG.
    const Bytes odd = write_pss(64, 48, grey(2), write_audio_stream(two_tracks(1), 22050, 512));
    CHECK_FALSE(lpcm_carries(**pss_sound_header(odd)));
    const auto refused = pss_to_mpg(odd);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("22050 Hz") != std::string::npos);
}

TEST_CASE("the disc builder's cutscenes carry sound: stereo 48 kHz, mono 44.1 and 22.05 kHz, and one without") {
    const Bytes wad = mkdisc::mpeg_wad({});
    const auto slots = parse_mpeg_wad(wad, wad.size());
    REQUIRE(slots.ok());
    std::map<int, std::optional<SpuStreamHeader>> sound;
    for (const MpegSlot& slot : *slots)
        if (!slot.video.empty()) {
            const auto head = pss_sound_header(ByteSpan(wad).subspan(slot.video.byte_offset(), slot.video.byte_size()));
            REQUIRE(head.ok());
            sound[slot.index] = *head;
        }
    REQUIRE(sound.size() == 4);
    REQUIRE(sound[0].has_value());
    CHECK(sound[0]->channels == 2);
    CHECK(sound[0]->sample_rate == 48000);
    REQUIRE(sound[1].has_value());
    CHECK(sound[1]->channels == 1);
    CHECK(sound[1]->sample_rate == 44100);
    REQUIRE(sound[2].has_value());
    CHECK(sound[2]->sample_rate == 22050);
    CHECK_FALSE(sound[49].has_value());
}

}  // namespace test_mpeg
