#include "formats/mpeg/pss_audio.h"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include "formats/audio/vag.h"

namespace gcfs::formats::mpeg {
namespace {

constexpr uint32_t kMaxSampleRate = 192000;

// 13818-1: every pack, header and packet opens with 00 00 01 and its code.
bool start_code_at(ByteSpan b, uint64_t at) { return at + 4 <= b.size() && b[at] == 0 && b[at + 1] == 0 && b[at + 2] == 1; }

}  // namespace

Result<SpuStreamHeader> parse_spu_header(ByteSpan b) {
    return capture([&] {
        require(b, 0, kSpuStreamHeader, "SShd and SSbd headers");
        if (std::memcmp(b.data(), "SShd", 4) != 0) fail(Errc::bad_magic, 0, "the sound track does not open with SShd");
        if (u32_at(b, 4) != 24) fail(Errc::bad_value, 4, fmt::format("SShd declares {} bytes, not 24", u32_at(b, 4)));
        SpuStreamHeader h{u32_at(b, 8), u32_at(b, 12), u32_at(b, 16), u32_at(b, 20), u32_at(b, 24), u32_at(b, 28), 0};
        if (h.type != kSpuAdpcm)
            fail(Errc::bad_value, 8, fmt::format("sound type {} (0 and 1: 16-bit PCM) is not decoded; only PS-ADPCM (2) is", h.type));
        if (h.sample_rate == 0 || h.sample_rate > kMaxSampleRate) fail(Errc::bad_value, 12, fmt::format("sample rate {} Hz", h.sample_rate));
        if (h.channels == 0 || h.channels > kMaxSoundChannels) fail(Errc::bad_value, 16, fmt::format("{} channels (1 to 8)", h.channels));
        if (h.interleave == 0 || h.interleave % audio::kFrameSize != 0 || h.interleave > kMaxInterleave)
            fail(Errc::bad_value, 20, fmt::format("interleave {} (whole 16-byte frames, up to 64 KiB)", h.interleave));
        if (std::memcmp(b.data() + 32, "SSbd", 4) != 0) fail(Errc::bad_magic, 32, "no SSbd after SShd");
        h.body_size = u32_at(b, 36);
        if (h.body_size % (uint64_t{h.interleave} * h.channels) != 0)
            fail(Errc::bad_value, 36, fmt::format("a body of {} bytes is not whole blocks of {} x {} channels", h.body_size, h.interleave, h.channels));
        return h;
    });
}

Result<uint64_t> walk_pss(ByteSpan pss, const std::function<bool(const PssPiece&)>& visit) {
    return capture([&]() -> uint64_t {
        uint64_t at = 0;
        while (at < pss.size()) {
            if (!start_code_at(pss, at)) fail(Errc::bad_value, at, "no start code where a pack or packet should begin (13818-1 2.5.3)");
            const uint8_t code = pss[at + 3];
            if (code == 0xB9) return at;  // MPEG_program_end_code
            PssPiece piece{at, 0, false, {}, 0};
            if (code == 0xBA) {  // 2.5.3.3: 14 bytes of an MPEG-2 pack header, then its stuffing
                require(pss, at, 14, "pack header");
                if ((pss[at + 4] & 0xC0) != 0x40) fail(Errc::bad_value, at + 4, "an MPEG-1 pack header; a PSS is MPEG-2");
                piece.end = at + 14 + (pss[at + 13] & 7);
                require(pss, at, piece.end - at, "pack header and stuffing");
            } else {
                if (code < 0xBB) fail(Errc::bad_value, at + 3, fmt::format("start code 0x{:02x} between packets", code));
                require(pss, at, 6, "packet header");
                const uint64_t length = uint64_t{pss[at + 4]} << 8 | pss[at + 5];
                require(pss, at + 6, length, "packet");
                piece.end = at + 6 + length;
                if (code == kPrivateStream1) {
                    // 2.4.3.6: '10' flags, flags, the header's data length, then the payload.
                    if (length < 3 || (pss[at + 6] & 0xC0) != 0x80) fail(Errc::bad_value, at + 6, "private stream 1 without an MPEG-2 PES header");
                    const uint64_t payload = at + 9 + pss[at + 8];
                    if (payload + kSubStreamHeader > piece.end)
                        fail(Errc::bad_value, at + 8, "private stream 1 packet too short for its sub-stream header");
                    if (pss[payload] == kSoundSubStream) {
                        piece.sound = true;
                        piece.payload_at = payload + kSubStreamHeader;
                        piece.payload = pss.subspan(piece.payload_at, piece.end - piece.payload_at);
                    }
                }
            }
            if (!visit(piece)) return piece.end;
            at = piece.end;
        }
        return at;
    });
}

SoundDecoder::SoundDecoder(const SpuStreamHeader& header)
    : header_(header), history_(header.channels), block_(header.interleave / audio::kFrameSize * audio::kSamplesPerFrame) {}

Result<uint64_t> SoundDecoder::decode_row(ByteSpan row, std::vector<int16_t>& out) {
    const uint64_t frames = header_.interleave / audio::kFrameSize, first = out.size();
    out.resize(first + block_.size() * header_.channels);
    for (uint32_t c = 0; c < header_.channels; ++c) {
        auto decoded = audio::decode_frames(row.subspan(uint64_t{c} * header_.interleave, header_.interleave), frames, history_[c], block_);
        if (!decoded.ok()) {
            FormatError e = decoded.error();
            e.offset += uint64_t{c} * header_.interleave;
            out.resize(first);
            return e;
        }
        for (uint64_t i = 0; i < block_.size(); ++i) out[first + i * header_.channels + c] = block_[i];
    }
    return block_.size();
}

Bytes write_spu_header(const SpuStreamHeader& h) {
    ByteWriter w;
    w.append(ByteSpan(reinterpret_cast<const uint8_t*>("SShd"), 4));
    w.u32(24), w.u32(h.type), w.u32(h.sample_rate), w.u32(h.channels), w.u32(h.interleave), w.u32(h.loop_start), w.u32(h.loop_end);
    w.append(ByteSpan(reinterpret_cast<const uint8_t*>("SSbd"), 4));
    w.u32(h.body_size);
    return std::move(w.bytes());
}

namespace {

// The sound track's bytes and where each packet's share of them lies in the
// PSS, so an error inside the track names its byte in the file.
struct SoundTrack {
    Bytes bytes;
    std::vector<std::pair<uint64_t, uint64_t>> pieces;  // (track offset, PSS offset)
    uint64_t in_pss(uint64_t track_offset) const {
        uint64_t at = 0;
        for (const auto& [track, file] : pieces)
            if (track <= track_offset) at = file + (track_offset - track);
        return at;
    }
};

Result<SoundTrack> sound_track(ByteSpan pss) {
    SoundTrack t;
    auto walked = walk_pss(pss, [&](const PssPiece& piece) {
        if (!piece.sound) return true;
        t.pieces.emplace_back(t.bytes.size(), piece.payload_at);
        t.bytes.insert(t.bytes.end(), piece.payload.begin(), piece.payload.end());
        return true;
    });
    if (!walked.ok()) return walked.error();
    return t;
}

}  // namespace

Result<std::optional<SpuStreamHeader>> pss_sound_header(ByteSpan head) {
    // The head may end inside a packet: what lies whole in it is walked.
    Bytes sound;
    auto walked = walk_pss(head, [&](const PssPiece& piece) {
        sound.insert(sound.end(), piece.payload.begin(), piece.payload.end());
        return sound.size() < kSpuStreamHeader;
    });
    if (sound.size() < kSpuStreamHeader) {
        if (!walked.ok() && walked.error().code != Errc::truncated) return walked.error();
        if (sound.empty()) return std::optional<SpuStreamHeader>{};
        return FormatError{Errc::truncated, 0, "the sound track's headers do not lie in the PSS's first packets"};
    }
    auto header = parse_spu_header(sound);
    if (!header.ok()) return header.error();
    return std::optional<SpuStreamHeader>(*header);
}

Result<Bytes> pss_sound_wav(ByteSpan pss) {
    auto track = sound_track(pss);
    if (!track.ok()) return track.error();
    const Bytes& sound = track->bytes;
    auto failed = [&](FormatError e) {
        e.offset = track->in_pss(e.offset);
        e.message = "sound track: " + e.message;
        return e;
    };
    auto parsed = parse_spu_header(sound);
    if (!parsed.ok()) return failed(parsed.error());
    const SpuStreamHeader& h = *parsed;
    const uint64_t body = sound.size() - kSpuStreamHeader;
    if (body != h.body_size)
        return failed({Errc::size_mismatch, 36, fmt::format("SSbd declares {} bytes, the packets hold {}", h.body_size, body)});
    auto wav = audio::wav_header(h.wav());
    if (!wav.ok()) return wav.error();
    // Row by row (a block per channel, each channel's history running on),
    // each row's samples appended to the WAV as they come.
    SoundDecoder decoder(h);
    Bytes out = std::move(*wav);
    out.reserve(audio::wav_size(h.wav()));
    std::vector<int16_t> row;
    const ByteSpan data = ByteSpan(sound).subspan(kSpuStreamHeader);
    for (uint64_t at = 0; at < body; at += decoder.row_bytes()) {
        row.clear();
        auto decoded = decoder.decode_row(data.subspan(at, decoder.row_bytes()), row);
        if (!decoded.ok()) {
            FormatError e = decoded.error();
            e.offset += kSpuStreamHeader + at;
            return failed(e);
        }
        for (int16_t v : row) out.push_back(static_cast<uint8_t>(v)), out.push_back(static_cast<uint8_t>(static_cast<uint16_t>(v) >> 8));
    }
    return out;
}

Bytes write_audio_stream(const std::vector<Bytes>& channels, uint32_t sample_rate, uint32_t interleave) {
    if (channels.empty() || channels.size() > kMaxSoundChannels || interleave == 0 || interleave % audio::kFrameSize != 0)
        throw std::invalid_argument("a sound track has 1 to 8 channels and an interleave of whole frames");
    for (const Bytes& c : channels)
        if (c.size() != channels[0].size() || c.size() % interleave != 0)
            throw std::invalid_argument("a sound track's channels are whole blocks, all of one length");
    SpuStreamHeader h{kSpuAdpcm, sample_rate, static_cast<uint32_t>(channels.size()), interleave, 0, 0,
                      static_cast<uint32_t>(channels[0].size() * channels.size())};
    Bytes out = write_spu_header(h);
    for (uint64_t at = 0; at < channels[0].size(); at += interleave)
        for (const Bytes& c : channels) out.insert(out.end(), c.begin() + static_cast<std::ptrdiff_t>(at), c.begin() + static_cast<std::ptrdiff_t>(at + interleave));
    return out;
}

}  // namespace gcfs::formats::mpeg
