// Any WAV a sound editor writes, read through libsndfile: PCM 8/16/24/32-bit,
// float, WAVE_FORMAT_EXTENSIBLE, mono or more channels (mixed down to mono),
// with its smpl loop. The edit decoder for sounds (edit/), beside wav.h's
// writer. Untrusted input: the frame count is checked before allocating.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "formats/audio/wav.h"
#include "formats/common/bytes.h"

namespace gcfs::formats::audio {

struct WavInput {
    uint32_t sample_rate = 0;
    int channels = 0;               // as the file has them
    std::vector<int16_t> samples;   // mono: the channels averaged
    std::optional<WavLoop> loop;    // the first smpl loop, in samples
};

// Fails (bad_value) on what libsndfile cannot read, past `max_samples`
// frames, or a rate past `max_rate`.
Result<WavInput> read_wav(ByteSpan file, uint64_t max_samples, uint32_t max_rate);

}  // namespace gcfs::formats::audio
