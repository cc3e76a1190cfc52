// A PSS's sound track (formats-globals.md §4 says only "PS-ADPCM in private
// stream 1"; the rest is from public descriptions, none of them Sony's):
//
// * Its packets are MPEG-2 PES packets of private stream 1 (stream id 0xBD,
//   ISO/IEC 13818-1 2.4.3.6). Their payload opens with a sub-stream id and
//   three more bytes, as DVD and Sony's later PMF streams lay out private
//   stream 1 audio; gcfs reads sub-stream 0x00, the first sound track, and
//   ignores the three bytes (the builder writes them 0). Which ids a real PSS
//   uses is not published: that part is gcfs's reading.
// * The payloads, joined, are a Sony SPU stream (XentaxWiki "PSS Video",
//   FFmpeg's and vgmstream's ADS readers): "SShd", u32 24 (the header's
//   size), u32 type (0: 16-bit PCM big-endian, 1: little-endian, 2: PS-ADPCM),
//   u32 sample rate, u32 channels, u32 interleave (bytes per channel per
//   block; 512 in PSS files), u32 loop start, u32 loop end; then "SSbd", u32
//   body size, and the body: blocks of `interleave` bytes, channel 0's, then
//   channel 1's, and so on. Integers are little-endian.
//
// gcfs decodes type 2 (formats-globals.md §1's frames) into a WAV.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "formats/audio/vag.h"
#include "formats/audio/wav.h"
#include "formats/common/bytes.h"

namespace gcfs::formats::mpeg {

constexpr uint8_t kPrivateStream1 = 0xBD;
constexpr uint8_t kSoundSubStream = 0x00;        // the first sound track
constexpr uint64_t kSubStreamHeader = 4;          // id and three bytes
constexpr uint64_t kSpuStreamHeader = 0x20 + 8;   // SShd (8 + 24) and SSbd's 8
constexpr uint32_t kSpuAdpcm = 2;
constexpr uint32_t kMaxSoundChannels = 8;
constexpr uint32_t kMaxInterleave = 0x10000;

struct SpuStreamHeader {
    uint32_t type = kSpuAdpcm;
    uint32_t sample_rate = 0;
    uint32_t channels = 0;
    uint32_t interleave = 0;
    uint32_t loop_start = 0, loop_end = 0;  // kept as read; the WAV does not loop
    uint32_t body_size = 0;                 // SSbd's
    uint64_t samples() const { return uint64_t{body_size} / channels / 16 * 28; }  // per channel
    audio::WavLayout wav() const { return {sample_rate, static_cast<uint16_t>(channels), samples(), std::nullopt}; }
};

// The 40 header bytes, checked: the magics, SShd's size 24, type 2, 1-8
// channels, a rate of 1 Hz to 192 kHz, an interleave of whole 16-byte frames
// up to 64 KiB, and a body of whole blocks.
Result<SpuStreamHeader> parse_spu_header(ByteSpan header);
Bytes write_spu_header(const SpuStreamHeader& header);

// A pack, header or packet of a PSS as walk_pss meets it: its bytes
// [begin, end) and, for a packet of the sound track, its payload after the
// sub-stream header (empty otherwise).
struct PssPiece {
    uint64_t begin = 0, end = 0;
    bool sound = false;
    ByteSpan payload;
    uint64_t payload_at = 0;
};
// Walks packs and PES packets from the start (13818-1 2.5.3); stops at the
// end code, at the bytes' end, or when `visit` returns false. Returns where
// it stopped (the end code's offset, or the size). Fails on a packet that
// runs past the bytes or a start code where none can be.
Result<uint64_t> walk_pss(ByteSpan pss, const std::function<bool(const PssPiece&)>& visit);

// Decodes a sound track's body a row at a time (a block per channel): the
// histories carry across rows.
class SoundDecoder {
public:
    explicit SoundDecoder(const SpuStreamHeader& header);
    uint64_t row_bytes() const { return uint64_t{header_.interleave} * header_.channels; }
    // Appends the row's samples, channels interleaved; fails naming the
    // frame's byte inside the row.
    Result<uint64_t> decode_row(ByteSpan row, std::vector<int16_t>& out);

private:
    SpuStreamHeader header_;
    std::vector<audio::AdpcmHistory> history_;
    std::vector<int16_t> block_;
};

// What a WAV of the PSS's sound needs: the header, if the PSS has a sound
// track (nullopt: none). `head` is the PSS's first bytes; the header must lie
// in them.
Result<std::optional<SpuStreamHeader>> pss_sound_header(ByteSpan head);

// The whole sound track as a 16-bit WAV, its size wav_size(header.wav()).
// Fails when the body is not the size SSbd declares or a frame is damaged.
Result<Bytes> pss_sound_wav(ByteSpan pss);

// The builder's side: `channels` tracks of equal length (each whole blocks
// of PS-ADPCM) as an SPU stream of type 2.
Bytes write_audio_stream(const std::vector<Bytes>& channels, uint32_t sample_rate, uint32_t interleave);

}  // namespace gcfs::formats::mpeg
