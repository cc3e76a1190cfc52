#include "formats/audio/wav.h"

#include <fmt/format.h>

#include <cstring>

namespace gcfs::formats::audio {
namespace {

constexpr uint64_t kRiffHeader = 12, kChunkHeader = 8, kFmtBody = 16;
constexpr uint64_t kSmplBody = 36 + 24;  // the fixed fields and one loop record

void tag(ByteWriter& out, const char* fourcc) { out.append(ByteSpan(reinterpret_cast<const uint8_t*>(fourcc), 4)); }

}  // namespace

uint64_t wav_header_size(const WavLayout& layout) {
    return kRiffHeader + kChunkHeader + kFmtBody + (layout.loop ? kChunkHeader + kSmplBody : 0) + kChunkHeader;
}

uint64_t wav_size(const WavLayout& layout) { return wav_header_size(layout) + 2 * uint64_t{layout.channels} * layout.samples; }

Result<Bytes> wav_header(const WavLayout& layout) {
    return capture([&]() -> Bytes {
        const uint64_t data_bytes = 2 * uint64_t{layout.channels} * layout.samples;
        if (wav_size(layout) - 8 > 0xFFFFFFFFu)
            fail(Errc::too_large, 0, fmt::format("{} samples do not fit a RIFF file's 32-bit size", layout.samples));
        const uint32_t block_align = 2u * layout.channels;
        ByteWriter out;
        tag(out, "RIFF");
        out.u32(static_cast<uint32_t>(wav_size(layout) - 8));
        tag(out, "WAVE");
        tag(out, "fmt ");
        out.u32(kFmtBody);
        out.u16(1);  // PCM
        out.u16(layout.channels);
        out.u32(layout.sample_rate);
        out.u32(layout.sample_rate * block_align);
        out.u16(static_cast<uint16_t>(block_align));
        out.u16(16);
        if (layout.loop) {
            tag(out, "smpl");
            out.u32(kSmplBody);
            out.u32(0);  // manufacturer
            out.u32(0);  // product
            out.u32(static_cast<uint32_t>(1000000000ull / layout.sample_rate));  // sample period, ns
            out.u32(60);  // MIDI unity note: middle C, the usual default
            out.u32(0);   // pitch fraction
            out.u32(0);   // SMPTE format
            out.u32(0);   // SMPTE offset
            out.u32(1);   // loops
            out.u32(0);   // sampler data
            out.u32(0);   // cue point id
            out.u32(0);   // loop type: forward
            out.u32(static_cast<uint32_t>(layout.loop->first_sample));
            out.u32(static_cast<uint32_t>(layout.loop->last_sample));
            out.u32(0);  // fraction
            out.u32(0);  // play count: forever (a VAG loop repeats until the voice is keyed off)
        }
        tag(out, "data");
        out.u32(static_cast<uint32_t>(data_bytes));
        if (out.size() != wav_header_size(layout)) fail(Errc::size_mismatch, 0, "WAV header size");
        return std::move(out.bytes());
    });
}

}  // namespace gcfs::formats::audio
