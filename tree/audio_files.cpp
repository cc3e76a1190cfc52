#include "tree/audio_files.h"

#include <fmt/format.h>

#include <bit>
#include <cerrno>
#include <cstring>

#include "formats/export/csv.h"

namespace gcfs::tree {
namespace {

using namespace formats::audio;

// The decoder writes samples in host order; WAV's are little-endian.
static_assert(std::endian::native == std::endian::little, "the WAV writer assumes a little-endian host");

constexpr uint64_t kDecodeFrames = 4096;  // per step of a streamed decode: 64 KiB of ADPCM, 224 KiB of PCM

std::string read_failure(uint64_t at) { return fmt::format("image read at 0x{:x} failed: {}", at, std::strerror(errno)); }

}  // namespace

VagClip::VagClip(const Image& image, uint64_t offset, uint64_t range_bytes, bool whole_range, std::string where)
    : image_(image), offset_(offset), range_bytes_(range_bytes), whole_range_(whole_range), where_(std::move(where)) {}

const VagHeader* VagClip::header() const {
    std::call_once(header_once_, [&] {
        formats::Bytes bytes(std::min<uint64_t>(kVagHeaderSize, range_bytes_));
        if (!image_.read(offset_, bytes)) {
            header_error_ = read_failure(offset_);
            return;
        }
        auto parsed = parse_vag_header(bytes, range_bytes_);
        if (parsed.ok())
            header_ = *parsed;
        else
            header_error_ = fmt::format("VAG header: {} ({} + 0x{:x}, image byte 0x{:x})", parsed.error().message, where_,
                                       parsed.error().offset, offset_ + parsed.error().offset);
    });
    return header_ ? &*header_ : nullptr;
}

const std::string& VagClip::header_error() const {
    header();
    return header_error_;
}

const VagScan* VagClip::scan() const {
    std::call_once(scan_once_, [&] {
        const VagHeader* h = header();
        if (!h) {
            scan_error_ = header_error_;
            return;
        }
        formats::Bytes data(h->data_size);
        if (!image_.read(offset_ + kVagHeaderSize, data)) {
            scan_error_ = read_failure(offset_ + kVagHeaderSize);
            return;
        }
        auto scanned = scan_vag(data);
        if (scanned.ok())
            scan_ = *scanned;
        else
            scan_error_ = fmt::format("VAG frames: {} ({} + 0x{:x}, image byte 0x{:x})", scanned.error().message, where_,
                                      kVagHeaderSize + scanned.error().offset, offset_ + kVagHeaderSize + scanned.error().offset);
    });
    return scan_ ? &*scan_ : nullptr;
}

const std::string& VagClip::scan_error() const {
    scan();
    return scan_error_;
}

uint64_t VagClip::vag_size() const {
    const VagHeader* h = header();
    if (!h) return 0;
    return whole_range_ ? range_bytes_ : kVagHeaderSize + h->data_size;
}

std::optional<WavLayout> VagClip::wav_layout() const {
    const VagHeader* h = header();
    const VagScan* s = scan();
    if (!h || !s || !h->mono()) return std::nullopt;
    WavLayout layout{h->sample_rate, 1, s->samples()};
    if (s->loop) layout.loop = WavLoop{s->loop->start_frame * kSamplesPerFrame, (s->loop->end_frame + 1) * kSamplesPerFrame - 1};
    if (!wav_header(layout).ok()) return std::nullopt;
    return layout;
}

std::string VagClip::wav_error() const {
    if (!scan()) return scan_error_;
    if (!header_->mono())
        return fmt::format("the VAG declares {} channels ({} + 0x1e): GC's VAGs are mono and the references give no "
                           "interleave for more, so only the .vag is served",
                           header_->channels, where_);
    if (!wav_layout()) return fmt::format("{} samples do not fit a WAV file", scan_->samples());
    return {};
}

std::string VagClip::decode(std::span<uint8_t> out, cache::Filling& progress) const {
    const auto layout = wav_layout();
    if (!layout) return wav_error();
    const formats::Bytes header = *wav_header(*layout);
    std::memcpy(out.data(), header.data(), header.size());
    progress.advance(header.size());
    image_.prefetch(offset_ + kVagHeaderSize, scan_->sample_frames * kFrameSize);
    AdpcmHistory history;
    formats::Bytes frames(kDecodeFrames * kFrameSize);
    uint64_t at = header.size();
    for (uint64_t f = 0; f < scan_->sample_frames; f += kDecodeFrames) {
        const uint64_t count = std::min(kDecodeFrames, scan_->sample_frames - f);
        const uint64_t from = offset_ + kVagHeaderSize + f * kFrameSize;
        if (!image_.read(from, std::span(frames).first(count * kFrameSize))) return read_failure(from);
        auto* samples = reinterpret_cast<int16_t*>(out.data() + at);
        auto decoded = decode_frames(std::span(frames).first(count * kFrameSize), count, history, {samples, count * kSamplesPerFrame});
        if (!decoded.ok())  // the image changed since the scan
            return fmt::format("VAG frames: {} (image byte 0x{:x})", decoded.error().message, from + decoded.error().offset);
        at += 2 * *decoded;
        progress.advance(at);
    }
    if (at != out.size()) return fmt::format("decoded {} bytes of the {} the WAV header declares", at, out.size());
    return {};
}

ReadOutcome VagFile::read(uint64_t offset, std::span<uint8_t> out) const {
    return ImageSlice(clip_->image(), clip_->offset(), clip_->vag_size()).read(offset, out);
}

WavFile::WavFile(cache::LruCache& cache, std::shared_ptr<const VagClip> clip)
    : clip_(std::move(clip)),
      decode_(
          cache,
          [this]() -> StreamedFill::Plan {
              const auto layout = clip_->wav_layout();
              if (!layout) return {0, 0, clip_->wav_error()};
              return {wav_size(*layout), wav_size(*layout) + kDecodeFrames * kFrameSize, {}};
          },
          [this](std::span<uint8_t> out, cache::Filling& progress) { return clip_->decode(out, progress); }) {}

uint64_t WavFile::size() const {
    const auto layout = clip_->wav_layout();
    return layout ? wav_size(*layout) : 0;
}

std::string WavFile::open_error() const {
    if (std::string error = clip_->wav_error(); !error.empty()) return error;
    return decode_.failure();
}

std::string audio_csv(const std::vector<AudioRow>& rows) {
    namespace csv = formats::csv;
    std::string out = "file,slot,language,sectors,bytes,rate,channels,samples,duration,loop,status,error\n";
    for (const AudioRow& r : rows) {
        std::vector<std::string> cells = {r.file, std::to_string(r.slot), r.language, std::to_string(r.sectors)};
        const VagHeader* h = r.clip ? r.clip->header() : nullptr;
        const VagScan* s = r.clip ? r.clip->scan() : nullptr;
        cells.push_back(h ? std::to_string(r.clip->vag_size()) : "");
        cells.push_back(h ? std::to_string(h->sample_rate) : "");
        cells.push_back(h ? std::to_string(h->mono() ? 1 : h->channels) : "");
        cells.push_back(s ? std::to_string(s->samples()) : "");
        cells.push_back(h && s ? fmt::format("{:.3f}", static_cast<double>(s->samples()) / h->sample_rate) : "");
        const auto layout = r.clip ? r.clip->wav_layout() : std::nullopt;
        cells.push_back(layout && layout->loop ? fmt::format("{}-{}", layout->loop->first_sample, layout->loop->last_sample) : "");
        std::string error = !r.error.empty() ? r.error : r.clip ? r.clip->wav_error() : "";
        cells.push_back(error.empty() ? "ok" : "failed");
        cells.push_back(error);
        csv::row(out, cells);
    }
    return out;
}

nlohmann::ordered_json vag_json(const AudioRow& row) {
    nlohmann::ordered_json j = {{"file", row.file}};
    std::string error = row.error;
    if (row.clip) {
        if (const VagHeader* h = row.clip->header()) {
            j["vag_bytes"] = row.clip->vag_size();
            j["range_bytes"] = row.clip->range_bytes();
            j["version"] = h->version;
            j["data_size"] = h->data_size;
            j["sample_rate"] = h->sample_rate;
            j["channels"] = h->channels;
            j["name"] = h->name;
        }
        if (const VagScan* s = row.clip->scan()) {
            j["frames"] = s->frames;
            j["sample_frames"] = s->sample_frames;
            j["end_frame"] = s->end_marked;
            j["wide_shifts"] = s->wide_shifts;
            if (s->loop) j["loop_frames"] = {s->loop->start_frame, s->loop->end_frame};
        }
        if (error.empty()) error = row.clip->wav_error();
    }
    j["ok"] = error.empty();
    if (!error.empty()) j["error"] = error;
    return j;
}

}  // namespace gcfs::tree
