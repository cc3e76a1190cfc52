#include "mkdisc/audio.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "formats/audio/audio_wad.h"
#include "formats/audio/vag.h"
#include "mkdisc/wad_layout.h"

namespace gcfs::mkdisc {
namespace {

using namespace formats;
using namespace formats::audio;

}  // namespace

Bytes tone_vag(const Tone& tone) {
    const auto n = static_cast<size_t>(tone.rate * tone.seconds);
    std::vector<int16_t> pcm(n);
    for (size_t i = 0; i < n; ++i)
        pcm[i] = static_cast<int16_t>(std::lround(12000.0 * std::sin(2 * std::numbers::pi * tone.hz * static_cast<double>(i) / tone.rate)));
    VagEncodeOptions options;
    if (tone.loop_end > 0) options.loop = VagLoop{tone.loop_start, tone.loop_end};
    return write_vag(encode_adpcm(pcm, options), tone.rate, fmt::format("{}Hz {}", tone.hz, tone.slot), tone.channels, tone.version);
}

Bytes global_audio_wad(Scale scale, const std::vector<Damage>& damage) {
    const bool full = scale == Scale::full;
    struct Slot {
        size_t table;
        int index;
        Tone tone;
    };
    // Tables: 0 vendor, 1 english, 2 french, 3 german, 4 spanish, 5 italian (§2).
    std::vector<Slot> slots = {
        {0, 0, {440, 22050, full ? 600.0 : 0.25, "v000"}},
        {0, 1, {523, 24000, 0.15, "v001", 0, 0, 0, 3}},
        {0, 5, {660, 44100, 0.2, "v005", 12, 200}},  // loops over frames 12..200
        {0, 17, {784, 48000, 0.12, "v017"}},
        {0, 253, {880, 22050, 0.18, "v253"}},        // the last vendor slot
        {1, 0, {1000, 22050, 0.2, "en000"}},
        {1, 1, {1100, 22050, 0.15, "en001"}},
        {1, 2, {1200, 44100, 0.1, "en002"}},
        {1, 255, {1300, 22050, 0.1, "en255"}},        // the last help slot
        {2, 0, {500, 22050, 0.2, "fr000"}},
        {2, 2, {1500, 22050, 0.12, "fr002"}},
        {4, 0, {1700, 24000, 0.1, "es000"}},
        {3, 255, {2000, 22050, 0.14, "de255"}},       // the last item in the file
    };
    if (full)
        for (int i = 0; i < 40; ++i) slots.push_back({static_cast<size_t>(1 + i % 5), 10 + i, {static_cast<uint32_t>(300 + 40 * i), 22050, 1.5, fmt::format("h{:03d}", 10 + i)}});
    std::array<std::vector<int32_t>, 6> starts;
    for (size_t t = 0; t < starts.size(); ++t) starts[t].assign(static_cast<size_t>(kGlobalAudioTables[t].count), 0);
    WadLayout wad(kGlobalAudioHeaderSize);
    for (size_t i = 0; i < slots.size(); ++i) {
        const Slot& s = slots[i];
        Bytes vag = tone_vag(s.tone);
        // A VAG whose header claims more data than its sector span holds (§1).
        if (s.table == 0 && s.index == 1 && wants(damage, Damage::vag_size)) vag[0x0C] = 0x01;
        starts[s.table][static_cast<size_t>(s.index)] = wad.add(vag).offset;
        if (i == 1) wad.add(Bytes(kSectorSize, 0xAA));  // a sector no slot names: vendor[1]'s span includes it
    }
    starts[3][2] = starts[2][2];  // german[2] is french[2]'s recording (§2: equal starts share one)
    // A start past the WAD's end (§2: damage, that entry alone).
    if (wants(damage, Damage::audio_extent)) starts[2][5] = wad.sector() + 3;
    return wad.finish(write_global_audio_header(starts));
}

Bytes level_audio_wad(int index, Scale scale, const std::vector<Damage>& damage) {
    const bool full = scale == Scale::full;
    LevelAudioHeader header;
    WadLayout wad(kLevelAudioHeaderSize);
    auto add = [&](const Tone& tone, bool predictor_damage = false) {
        Bytes vag = tone_vag(tone);
        // A frame whose predictor is 5 (§1: 0…4): the .wav fails, the .vag stands.
        if (predictor_damage) vag[kVagHeaderSize + 3 * kFrameSize] = static_cast<uint8_t>(0x50 | (vag[kVagHeaderSize + 3 * kFrameSize] & 0x0F));
        return wad.add_exact(vag);
    };
    const uint32_t base = 200 + 50 * static_cast<uint32_t>(index % 20);
    std::vector<int> sfx = {0, 1, 2, 7, kLevelAudioSlots - 1};
    if (full)
        for (int i = 20; i < 60; ++i) sfx.push_back(i);
    for (int slot : sfx)
        header.bin_data[static_cast<size_t>(slot)] =
            add({base + 13 * static_cast<uint32_t>(slot % 64), slot % 2 ? 24000u : 22050u, full ? 0.6 : 0.12, fmt::format("sfx{:03d}", slot),
                 slot == 2 ? 4u : 0u, slot == 2 ? 60u : 0u, static_cast<uint8_t>(slot % 3 == 0 ? 0 : 1)},
                slot == 1 && wants(damage, Damage::vag_predictor));
    header.upgrade_sample = add({base + 400, 22050, 0.2, "upgrade"});
    if (index % 2 == 0) {
        header.thermanator_freeze = add({base + 500, 22050, 0.15, "freeze"});
        header.thermanator_thaw = add({base + 600, 22050, 0.15, "thaw"});
    }
    return wad.finish(write_level_audio_header(header));
}

}  // namespace gcfs::mkdisc
