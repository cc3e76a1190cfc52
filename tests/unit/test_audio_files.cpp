// The sound and video folders of the tree without a mount (formats-globals.md
// §1-4): sizes known at stat, each WAV the serial decode of its VAG byte for
// byte (a long one through the two-thread decode too), the CSVs and
// info.json, and damage confined to the files made from it.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <unistd.h>

#include <cmath>
#include <fstream>
#include <numbers>

#include "disc_fixture.h"
#include "formats/audio/vag.h"
#include "formats/audio/wav.h"
#include "formats/mpeg/mpeg_wad.h"
#include "mkdisc/audio.h"
#include "tree/level/audio_files.h"
#include "tree/verify.h"

namespace test_audio_files {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats::audio;

namespace {

formats::Bytes read_source(const tree::Source& source) {
    formats::Bytes out(source.size());
    const auto got = source.read(0, out);
    REQUIRE_MESSAGE(got.ok(), got.error);
    REQUIRE(got.bytes == out.size());
    return out;
}

formats::Bytes read_path(const tree::Disc& disc, const std::string& path) { return read_source(*node_at(disc, path)->source); }

// What a WAV of `vag` holds, decoded in one go.
formats::Bytes expected_wav(const formats::Bytes& vag) {
    const auto header = parse_vag_header(vag, vag.size()).value();
    const formats::ByteSpan data = formats::ByteSpan(vag).subspan(kVagHeaderSize, header.data_size);
    const auto scan = scan_vag(data).value();
    std::vector<int16_t> pcm(scan.samples());
    AdpcmHistory history;
    (void)decode_frames(data, scan.sample_frames, history, pcm).value();
    WavLayout layout{header.sample_rate, 1, scan.samples()};
    if (scan.loop) layout.loop = WavLoop{scan.loop->start_frame * kSamplesPerFrame, (scan.loop->end_frame + 1) * kSamplesPerFrame - 1};
    formats::Bytes out = wav_header(layout).value();
    const auto* bytes = reinterpret_cast<const uint8_t*>(pcm.data());
    out.insert(out.end(), bytes, bytes + 2 * pcm.size());
    return out;
}

std::vector<std::string> files_under(const tree::Disc& disc, const std::string& folder, const std::string& suffix) {
    std::vector<std::string> out, dirs = {folder};
    while (!dirs.empty()) {
        const std::string dir = dirs.back();
        dirs.pop_back();
        disc.tree.for_each_child(*disc.tree.resolve(dir), 0, [&](const std::string& name, uint64_t, tree::NodeType type) {
            if (type == tree::NodeType::directory) dirs.push_back(dir + "/" + name);
            else if (name.ends_with(suffix)) out.push_back(dir + "/" + name);
            return true;
        });
    }
    return out;
}

}  // namespace

TEST_CASE("every WAV of global/audio and LEVELnn/audio is its VAG's decode, at the size stat gave") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    size_t checked = 0;
    for (const std::string folder : {"global/audio", "LEVEL00/audio", "LEVEL03/audio"}) {
        for (const std::string& vag_path : files_under(*disc, folder, ".vag")) {
            CAPTURE(vag_path);
            const std::string wav_path = vag_path.substr(0, vag_path.size() - 4) + ".wav";
            const uint64_t stat_size = node_at(*disc, wav_path)->source->size();
            const formats::Bytes vag = read_path(*disc, vag_path);
            const formats::Bytes wav = read_path(*disc, wav_path);
            CHECK(wav.size() == stat_size);
            CHECK(wav == expected_wav(vag));
            ++checked;
        }
    }
    CHECK(checked == 14 + 2 * 7);  // 14 global slots (german[2] shares french[2]'s start), 7 per even level
    // vendor[5] loops (the builder's frames 12..200): its WAV carries the smpl chunk.
    const formats::Bytes looped = read_path(*disc, "global/audio/vendor/005.wav");
    CHECK(std::string(looped.begin() + 36, looped.begin() + 40) == "smpl");
    CHECK(formats::u32_at(looped, 36 + 8 + 36 + 8) == 12 * kSamplesPerFrame);
}

TEST_CASE("global/audio: the extent rule, shared recordings, audio.csv and info.json") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    CHECK(read_path(*disc, "global/audio/help/german/002.vag") == read_path(*disc, "global/audio/help/french/002.vag"));
    const std::string csv = [&] { auto b = read_path(*disc, "global/audio/audio.csv"); return std::string(b.begin(), b.end()); }();
    CHECK(csv.starts_with("file,slot,language,sectors,bytes,rate,channels,samples,duration,loop,status,error\n"));
    CHECK(csv.find("vendor/001,1,,3,") != std::string::npos);  // its span takes in the sector no slot names
    CHECK(csv.find("help/german/255,255,german,") != std::string::npos);
    CHECK(csv.find(",failed,") == std::string::npos);
    const auto info = nlohmann::json::parse(read_path(*disc, "global/audio/info.json"));
    CHECK(info["ok"] == true);
    CHECK(info["toc_header_copy"] == "the same bytes but the sector word (+4)");
    CHECK(info["tables"]["help_italian"]["present"] == 0);
    CHECK(info["entries"].size() == 14);
}

TEST_CASE("global/mpeg: video bytes as recorded, its sound as WAV and MPEG, SubRip per language with text, sizes known at stat") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    const formats::Bytes pss = read_path(*disc, "global/mpeg/00.pss");
    CHECK(formats::mpeg::starts_with_pack_header(pss));
    CHECK(disc->tree.resolve("global/mpeg/01.pss"));
    CHECK(!disc->tree.resolve("global/mpeg/01.en.srt"));  // slot 1 has a video only
    CHECK(!disc->tree.resolve("global/mpeg/03.pss"));     // slot 3 subtitles only
    const auto srt = read_path(*disc, "global/mpeg/03.es.srt");
    CHECK(std::string(srt.begin(), srt.end()) == "1\n00:00:00,501 --> 00:00:02,002\nSolo subt\u00edtulos.\n\n");
    const auto info = nlohmann::json::parse(read_path(*disc, "global/mpeg/info.json"));
    CHECK(info["ok"] == true);
    CHECK(info["slots"].size() == 5);
    CHECK(info["slots"][4]["slot"] == 49);
    // Sound: a WAV for each video with a sound track, an MPEG where DVD LPCM can carry its rate.
    for (const char* path : {"global/mpeg/00.wav", "global/mpeg/00.mpg", "global/mpeg/01.wav", "global/mpeg/01.mpg", "global/mpeg/02.wav"})
        CHECK_MESSAGE(disc->tree.resolve(path), path);
    CHECK_FALSE(disc->tree.resolve("global/mpeg/02.mpg"));  // 22.05 kHz
    CHECK_FALSE(disc->tree.resolve("global/mpeg/49.wav"));  // a silent video
    CHECK(read_path(*disc, "global/mpeg/00.mpg").size() == node_at(*disc, "global/mpeg/00.mpg")->source->size());
}

TEST_CASE("damage in the sound and video WADs fails only its files, each naming the byte") {
    DamagedDisc damaged({{mkdisc::Damage::vag_size}, {mkdisc::Damage::vag_predictor, 1}, {mkdisc::Damage::subtitle_offset}}, 42);
    auto disc = tree::open_disc(damaged.path, 64 << 20);
    for (const char* path : {"global/audio/vendor/001.vag", "global/audio/vendor/001.wav"}) {
        CAPTURE(path);
        CHECK(node_at(*disc, path)->source->open_error().find("data_size") != std::string::npos);
    }
    CHECK(node_at(*disc, "LEVEL01/audio/sfx_001.vag")->source->open_error().empty());
    CHECK(node_at(*disc, "LEVEL01/audio/sfx_001.wav")->source->open_error().find("predictor 5") != std::string::npos);
    CHECK(node_at(*disc, "global/mpeg/00.en.srt")->source->open_error().find("mpeg.wad byte 0x") != std::string::npos);
    (void)read_path(*disc, "global/audio/vendor/000.wav");
    (void)read_path(*disc, "global/mpeg/00.pss");
    const tree::DiscVerdict verdict = tree::verify_disc(*disc);
    CHECK(!verdict.ok());
    size_t failures = 0;
    for (const auto& g : verdict.globals) failures += g.failures.size();
    CHECK(failures == 2 + 5);  // vendor/001 .vag and .wav; slot 0's five SubRip files
}

TEST_CASE("a long VAG's WAV, decoded by two threads and read while it fills, is the serial decode byte for byte") {
    // 40 s at 22050 Hz: 31,500 frames, so the second thread starts at the
    // middle with a silent history and the first must meet its state.
    const std::string path = fmt::format("/tmp/gcfs-unit-long-{}.vag", ::getpid());
    const formats::Bytes vag = mkdisc::tone_vag({523, 22050, 40.0, "long", 100, 30000});
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(vag.data()), static_cast<std::streamsize>(vag.size()));
    {
        const tree::Image image(path);
        cache::LruCache cache(256 << 20);
        auto clip = std::make_shared<const tree::VagClip>(image, 0, vag.size(), true, "long.vag");
        const tree::WavFile wav(cache, clip);
        const formats::Bytes expected = expected_wav(vag);
        REQUIRE(wav.size() == expected.size());
        formats::Bytes got(expected.size());
        for (uint64_t at = 0; at < got.size(); at += 131072) {  // the kernel's read size, front to back
            const auto piece = std::span(got).subspan(at, std::min<uint64_t>(131072, got.size() - at));
            const auto outcome = wav.read(at, piece);
            REQUIRE_MESSAGE(outcome.ok(), outcome.error);
            REQUIRE(outcome.bytes == piece.size());
        }
        CHECK(got == expected);
    }
    ::unlink(path.c_str());
}

}  // namespace test_audio_files
