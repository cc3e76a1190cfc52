#include <algorithm>
#include <cstring>
#include <limits>

#include "formats/audio/vag.h"

namespace gcfs::formats::audio {
namespace {

struct FrameChoice {
    int predictor = 0, shift = 0;
    std::array<int8_t, kSamplesPerFrame> nibbles{};
    AdpcmHistory after;
    int64_t error = std::numeric_limits<int64_t>::max();
};

// One frame coded with `predictor` and `shift`, through the decoder's own
// arithmetic (closed loop: each nibble sees the history the decoder will have).
// A choice whose error passes `bound` (the best so far) is left unfinished:
// it cannot win.
FrameChoice try_frame(std::span<const int16_t> target, AdpcmHistory history, int predictor, int shift,
                      int64_t bound = std::numeric_limits<int64_t>::max()) {
    FrameChoice c{predictor, shift};
    const int64_t step = int64_t{1} << (12 - shift);
    int64_t error = 0;
    for (size_t i = 0; i < kSamplesPerFrame; ++i) {
        const int64_t predicted = (history.h1 * kK0[predictor] + history.h2 * kK1[predictor]) / 64;
        const int64_t wanted = i < target.size() ? target[i] : 0;
        const int64_t residual = wanted - predicted;
        // Round to the nearest step, halves away from zero.
        int64_t nibble = (residual >= 0 ? residual + step / 2 : residual - step / 2) / step;
        nibble = std::clamp<int64_t>(nibble, -8, 7);
        const int64_t y = nibble * step + predicted;
        const int64_t heard = std::clamp<int64_t>(y, -32768, 32767);
        error += (heard - wanted) * (heard - wanted);
        if (error >= bound) return c;  // c.error stays at its maximum
        c.nibbles[i] = static_cast<int8_t>(nibble);
        history = {y, history.h1};
    }
    c.after = history;
    c.error = error;
    return c;
}

// The smallest shift-exponent step that holds the frame's largest residual
// for this predictor (open loop), and its two neighbours: trying all 13
// shifts of 5 predictors made the builder's long samples slow.
std::array<int, 3> shifts_to_try(std::span<const int16_t> target, AdpcmHistory history, int predictor) {
    int64_t peak = 0;
    int64_t h1 = history.h1, h2 = history.h2;
    for (size_t i = 0; i < kSamplesPerFrame; ++i) {
        const int64_t wanted = i < target.size() ? target[i] : 0;
        peak = std::max(peak, std::abs(wanted - (h1 * kK0[predictor] + h2 * kK1[predictor]) / 64));
        h2 = h1;
        h1 = wanted;
    }
    int shift = kMaxShift;
    while (shift > 0 && (int64_t{7} << (12 - shift)) < peak) --shift;
    return {std::max(shift - 1, 0), shift, std::min(shift + 1, kMaxShift)};
}

}  // namespace

Bytes encode_adpcm(std::span<const int16_t> samples, const VagEncodeOptions& options) {
    const uint64_t frames = (samples.size() + kSamplesPerFrame - 1) / kSamplesPerFrame;
    ByteWriter out;
    AdpcmHistory history;
    for (uint64_t f = 0; f < frames; ++f) {
        const auto target = samples.subspan(f * kSamplesPerFrame, std::min<uint64_t>(kSamplesPerFrame, samples.size() - f * kSamplesPerFrame));
        FrameChoice best;
        for (int p = 0; p < kPredictors; ++p) {
            auto consider = [&](int s) {
                FrameChoice c = try_frame(target, history, p, s, best.error);
                if (c.error < best.error) best = c;
            };
            if (options.exhaustive)
                for (int s = 0; s <= kMaxShift; ++s) consider(s);
            else
                for (int s : shifts_to_try(target, history, p)) consider(s);
        }
        uint8_t flags = 0;
        if (options.loop) {
            if (f == options.loop->start_frame) flags = kLoopStart | kLoopRepeat;
            else if (f == options.loop->end_frame) flags = kLoopEnd | kLoopRepeat;
            else if (f > options.loop->start_frame && f < options.loop->end_frame) flags = kLoopRepeat;
        }
        out.u8(static_cast<uint8_t>(best.predictor << 4 | best.shift));
        out.u8(flags);
        for (size_t i = 0; i < kSamplesPerFrame; i += 2)
            out.u8(static_cast<uint8_t>((best.nibbles[i] & 0x0F) | (best.nibbles[i + 1] & 0x0F) << 4));
        history = best.after;
    }
    if (options.end_frame) {  // §1: flags 7 ends the stream; its bytes carry nothing
        out.u8(0);
        out.u8(kEndOfStream);
        out.zeros(kFrameSize - 2);
    }
    return std::move(out.bytes());
}

Bytes write_vag(const Bytes& adpcm, uint32_t sample_rate, const std::string& name, uint8_t channels, uint32_t version) {
    ByteWriter out;
    auto be32 = [&](uint32_t v) {
        for (int shift = 24; shift >= 0; shift -= 8) out.u8(static_cast<uint8_t>(v >> shift));
    };
    out.append(ByteSpan(reinterpret_cast<const uint8_t*>("VAGp"), 4));
    be32(version);
    be32(0);  // reserved
    be32(static_cast<uint32_t>(adpcm.size()));
    be32(sample_rate);
    out.zeros(10);
    out.u8(channels);
    out.u8(0);
    Bytes padded_name(16, 0);
    std::copy_n(name.begin(), std::min<size_t>(name.size(), 16), padded_name.begin());
    out.append(padded_name);
    out.append(adpcm);
    return std::move(out.bytes());
}

}  // namespace gcfs::formats::audio
