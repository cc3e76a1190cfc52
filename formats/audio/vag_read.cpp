#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "formats/audio/vag.h"

namespace gcfs::formats::audio {
namespace {

uint32_t u32be_at(ByteSpan d, uint64_t o) {
    require(d, o, 4, "u32 (big-endian)");
    return static_cast<uint32_t>(d[o]) << 24 | static_cast<uint32_t>(d[o + 1]) << 16 | static_cast<uint32_t>(d[o + 2]) << 8 | d[o + 3];
}

}  // namespace

Result<VagHeader> parse_vag_header(ByteSpan bytes, uint64_t available) {
    return capture([&]() -> VagHeader {
        require(bytes, 0, kVagHeaderSize, "VAG header");
        if (std::memcmp(bytes.data(), "VAGp", 4) != 0) fail(Errc::bad_magic, 0, "no VAGp magic");
        VagHeader h;
        h.version = u32be_at(bytes, 0x04);
        h.data_size = u32be_at(bytes, 0x0C);
        h.sample_rate = u32be_at(bytes, 0x10);
        h.channels = bytes[0x1E];
        const auto* name = reinterpret_cast<const char*>(bytes.data() + 0x20);
        h.name.assign(name, strnlen(name, 16));
        if (kVagHeaderSize + h.data_size > available)
            fail(Errc::out_of_range, 0x0C,
                 fmt::format("data_size {} needs 0x30 + {} bytes, the range holds {}", h.data_size, h.data_size, available));
        if (h.data_size % kFrameSize != 0)
            fail(Errc::bad_value, 0x0C, fmt::format("data_size {} is not a whole number of 16-byte frames", h.data_size));
        if (h.sample_rate == 0 || h.sample_rate > 0x7FFFFFFF)
            fail(Errc::bad_value, 0x10, fmt::format("sample rate {} Hz", h.sample_rate));
        return h;
    });
}

bool VagScanner::feed(ByteSpan frames) {
    for (uint64_t at = 0; !over_ && at + kFrameSize <= frames.size(); at += kFrameSize) {
        const uint64_t f = scan_.frames++;
        const uint8_t head = frames[at], flags = frames[at + 1];
        if (flags == kEndOfStream) {
            scan_.end_marked = over_ = true;  // §1: this frame and those after it carry no samples
            break;
        }
        if ((head >> 4) >= kPredictors) {
            error_ = FormatError{Errc::bad_value, f * kFrameSize, fmt::format("frame {} has predictor {} (0…4 allowed)", f, head >> 4)};
            over_ = true;
            break;
        }
        if ((head & 0x0F) > kMaxShift) ++scan_.wide_shifts;
        if (flags & kLoopStart) last_start_ = f;
        if (!scan_.loop && (flags & kLoopEnd) && (flags & kLoopRepeat)) scan_.loop = VagLoop{last_start_.value_or(0), f};
        ++scan_.sample_frames;
    }
    return !over_;
}

Result<VagScan> VagScanner::result() const {
    if (error_) return *error_;
    return scan_;
}

Result<VagScan> scan_vag(ByteSpan data) {
    VagScanner scanner;
    scanner.feed(data.first(data.size() / kFrameSize * kFrameSize));
    auto scan = scanner.result();
    if (scan.ok()) scan->frames = data.size() / kFrameSize;  // the frames after an end frame count too
    return scan;
}

Result<uint64_t> decode_frames(ByteSpan data, uint64_t frames, AdpcmHistory& history, std::span<int16_t> out) {
    return capture([&]() -> uint64_t {
        require(data, 0, frames * kFrameSize, "ADPCM frames");
        if (out.size() < frames * kSamplesPerFrame) fail(Errc::too_large, 0, "output shorter than the frames decode to");
        // 64-bit: a stable filter driven hard (or damaged data) can pass 2^31
        // in the products; ffmpeg's ints would overflow there, this agrees below it.
        int64_t h1 = history.h1, h2 = history.h2;
        int16_t* sample = out.data();
        for (uint64_t f = 0; f < frames; ++f) {
            const uint8_t* frame = data.data() + f * kFrameSize;
            if ((frame[0] >> 4) >= kPredictors)
                fail(Errc::bad_value, f * kFrameSize, fmt::format("frame {} has predictor {} (0…4 allowed)", f, frame[0] >> 4));
            const int shift = frame[0] & 0x0F;
            const int64_t k0 = kK0[frame[0] >> 4], k1 = kK1[frame[0] >> 4];
            for (int i = 0; i < 28; ++i) {
                const uint8_t byte = frame[2 + i / 2];
                // Low nibble first (§1), sign-extended, scaled to 16 bits.
                const int32_t nibble = static_cast<int8_t>(static_cast<uint8_t>((i & 1 ? byte >> 4 : byte & 0x0F) << 4)) >> 4;
                const int64_t y = ((nibble * 4096) >> shift) + (h1 * k0 + h2 * k1) / 64;  // C's division, as ffmpeg's
                *sample++ = static_cast<int16_t>(std::clamp<int64_t>(y, -32768, 32767));
                h2 = h1;
                h1 = y;  // the history keeps the unclamped value, as ffmpeg's does
            }
        }
        history = {h1, h2};
        return frames * kSamplesPerFrame;
    });
}

}  // namespace gcfs::formats::audio
