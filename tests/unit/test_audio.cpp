// VAG, PS-ADPCM, WAV and the AUDIO WADs (formats-globals.md §1-3): the
// global AUDIO vectors decode as Wrench's unpacker cut them (entries,
// extents, sizes, samples, tones), their bad variants fail one entry each,
// the encoder round-trips within a stated bound, and every check says where.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <numbers>
#include <regex>
#include <sstream>

#include "formats/audio/audio_wad.h"
#include "formats/audio/vag.h"
#include "formats/audio/wav.h"
#include "mkdisc/audio.h"
#include "tests/unit/gameplay_vectors.h"

namespace test_audio {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats;
using namespace gcfs::formats::audio;

namespace {

Bytes wad_bytes(const std::string& name) { return test::read_bytes(test::shared_path("vectors/globals/audio/" + name + ".wad")); }
std::string record(const std::string& name) { return test::read_text(test::shared_path("vectors/globals/audio/" + name + ".wrench.txt")); }

// "vendor[0]" -> its entry.
std::map<std::string, GlobalAudioEntry> entries_of(const GlobalAudioWad& wad) {
    std::map<std::string, GlobalAudioEntry> out;
    for (const auto& e : wad.entries) out[fmt::format("{}[{}]", kGlobalAudioTables[e.table].name, e.index)] = e;
    return out;
}

struct Listed {
    int start = 0, extent = 0;
    uint32_t data_size = 0, hz = 0, rate = 0;
    int frames = 0;  // ADPCM frames before the end frame
    bool alias = false, bad = false;
};

// The record's "Entries" lines, in Wrench's words.
std::map<std::string, Listed> listed_entries(const std::string& text) {
    std::map<std::string, Listed> out;
    const std::regex line(R"(  (\w+\[\d+\])\s+start\s+(\d+)\s+extent (\w+) sectors \| (.*))");
    const std::regex vag(R"(VAG \d+ B \(data_size (\d+)\), \w+, (\d+) Hz sine at (\d+) Hz, \d+ samples, (\d+) ADPCM frames\+end.*)");
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        std::smatch m, v;
        if (!std::regex_match(l, m, line)) continue;
        Listed e{std::stoi(m[2]), m[3] == "None" ? 0 : std::stoi(m[3])};
        const std::string rest = m[4];
        if (std::regex_match(rest, v, vag)) {
            e.data_size = static_cast<uint32_t>(std::stoul(v[1]));
            e.hz = static_cast<uint32_t>(std::stoul(v[2]));
            e.rate = static_cast<uint32_t>(std::stoul(v[3]));
            e.frames = std::stoi(v[4]);
        }
        e.alias = rest.find("alias") != std::string::npos;
        e.bad = rest.find("deliberately bad") != std::string::npos;
        out[m[1]] = e;
    }
    return out;
}

// Frequency from interpolated rising zero crossings over the first 90%.
double tone_of(const std::vector<int16_t>& s, uint32_t rate) {
    std::vector<double> crossings;
    for (size_t i = 1; i < s.size() * 9 / 10; ++i)
        if (s[i - 1] < 0 && s[i] >= 0) crossings.push_back(static_cast<double>(i - 1) + s[i - 1] / static_cast<double>(s[i - 1] - s[i]));
    if (crossings.size() < 2) return 0;
    return rate * static_cast<double>(crossings.size() - 1) / (crossings.back() - crossings.front());
}

std::vector<int16_t> decode_vag(ByteSpan vag, uint64_t available) {
    const auto header = parse_vag_header(vag, available);
    REQUIRE_MESSAGE(header.ok(), header.error().describe());
    const ByteSpan data = vag.subspan(kVagHeaderSize, header->data_size);
    const auto scan = scan_vag(data);
    REQUIRE_MESSAGE(scan.ok(), scan.error().describe());
    std::vector<int16_t> pcm(scan->samples());
    AdpcmHistory history;
    REQUIRE(decode_frames(data, scan->sample_frames, history, pcm).ok());
    return pcm;
}

}  // namespace

TEST_CASE("the global AUDIO vectors decode to Wrench's entries, extents and tones") {
    for (const char* name : {"audio_gc", "audio_gc_unpadded_end"}) {
        CAPTURE(name);
        const Bytes wad = wad_bytes(name);
        const auto parsed = parse_global_audio(wad, wad.size());
        REQUIRE_MESSAGE(parsed.ok(), parsed.error().describe());
        const auto entries = entries_of(*parsed);
        const auto listed = listed_entries(record(name));
        REQUIRE(listed.size() == 9);
        CHECK(entries.size() == listed.size());
        for (const auto& entry : listed) {
            const auto& slot = entry.first;
            const auto& want = entry.second;
            CAPTURE(slot);
            REQUIRE(entries.count(slot));
            const GlobalAudioEntry& e = entries.at(slot);
            CHECK(e.error.empty());
            CHECK(e.start_sector == want.start);
            CHECK(e.span_sectors == static_cast<uint64_t>(want.extent));  // Wrench's file is this many sectors
            if (want.alias) continue;
            const uint64_t at = static_cast<uint64_t>(e.start_sector) * kSectorSize;
            const uint64_t range = std::min<uint64_t>(e.span_sectors * kSectorSize, wad.size() - at);
            const ByteSpan vag = ByteSpan(wad).subspan(at, range);
            const auto header = parse_vag_header(vag, range);
            REQUIRE(header.ok());
            CHECK(header->data_size == want.data_size);
            CHECK(header->sample_rate == want.rate);
            const auto pcm = decode_vag(vag, range);
            CHECK(pcm.size() == static_cast<size_t>(want.frames) * kSamplesPerFrame);  // the record's "own" decode
            CHECK(std::abs(tone_of(pcm, want.rate) - want.hz) < want.hz * 0.01);
        }
        // vendor[253]'s loop flags: frame 10 = 6, 11..79 = 2, 80 = 3.
        const GlobalAudioEntry& looped = entries.at("vendor[253]");
        const ByteSpan data = ByteSpan(wad).subspan(static_cast<uint64_t>(looped.start_sector) * kSectorSize + kVagHeaderSize, 1392);
        const auto scan = scan_vag(data);
        REQUIRE(scan.ok());
        REQUIRE(scan->loop);
        CHECK(scan->loop->start_frame == 10);
        CHECK(scan->loop->end_frame == 80);
    }
}

TEST_CASE("the unpadded AUDIO vector's last VAG lies whole in the file; its span does not") {
    const Bytes wad = wad_bytes("audio_gc_unpadded_end");
    CHECK(wad.size() % kSectorSize != 0);
    const auto entries = entries_of(*parse_global_audio(wad, wad.size()));
    const GlobalAudioEntry& last = entries.at("help_german[255]");
    const uint64_t at = static_cast<uint64_t>(last.start_sector) * kSectorSize;
    CHECK(last.span_sectors * kSectorSize > wad.size() - at);  // Wrench wrote 848 bytes not in the file
    CHECK(parse_vag_header(ByteSpan(wad).subspan(at), wad.size() - at).ok());
}

TEST_CASE("a start past the AUDIO WAD's end fails that entry alone") {
    for (const auto& item : {std::pair{"audio_gc_bad_help_past_end", "help_french[5]"}, std::pair{"audio_gc_bad_vendor_past_end", "vendor[7]"}}) {
        const auto& name = std::get<0>(item);
        const auto& slot = std::get<1>(item);
        CAPTURE(name);
        const Bytes wad = wad_bytes(name);
        const auto parsed = parse_global_audio(wad, wad.size());
        REQUIRE(parsed.ok());
        const auto entries = entries_of(*parsed);
        REQUIRE(entries.count(slot));
        CHECK(entries.at(slot).error.find("the WAD ends at sector 13") != std::string::npos);
        CHECK(entries.at(slot).error.find("header byte 0x") != std::string::npos);
        int failed = 0;
        for (const auto& [s, e] : entries) failed += !e.error.empty();
        CHECK(failed == 1);
        CHECK(entries.size() == 10);  // the nine good entries still stand
    }
}

TEST_CASE("VAG header checks name the byte they fail at") {
    Bytes vag = mkdisc::tone_vag({440, 22050, 0.05, "t"});
    CHECK(parse_vag_header(vag, vag.size()).ok());
    CHECK(parse_vag_header(vag, vag.size() - 1).error().offset == 0x0C);  // data_size past the range
    Bytes magic = vag;
    magic[3] = 'q';
    CHECK(parse_vag_header(magic, magic.size()).error().code == Errc::bad_magic);
    Bytes odd = vag;
    odd[0x0F] ^= 1;  // data_size not whole frames
    CHECK(parse_vag_header(odd, odd.size() + 16).error().code == Errc::bad_value);
    Bytes rate = vag;
    std::fill(rate.begin() + 0x10, rate.begin() + 0x14, 0);
    CHECK(parse_vag_header(rate, rate.size()).error().offset == 0x10);
    Bytes predictor = vag;
    predictor[kVagHeaderSize + 2 * kFrameSize] = 0x52;  // frame 2: predictor 5
    const auto scan = scan_vag(ByteSpan(predictor).subspan(kVagHeaderSize));
    REQUIRE(!scan.ok());
    CHECK(scan.error().offset == 2 * kFrameSize);
    AdpcmHistory history;
    std::vector<int16_t> out(10 * kSamplesPerFrame);
    CHECK(!decode_frames(ByteSpan(predictor).subspan(kVagHeaderSize), 10, history, out).ok());
}

TEST_CASE("frames after the end frame carry no samples; shifts past 12 are counted") {
    Bytes data(4 * kFrameSize, 0);
    data[1 * kFrameSize] = 0x0D;  // shift 13
    data[2 * kFrameSize + 1] = kEndOfStream;
    data[3 * kFrameSize] = 0x70;  // predictor 7 after the end: not looked at
    const auto scan = scan_vag(data);
    REQUIRE(scan.ok());
    CHECK(scan->sample_frames == 2);
    CHECK(scan->end_marked);
    CHECK(scan->wide_shifts == 1);
}

TEST_CASE("PS-ADPCM round trip: RMS error within 0.5% of the amplitude below rate/20, 5% up to rate/5") {
    // Measured on 12000-amplitude sines (the padded last frame counted
    // against silence): 0.07-0.3% below rate/20, 0.6% at 4 kHz / 44.1 and 48 kHz,
    // 4.2% at 4 kHz / 22.05 kHz, where 4-bit steps and five fixed predictors
    // follow a wave of 5.5 samples a period. A decoder or encoder off by a
    // nibble, a shift or a predictor is far outside either bound.
    for (uint32_t rate : {22050u, 44100u, 48000u})
        for (uint32_t hz : {220u, 1000u, 4000u}) {
            CAPTURE(rate);
            CAPTURE(hz);
            std::vector<int16_t> pcm(rate / 4);
            for (size_t i = 0; i < pcm.size(); ++i)
                pcm[i] = static_cast<int16_t>(std::lround(12000 * std::sin(2 * std::numbers::pi * hz * static_cast<double>(i) / rate)));
            const Bytes vag = write_vag(encode_adpcm(pcm), rate, "rt");
            const auto back = decode_vag(vag, vag.size());
            REQUIRE(back.size() == (pcm.size() + kSamplesPerFrame - 1) / kSamplesPerFrame * kSamplesPerFrame);
            double squares = 0;
            for (size_t i = 0; i < back.size(); ++i) {
                const double error = back[i] - (i < pcm.size() ? pcm[i] : 0);
                squares += error * error;
            }
            const double rms = std::sqrt(squares / static_cast<double>(back.size()));
            CHECK(rms <= (hz * 20 <= rate ? 0.005 : 0.05) * 12000);
        }
}

TEST_CASE("the encoder's loop flags and end frame read back") {
    VagEncodeOptions options;
    options.loop = VagLoop{3, 9};
    std::vector<int16_t> pcm(12 * kSamplesPerFrame, 100);
    const Bytes adpcm = encode_adpcm(pcm, options);
    CHECK(adpcm.size() == 13 * kFrameSize);
    CHECK(adpcm[3 * kFrameSize + 1] == (kLoopStart | kLoopRepeat));
    CHECK(adpcm[5 * kFrameSize + 1] == kLoopRepeat);
    CHECK(adpcm[9 * kFrameSize + 1] == (kLoopEnd | kLoopRepeat));
    CHECK(adpcm[12 * kFrameSize + 1] == kEndOfStream);
    const auto scan = scan_vag(adpcm);
    REQUIRE(scan.ok());
    CHECK(scan->sample_frames == 12);
    CHECK(scan->loop->start_frame == 3);
    CHECK(scan->loop->end_frame == 9);
}

TEST_CASE("a WAV's size is arithmetic, with and without its smpl chunk") {
    WavLayout plain{22050, 1, 1000};
    CHECK(wav_size(plain) == 44 + 2000);
    const auto header = wav_header(plain);
    REQUIRE(header.ok());
    CHECK(header->size() == 44);
    CHECK(std::string(header->begin(), header->begin() + 4) == "RIFF");
    CHECK(u32_at(*header, 4) == wav_size(plain) - 8);
    WavLayout looped{48000, 1, 2800, WavLoop{280, 2239}};
    const auto with_loop = wav_header(looped);
    REQUIRE(with_loop.ok());
    CHECK(with_loop->size() == wav_header_size(looped));
    CHECK(wav_size(looped) == 44 + 68 + 5600);
    CHECK(std::string(with_loop->begin() + 36, with_loop->begin() + 40) == "smpl");
    CHECK(u32_at(*with_loop, 36 + 8 + 36 + 8) == 280);   // the loop's first sample
    CHECK(u32_at(*with_loop, 36 + 8 + 36 + 12) == 2239);  // and its last
    CHECK(!wav_header({22050, 1, 3'000'000'000ull}).ok());  // past RIFF's 32 bits
}

TEST_CASE("level AUDIO WADs: slots, named ranges, and a range past the end") {
    LevelAudioHeader h;
    h.bin_data[0] = {3, 1200};
    h.bin_data[510] = {4, 900};
    h.upgrade_sample = {5, 100};
    h.thermanator_thaw = {9, 100};
    const Bytes header = write_level_audio_header(h);
    CHECK(header.size() == kLevelAudioHeaderSize);
    const auto entries = parse_level_audio(header, 6 * kSectorSize);
    REQUIRE(entries.ok());
    REQUIRE(entries->size() == 4);
    CHECK((*entries)[0].name == "sfx_000");
    CHECK((*entries)[1].name == "sfx_510");
    CHECK((*entries)[2].name == "upgrade_sample");
    CHECK((*entries)[2].error.empty());
    CHECK((*entries)[3].name == "thermanator_thaw");
    CHECK((*entries)[3].error.find("header byte 0x1010") != std::string::npos);
    Bytes wrong = header;
    wrong[0] = 0x19;
    CHECK(!parse_level_audio(wrong, 6 * kSectorSize).ok());
}

}  // namespace test_audio
