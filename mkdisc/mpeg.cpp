#include "mkdisc/mpeg.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "formats/audio/vag.h"
#include "formats/mpeg/mpeg_wad.h"
#include "formats/mpeg/pss.h"
#include "formats/mpeg/subtitles.h"
#include "mkdisc/wad_layout.h"

namespace gcfs::mkdisc {
namespace {

using namespace formats;
using namespace formats::mpeg;

using Cue = std::pair<std::pair<int16_t, int16_t>, std::array<std::string, 5>>;  // frames, text per language

// Text in the game's 8-bit bytes: the European letters of Windows-1252
// (é ü ß ¿ ¡ è à ñ), and 0x80, 0x85, 0x99 (€ … ™) from its high rows.
const std::vector<std::vector<Cue>> kCues = {
    {{{30, 95}, {"Hello, Ratchet.", "Bonjour, Ratchet \xe9t\xe9.", "Gr\xfc\xdf" "e, Ratchet.", "\xbfHola, Ratchet?", "Ciao, Ratchet \xe8 qui."}},
     {{120, 211}, {"Clank, the bolts!", "Clank, les boulons !", "Clank, die Schrauben! \x80", "\xa1" "Clank, los tornillos!", ""}},
     {{300, 451}, {"Two lines:\nthe second one.", "Deux lignes\xa0:\nla seconde\x85", "Zwei Zeilen:\ndie zweite.", "Dos l\xedneas:\nla segunda.", "Due righe \x99"}}},
    {{{15, 60}, {"Only subtitles here.", "Rien que des sous-titres.", "Nur Untertitel.", "Solo subt\xedtulos.", "Solo sottotitoli \xe0 parte."}}},
    {{{0, 45}, {"The last slot.", "Le dernier.", "Der letzte.", "El \xfaltimo.", "L'ultimo."}},
     {{60, 120}, {"Ma\xf1" "ana!", "Demain !", "Morgen!", "\xa1Ma\xf1" "ana!", "Domani!"}}},
};

Bytes subtitle_blob(const std::vector<Cue>& cues) {
    std::vector<std::array<std::string, 5>> texts;
    std::vector<std::pair<int16_t, int16_t>> frames;
    for (const auto& [f, t] : cues) {
        frames.push_back(f);
        texts.push_back(t);
    }
    return write_subtitles(texts, frames);
}

// A sound track as long as `frames` pictures at 29.97 per second, whole
// 512-byte blocks (pss_audio.h): a tone per channel, 440 Hz and up by fifths.
Bytes sound(int frames, uint32_t channels, uint32_t rate) {
    constexpr uint32_t kInterleave = 512;
    constexpr uint64_t kBlockSamples = kInterleave / 16 * 28;
    const uint64_t wanted = static_cast<uint64_t>(frames) * 1001 * rate / 30000;
    const uint64_t samples = (wanted + kBlockSamples - 1) / kBlockSamples * kBlockSamples;
    std::vector<Bytes> tracks;
    for (uint32_t c = 0; c < channels; ++c) {
        std::vector<int16_t> pcm(samples);
        const double hz = 440.0 * std::pow(1.5, c);
        for (uint64_t i = 0; i < samples; ++i)
            pcm[i] = static_cast<int16_t>(std::lround(9000 * std::sin(2 * M_PI * hz * static_cast<double>(i) / rate)));
        tracks.push_back(formats::audio::encode_adpcm(pcm, {.loop = std::nullopt, .end_frame = false}));
    }
    return write_audio_stream(tracks, rate, kInterleave);
}

// `frames` pictures of 64×48: the slot's colour, a lit macroblock moving along the middle row.
Bytes video(int slot, int frames, const Bytes& sound_track = {}) {
    const YCbCr background{static_cast<uint8_t>(40 + 20 * (slot % 5)), static_cast<uint8_t>(90 + 30 * (slot % 4)),
                           static_cast<uint8_t>(170 - 25 * (slot % 3))};
    const YCbCr lit{220, 128, 128};
    std::vector<FlatPicture> pictures;
    for (int f = 0; f < frames; ++f) {
        FlatPicture p;
        for (int mb = 0; mb < 12; ++mb) p.macroblocks.push_back(mb == 4 + f % 4 ? lit : background);
        pictures.push_back(std::move(p));
    }
    return write_pss(64, 48, pictures, sound_track);
}

}  // namespace

Bytes mpeg_wad(const std::vector<Damage>& damage) {
    auto has = [&](Damage kind) { return std::find(damage.begin(), damage.end(), kind) != damage.end(); };
    WadLayout wad(kMpegHeaderSize);
    auto add = [&](const Bytes& item) { return wad.add_exact(item); };
    std::array<std::pair<SectorByteRange, SectorByteRange>, kMpegSlots> slots{};
    Bytes first = subtitle_blob(kCues[0]);
    // §4: a string offset past its blob (record 1, German).
    if (has(Damage::subtitle_offset)) {
        const auto past = static_cast<uint16_t>(first.size() + 0x10);
        first[16 + 4 + 2 * 2] = static_cast<uint8_t>(past);
        first[16 + 4 + 2 * 2 + 1] = static_cast<uint8_t>(past >> 8);
    }
    slots[0] = {add(first), add(video(0, 16, sound(16, 2, 48000)))};  // stereo sound, as PSS files have
    slots[1].second = add(video(1, 12, sound(12, 1, 44100)));  // a video without subtitles, mono sound
    slots[2].second = add(video(2, 10, sound(10, 1, 22050)));  // a rate DVD LPCM cannot carry
    slots[3].first = add(subtitle_blob(kCues[1]));  // subtitles without a video
    slots[49] = {add(subtitle_blob(kCues[2])), add(video(49, 20))};  // the last slot: no sound
    if (has(Damage::video_extent)) slots[1].second.offset = wad.sector() + 2;
    return wad.finish(write_mpeg_header(slots));
}

}  // namespace gcfs::mkdisc
