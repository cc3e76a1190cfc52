// VAG files and PS-ADPCM, the sound format of every sample on the disc
// (formats-globals.md §1). The header's integers are big-endian; the frames
// are 16 bytes of 28 samples each.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "formats/common/bytes.h"

namespace gcfs::formats::audio {

constexpr uint64_t kVagHeaderSize = 0x30;
constexpr uint64_t kFrameSize = 16;
constexpr uint64_t kSamplesPerFrame = 28;
// §1 byte 1 of a frame: the loop bits, and the value that ends the stream.
constexpr uint8_t kLoopEnd = 1, kLoopRepeat = 2, kLoopStart = 4, kEndOfStream = 7;
constexpr int kPredictors = 5;  // §1: 0…4; 5…15 is damage
constexpr int kMaxShift = 12;   // §1: Sony's range; 13…15 decode as ffmpeg does
// §1: each predictor's two coefficients, in 64ths (the decoder and the encoder share them).
constexpr std::array<int32_t, kPredictors> kK0 = {0, 60, 115, 98, 122};
constexpr std::array<int32_t, kPredictors> kK1 = {0, 0, -52, -55, -60};

struct VagHeader {
    uint32_t version = 0;
    uint32_t data_size = 0;    // bytes of ADPCM after the header
    uint32_t sample_rate = 0;  // Hz
    uint8_t channels = 0;      // 0 and 1 both mean mono
    std::string name;          // up to 16 bytes, NUL-padded; never a path step

    uint64_t frames() const { return data_size / kFrameSize; }
    bool mono() const { return channels <= 1; }
};

// The header of a VAG given `available` bytes of range (§1: 0x30 + data_size
// must fit it). Rejects a bad magic, a data size that is not whole frames, a
// sample rate of 0 or past 2^31 (what ffmpeg's demuxer accepts).
Result<VagHeader> parse_vag_header(ByteSpan bytes, uint64_t available);

// What the frame flags say, read without decoding (§1): how many frames carry
// samples (those before the first end-of-stream frame) and where the loop is.
struct VagLoop {
    uint64_t start_frame = 0;  // the last loop-start frame at or before the end, else 0
    uint64_t end_frame = 0;    // the first frame with loop end + repeat
};
struct VagScan {
    uint64_t frames = 0;          // data_size / 16
    uint64_t sample_frames = 0;   // frames before the first end-of-stream frame
    bool end_marked = false;      // an end-of-stream frame was found
    std::optional<VagLoop> loop;  // frames in [0, sample_frames) only
    uint64_t wide_shifts = 0;     // sample frames with shift 13…15

    uint64_t samples() const { return sample_frames * kSamplesPerFrame; }
};
// `data` is the ADPCM after the header. Fails on a predictor past 4 in a
// frame that carries samples, naming that frame's byte.
Result<VagScan> scan_vag(ByteSpan data);

// The same scan fed a piece at a time (a long VAG need not be held whole to
// learn its WAV's size): pieces are whole frames, in order.
class VagScanner {
public:
    // Takes the next frames; false once the scan is over (an end frame was
    // met, or a bad one: see result()).
    bool feed(ByteSpan frames);
    Result<VagScan> result() const;

private:
    VagScan scan_;
    std::optional<uint64_t> last_start_;
    std::optional<FormatError> error_;
    bool over_ = false;
};

// The decoder's history, carried from frame to frame.
struct AdpcmHistory {
    int64_t h1 = 0, h2 = 0;
};
// Decodes `frames` frames of `data` into 28 × frames samples, as ffmpeg's
// adpcm_psx does (its integer division, its clamp, the unclamped history).
// Returns the samples written; fails on a predictor past 4 or short spans.
Result<uint64_t> decode_frames(ByteSpan data, uint64_t frames, AdpcmHistory& history, std::span<int16_t> out);

// Writer side (the disc builder). Encodes PCM into frames that this decoder
// (and ffmpeg's) turns back into the nearest samples it can: each frame tries
// every predictor and shift against the decoder's own arithmetic.
struct VagEncodeOptions {
    std::optional<VagLoop> loop;  // frame flags: start frame 6, inside 2, end frame 3
    bool end_frame = true;        // append a frame flagged 7, as Sony's tools do
    // Every shift of every predictor for each frame (an edit's sound), not
    // the three around the residual's peak (the builder's long samples).
    bool exhaustive = false;
};
Bytes encode_adpcm(std::span<const int16_t> samples, const VagEncodeOptions& options = {});
// `channels` 0 or 1: both mean mono (§1); the builder writes both.
Bytes write_vag(const Bytes& adpcm, uint32_t sample_rate, const std::string& name, uint8_t channels = 1, uint32_t version = 0x20);

}  // namespace gcfs::formats::audio
