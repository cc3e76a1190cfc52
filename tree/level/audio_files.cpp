#include "tree/level/audio_files.h"

#include <fmt/format.h>

#include <atomic>
#include <bit>
#include <cerrno>
#include <cstring>
#include <thread>

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
        // A piece at a time into one small buffer: a long VAG held whole cost
        // more in page faults and zeroing than reading it (a 7.5 MB VAG: 31 ms).
        VagScanner scanner;
        formats::Bytes piece(kDecodeFrames * kFrameSize);
        const uint64_t frames = h->data_size / kFrameSize;
        image_.prefetch(offset_ + kVagHeaderSize, h->data_size);
        for (uint64_t f = 0; f < frames; f += kDecodeFrames) {
            const uint64_t count = std::min(kDecodeFrames, frames - f);
            const uint64_t from = offset_ + kVagHeaderSize + f * kFrameSize;
            if (!image_.read(from, std::span(piece).first(count * kFrameSize))) {
                scan_error_ = read_failure(from);
                return;
            }
            if (!scanner.feed(std::span(piece).first(count * kFrameSize))) break;
        }
        auto scanned = scanner.result();
        if (scanned.ok()) scanned->frames = frames;
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

namespace {

// Decodes frames [first, first + count) of the VAG whose frames start at
// image byte `frames_at` into `pcm` (28 samples a frame), carrying `history`.
std::string decode_piece(const Image& image, uint64_t frames_at, uint64_t first, uint64_t count, AdpcmHistory& history,
                         formats::Bytes& buffer, int16_t* pcm) {
    const uint64_t from = frames_at + first * kFrameSize;
    const auto bytes = std::span(buffer).first(count * kFrameSize);
    if (!image.read(from, bytes)) return read_failure(from);
    auto decoded = decode_frames(bytes, count, history, {pcm + first * kSamplesPerFrame, count * kSamplesPerFrame});
    if (!decoded.ok())  // the image changed since the scan
        return fmt::format("VAG frames: {} (image byte 0x{:x})", decoded.error().message, from + decoded.error().offset);
    return {};
}

// The back half of a long VAG decoded on a second thread from a silent
// history, its state published after each piece.
struct AheadDecode {
    std::vector<AdpcmHistory> ends;   // the history after each piece
    std::atomic<uint64_t> pieces{0};  // pieces whose samples and end are written
    std::atomic<bool> stop{false};
    std::thread thread;

    void stop_and_join() {
        stop = true;
        join();
    }
    // Once stopped it is already joined; stopped or not, its finished pieces stand.
    void join() {
        if (thread.joinable()) thread.join();
    }
    ~AheadDecode() { stop_and_join(); }
};

}  // namespace

// Decodes every sample frame into the WAV `out`, front to back for `progress`.
// A long VAG (two pieces or more) is decoded by two threads: this one exact
// from the start, a second one from the middle starting from a silent
// history. PS-ADPCM's filter forgets its history within a few dozen frames
// (measured on the builder's ten-minute tone: 21 on average, 49 at worst
// from 473 starting points), so once this thread, decoding on past the
// middle, ends a piece in the same state the second thread ended it in,
// everything the second thread wrote after that piece is exact: the output
// is the serial decode's, byte for byte, in about half the time on two cores.
// Where the states never meet, this thread decodes on to the end itself.
std::string VagClip::decode(std::span<uint8_t> out, cache::Filling& progress) const {
    const auto layout = wav_layout();
    if (!layout) return wav_error();
    const formats::Bytes header = *wav_header(*layout);
    std::memcpy(out.data(), header.data(), header.size());
    progress.advance(header.size());
    const uint64_t frames = scan_->sample_frames, frames_at = offset_ + kVagHeaderSize;
    image_.prefetch(frames_at, frames * kFrameSize);
    auto* pcm = reinterpret_cast<int16_t*>(out.data() + header.size());
    auto done_to = [&](uint64_t frame) { progress.advance(header.size() + 2 * frame * kSamplesPerFrame); };
    formats::Bytes buffer(kDecodeFrames * kFrameSize);
    AdpcmHistory history;
    // Frames [from, frames) in pieces, exact, from `history`.
    auto serial = [&](uint64_t from) -> std::string {
        for (uint64_t f = from; f < frames; f += kDecodeFrames) {
            const uint64_t count = std::min(kDecodeFrames, frames - f);
            if (std::string error = decode_piece(image_, frames_at, f, count, history, buffer, pcm); !error.empty()) return error;
            done_to(f + count);
        }
        return {};
    };
    const uint64_t split = frames / 2 / kDecodeFrames * kDecodeFrames;
    if (split < kDecodeFrames) return serial(0);
    AheadDecode ahead;
    const uint64_t ahead_pieces = (frames - split + kDecodeFrames - 1) / kDecodeFrames;
    ahead.ends.resize(ahead_pieces);
    ahead.thread = std::thread([&] {
        AdpcmHistory silent;
        formats::Bytes own(kDecodeFrames * kFrameSize);
        for (uint64_t p = 0; p < ahead_pieces && !ahead.stop.load(std::memory_order_relaxed); ++p) {
            const uint64_t f = split + p * kDecodeFrames;
            if (!decode_piece(image_, frames_at, f, std::min(kDecodeFrames, frames - f), silent, own, pcm).empty()) return;
            ahead.ends[p] = silent;
            ahead.pieces.store(p + 1, std::memory_order_release);
        }
    });
    for (uint64_t f = 0; f < split; f += kDecodeFrames) {
        if (std::string error = decode_piece(image_, frames_at, f, kDecodeFrames, history, buffer, pcm); !error.empty()) return error;
        done_to(f + kDecodeFrames);
    }
    // Past the middle: redo the second thread's pieces exactly until a piece
    // ends in the state it ended in.
    for (uint64_t p = 0; p < ahead_pieces; ++p) {
        if (ahead.pieces.load(std::memory_order_acquire) <= p) ahead.stop_and_join();  // caught up: it stops, its finished pieces stand
        if (ahead.pieces.load(std::memory_order_acquire) <= p) return serial(split + p * kDecodeFrames);
        const uint64_t f = split + p * kDecodeFrames;
        if (std::string error = decode_piece(image_, frames_at, f, std::min(kDecodeFrames, frames - f), history, buffer, pcm); !error.empty())
            return error;
        done_to(std::min(frames, f + kDecodeFrames));
        if (history.h1 != ahead.ends[p].h1 || history.h2 != ahead.ends[p].h2) continue;
        // Converged: what it wrote after piece p is exact (it runs to its end
        // unless it was stopped above after finishing piece p meanwhile).
        ahead.join();
        const uint64_t written = ahead.pieces.load(std::memory_order_acquire);
        history = ahead.ends[written - 1];
        done_to(std::min(frames, split + written * kDecodeFrames));
        return serial(split + written * kDecodeFrames);
    }
    return {};  // no piece converged: this thread decoded every one itself
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
