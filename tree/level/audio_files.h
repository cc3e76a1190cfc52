// The files made from one VAG inside an AUDIO WAD (formats-globals.md §1-3):
// the .vag as the disc holds it and the .wav decoded from it, plus the
// folder's audio.csv. A VAG's header (48 bytes) is read when the .vag is
// first stat'ed, its frame flags (every frame's first two bytes, so the whole
// VAG) when the .wav is: the WAV's size follows from them without decoding.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cache/lru_cache.h"
#include "formats/audio/vag.h"
#include "formats/audio/wav.h"
#include "tree/node/image.h"
#include "tree/node/node.h"
#include "tree/node/sources.h"

namespace gcfs::tree {

class VagClip {
public:
    // `offset`: the VAG's image byte; `range_bytes`: what its WAD gives it
    // (clipped to the WAD's end); `whole_range`: the .vag is that whole
    // range (a level slot's exact size, §3) rather than header + data_size
    // (a global entry's sector span, §2). `where` names the VAG's place for
    // errors ("audio.wad byte 0x3000").
    VagClip(const Image& image, uint64_t offset, uint64_t range_bytes, bool whole_range, std::string where);

    uint64_t offset() const { return offset_; }
    uint64_t range_bytes() const { return range_bytes_; }
    const Image& image() const { return image_; }
    // The header, or why it is unusable (null).
    const formats::audio::VagHeader* header() const;
    const std::string& header_error() const;
    // The frame flags, or why the VAG cannot be decoded (null).
    const formats::audio::VagScan* scan() const;
    const std::string& scan_error() const;

    uint64_t vag_size() const;  // 0 when the header is unusable
    // The WAV this VAG decodes to; null when it cannot (see wav_error()).
    std::optional<formats::audio::WavLayout> wav_layout() const;
    std::string wav_error() const;
    // Decodes every sample frame into `out` (16-bit little-endian PCM).
    std::string decode(std::span<uint8_t> out, cache::Filling& progress) const;

private:
    const Image& image_;
    uint64_t offset_, range_bytes_;
    bool whole_range_;
    std::string where_;
    mutable std::once_flag header_once_, scan_once_;
    mutable std::optional<formats::audio::VagHeader> header_;
    mutable std::string header_error_;
    mutable std::optional<formats::audio::VagScan> scan_;
    mutable std::string scan_error_;
};

// NNN.vag: the VAG's bytes as stored.
class VagFile final : public Source {
public:
    explicit VagFile(std::shared_ptr<const VagClip> clip) : clip_(std::move(clip)) {}
    uint64_t size() const override { return clip_->vag_size(); }
    std::string open_error() const override { return clip_->header_error(); }
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;

private:
    std::shared_ptr<const VagClip> clip_;
};

// NNN.wav: 16-bit PCM, decoded on first read through the cache; a long one
// streams (a thread decodes ahead of the reader).
class WavFile final : public Source {
public:
    WavFile(cache::LruCache& cache, std::shared_ptr<const VagClip> clip);
    uint64_t size() const override;
    std::string open_error() const override;
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override { return decode_.read(offset, out); }

private:
    std::shared_ptr<const VagClip> clip_;
    StreamedFill decode_;  // last: its thread reads clip_
};

// One row of audio.csv: a file stem ("vendor/007"), the slot it comes from.
struct AudioRow {
    std::string file;
    int slot = 0;
    std::string language;
    uint64_t sectors = 0;  // the range the WAD gives it, in sectors
    std::shared_ptr<const VagClip> clip;
    std::string error;  // the WAD's own complaint about the slot (a range past its end)
};
// slot, language, sectors, bytes, rate, channels, samples, duration, loop, status, error.
std::string audio_csv(const std::vector<AudioRow>& rows);
// The row's VAG as info.json lists it: header fields, frames, loop, and
// "ok" with the error when it cannot be played.
nlohmann::ordered_json vag_json(const AudioRow& row);

}  // namespace gcfs::tree
