// RIFF/WAVE, 16-bit PCM, as gcfs serves a decoded VAG (formats-globals.md §1,
// "A WAV written by gcfs"): the header's size follows from the sample count
// and whether the VAG loops, so a WAV's size is known before it is decoded.
#pragma once

#include <cstdint>
#include <optional>

#include "formats/common/bytes.h"

namespace gcfs::formats::audio {

struct WavLoop {
    uint64_t first_sample = 0;
    uint64_t last_sample = 0;  // inclusive, as the smpl chunk counts
};

struct WavLayout {
    uint32_t sample_rate = 0;
    uint16_t channels = 1;
    uint64_t samples = 0;  // per channel
    std::optional<WavLoop> loop;  // written as a smpl chunk (one forward loop, played forever)
};

// The bytes before the samples: RIFF, fmt, smpl (when looped), data headers.
uint64_t wav_header_size(const WavLayout& layout);
uint64_t wav_size(const WavLayout& layout);
// Fails when the file would not fit RIFF's 32-bit sizes.
Result<Bytes> wav_header(const WavLayout& layout);

}  // namespace gcfs::formats::audio
