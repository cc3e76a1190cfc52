// The AUDIO WADs the builder writes (formats-globals.md §2, §3, §11): real
// VAGs from gcfs's own PS-ADPCM encoder, each a sine tone whose frequency
// its VAG name states ("440Hz v005"), so a listener or an FFT can tell a
// right decode from a wrong one.
#pragma once

#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "mkdisc/level_builder.h"

namespace gcfs::mkdisc {

// One tone, made into a VAG: `hz` at `rate` for `seconds`, looping over
// frames [loop_start, loop_end] when loop_end > 0.
struct Tone {
    uint32_t hz = 440;
    uint32_t rate = 22050;
    double seconds = 0.1;
    std::string slot;  // the VAG name's tail ("v005", "en012")
    uint64_t loop_start = 0, loop_end = 0;
    uint8_t channels = 1;      // 0 and 1 both mean mono (§1); the builder writes both
    uint32_t version = 0x20;   // §1: 0x20 and 3 are seen in the wild
};
formats::Bytes tone_vag(const Tone& tone);

// The global AUDIO WAD: vendor lines and help messages in five languages,
// empty slots, last slots used, a recording two languages share, a sector
// no slot names. At full scale vendor[0] lasts ten minutes (the benchmark's).
formats::Bytes global_audio_wad(Scale scale, const std::vector<Damage>& damage);
// Level `index`'s AUDIO WAD: sound effects in bin_data (the last slot too),
// the upgrade sample, and the thermanator pair in even levels.
formats::Bytes level_audio_wad(int index, Scale scale, const std::vector<Damage>& damage);

}  // namespace gcfs::mkdisc
