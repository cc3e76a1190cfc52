// NN.mpg: a cutscene every player plays with picture and sound. The PSS's
// bytes, in order, with its sound track (pss_audio.h) added as DVD linear
// PCM, the private stream 1 sub-stream players know (ISO/IEC 13818-1 PES
// packets; the LPCM header as FFmpeg's MPEG-PS demuxer and pcm_dvd decoder
// read it: sub-stream 0xA0, a frame count byte, a two-byte access unit
// pointer, then emphasis/frame number, quantisation, rate and channels, and
// dynamic range, then 16-bit big-endian samples). The PSS's own sound
// packets stay where they are: players skip them.
//
// Each LPCM packet holds 1000 samples per channel (the last what is left)
// and is written after the sound packet that completed them, stamped with
// its first sample's time, so the file's size is arithmetic on the sound
// track's headers: the PSS's size plus, per packet, 21 bytes and its samples.
#pragma once

#include <cstdint>

#include "formats/common/bytes.h"
#include "formats/mpeg/pss_audio.h"

namespace gcfs::formats::mpeg {

constexpr uint64_t kLpcmPacketSamples = 1000;  // per channel
constexpr uint64_t kLpcmPacketHeader = 21;     // PES header with a PTS, sub-stream header, LPCM header
constexpr uint8_t kLpcmSubStream = 0xA0;

// Whether DVD LPCM can carry this sound: 48, 96, 44.1 or 32 kHz (the rates
// its two-bit field names), 1 to 8 channels.
bool lpcm_carries(const SpuStreamHeader& sound);
uint64_t mpg_size(uint64_t pss_size, const SpuStreamHeader& sound);

// Fails as pss_sound_wav fails, and when LPCM cannot carry the sound.
Result<Bytes> pss_to_mpg(ByteSpan pss);

}  // namespace gcfs::formats::mpeg
