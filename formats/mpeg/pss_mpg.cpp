#include "formats/mpeg/pss_mpg.h"

#include <fmt/format.h>

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/mpeg/pes.h"

namespace gcfs::formats::mpeg {
namespace {

// The rates DVD LPCM's two-bit field names, in its order (FFmpeg's lpcm_freq_tab).
constexpr std::array<uint32_t, 4> kLpcmRates = {48000, 96000, 44100, 32000};
constexpr uint64_t kFirstPts = 3003;  // the first picture's, as pss_write.cpp stamps it

int lpcm_rate_code(uint32_t rate) {
    for (size_t i = 0; i < kLpcmRates.size(); ++i)
        if (kLpcmRates[i] == rate) return static_cast<int>(i);
    return -1;
}

// One LPCM packet: `samples` (channels interleaved) starting at sample `first` of each channel.
void lpcm_packet(Bytes& out, const SpuStreamHeader& h, std::span<const int16_t> samples, uint64_t first, uint64_t number) {
    pes_header_with_pts(out, kPrivateStream1, kLpcmPacketHeader - kPesHeaderWithPts + 2 * samples.size(),
                        kFirstPts + first * 90000 / h.sample_rate);
    // Sub-stream, one frame header, first access unit at 1 (FFmpeg reads 6 as MLP), then the LPCM
    // header: frame number; 16 bits, the rate's code, channels - 1; dynamic range off (0x80).
    out.insert(out.end(), {kLpcmSubStream, 1, 0, 1, static_cast<uint8_t>(number % 20),
                           static_cast<uint8_t>(lpcm_rate_code(h.sample_rate) << 4 | (h.channels - 1)), 0x80});
    for (int16_t v : samples) out.push_back(static_cast<uint8_t>(static_cast<uint16_t>(v) >> 8)), out.push_back(static_cast<uint8_t>(v));
}

}  // namespace

bool lpcm_carries(const SpuStreamHeader& sound) {
    return lpcm_rate_code(sound.sample_rate) >= 0 && sound.channels >= 1 && sound.channels <= 8;
}

uint64_t mpg_size(uint64_t pss_size, const SpuStreamHeader& sound) {
    const uint64_t samples = sound.samples();
    const uint64_t packets = (samples + kLpcmPacketSamples - 1) / kLpcmPacketSamples;
    return pss_size + packets * kLpcmPacketHeader + 2 * samples * sound.channels;
}

Result<Bytes> pss_to_mpg(ByteSpan pss) {
    Bytes out, track;
    out.reserve(pss.size());
    std::optional<SpuStreamHeader> header;
    std::optional<SoundDecoder> decoder;
    std::vector<int16_t> pending;  // decoded samples not yet sent, channels interleaved
    uint64_t copied = 0, decoded_bytes = 0, sent = 0, packets = 0;
    std::optional<FormatError> error;
    auto send = [&](uint64_t samples) {  // per channel, from the front of `pending`
        const uint64_t values = samples * header->channels;
        lpcm_packet(out, *header, std::span<const int16_t>(pending).first(values), sent, packets++);
        pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(values));
        sent += samples;
    };
    auto walked = walk_pss(pss, [&](const PssPiece& piece) {
        out.insert(out.end(), pss.begin() + static_cast<std::ptrdiff_t>(copied), pss.begin() + static_cast<std::ptrdiff_t>(piece.end));
        copied = piece.end;
        if (!piece.sound) return true;
        track.insert(track.end(), piece.payload.begin(), piece.payload.end());
        auto stop = [&](Errc code, const std::string& why) {  // named by the packet it was found in
            error = FormatError{code, piece.payload_at, "sound track: " + why};
            return false;
        };
        if (!header && track.size() >= kSpuStreamHeader) {
            auto parsed = parse_spu_header(track);
            if (!parsed.ok()) return stop(parsed.error().code, parsed.error().message);
            if (!lpcm_carries(*parsed)) return stop(Errc::bad_value, fmt::format("DVD LPCM cannot carry {} Hz", parsed->sample_rate));
            header = *parsed;
            decoder.emplace(*header);
        }
        if (!header) return true;
        // Whole rows decoded as they arrive, sent a packet's worth at a time.
        while (track.size() - kSpuStreamHeader - decoded_bytes >= decoder->row_bytes() && decoded_bytes < header->body_size) {
            auto row = decoder->decode_row(ByteSpan(track).subspan(kSpuStreamHeader + decoded_bytes, decoder->row_bytes()), pending);
            if (!row.ok()) return stop(row.error().code, row.error().message);
            decoded_bytes += decoder->row_bytes();
        }
        while (pending.size() >= kLpcmPacketSamples * header->channels) send(kLpcmPacketSamples);
        return true;
    });
    if (!walked.ok()) return walked.error();
    if (error) return *error;
    if (!header) return FormatError{Errc::truncated, 0, "the PSS has no sound track"};
    if (track.size() - kSpuStreamHeader != header->body_size)
        return FormatError{Errc::size_mismatch, 0,
                           fmt::format("sound track: SSbd declares {} bytes, the packets hold {}", header->body_size, track.size() - kSpuStreamHeader)};
    const uint64_t end = *walked;
    out.insert(out.end(), pss.begin() + static_cast<std::ptrdiff_t>(copied), pss.begin() + static_cast<std::ptrdiff_t>(end));
    if (!pending.empty()) send(pending.size() / header->channels);  // the last, shorter packet, before the end code
    out.insert(out.end(), pss.begin() + static_cast<std::ptrdiff_t>(end), pss.end());
    if (out.size() != mpg_size(pss.size(), *header))
        return FormatError{Errc::size_mismatch, 0, fmt::format("made {} bytes, {} expected", out.size(), mpg_size(pss.size(), *header))};
    return out;
}

}  // namespace gcfs::formats::mpeg
