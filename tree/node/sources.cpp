#include "tree/node/sources.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>

#include "formats/wad_lz/wad_lz.h"

namespace gcfs::tree {
namespace {

std::span<const uint8_t> as_span(const std::string& text) {
    return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

}  // namespace

namespace {
std::atomic<uint64_t> next_key{1};
}  // namespace

uint64_t new_cache_key() { return next_key++; }

uint64_t new_cache_keys(uint64_t count) { return next_key.fetch_add(count); }

ReadOutcome copy_window(std::span<const uint8_t> content, uint64_t offset, std::span<uint8_t> out) {
    if (offset >= content.size()) return {0, {}};
    const uint64_t n = std::min<uint64_t>(out.size(), content.size() - offset);
    std::memcpy(out.data(), content.data() + offset, n);
    return {n, {}};
}

namespace {

// §5.3: literals cost at most 275 input bytes per 273 output bytes, plus
// dummies and the 0x2000-block pads; 1/32 and a page cover that.
uint64_t prefix_first_read(uint64_t available, uint64_t length) {
    return std::min(available, formats::wad_lz::kHeaderSize + length + length / 32 + 4096);
}

// Compressed bytes read for one decode and dropped after it: a Blob, so that
// the cache counts them against its budget (Blob::live_bytes) while the
// decode holds them, on small pages (the profile of a first `ls -lR` had
// 18-29% of the daemon's time zeroing huge pages under pread into such
// buffers; only the pages filled are touched).
constexpr uint64_t kInputKept = 64 << 10;  // behind the decoder: far more than the one packet it looks back at
struct Input {
    std::shared_ptr<cache::Blob> data;
    std::span<uint8_t> bytes() const { return data->bytes(); }
};

Input input_buffer(uint64_t size) { return {cache::Blob::allocate(size, cache::Blob::Pages::small)}; }

// `length` bytes of the image; the error says where the read failed.
formats::Result<Input> read_extent(const Image& image, uint64_t offset, uint64_t length) {
    Input input = input_buffer(length);
    if (!image.read(offset, input.bytes()))
        return formats::FormatError{formats::Errc::truncated, 0,
                                    fmt::format("image read at 0x{:x} failed: {}", offset, std::strerror(errno))};
    return input;
}

}  // namespace

std::string stream_error(const formats::FormatError& error, uint64_t image_offset) {
    return fmt::format("stream {} (image byte 0x{:x})", error.describe(), image_offset);
}

namespace {
std::atomic<uint64_t> walked_bytes{0};
}  // namespace

uint64_t window_walk_bytes() { return walked_bytes.load(std::memory_order_relaxed); }

uint64_t stream_window_peak(uint64_t available, uint64_t from, uint64_t length) {
    // A head is decoded from a buffer as long as the extent, of which it
    // touches what the head needs; a window past the start reads a piece at a time.
    const uint64_t input = from == 0 ? available : formats::wad_lz::kInputStep;
    return std::min(from, formats::wad_lz::kWindowLead) + length + formats::wad_lz::kPrefixSlack +
           formats::wad_lz::window_scratch_bytes(from) + input;
}

namespace {

// How much of a stream its first `decoded` bytes are expected to take: the
// stream's own ratio with a margin when `decoded_total` is known (a cold read
// is most of a first small read's time: 400 KiB instead of the worst case's
// 1.2 MiB for a full-scale tfrag region), else the worst case.
uint64_t expected_read(uint64_t available, uint64_t decoded, uint64_t decoded_total) {
    const uint64_t worst = prefix_first_read(available, decoded);
    if (decoded_total == 0) return worst;
    const double ratio = static_cast<double>(available) / static_cast<double>(decoded_total);
    return std::min(worst, static_cast<uint64_t>(static_cast<double>(decoded) * ratio * 1.5) + (64 << 10));
}

// Decodes the stream at image `offset` (`available` bytes of extent) into
// `out` as wad_lz::StepDecoder does with `prefix`, reading it in growing
// steps (a small first one, so the first bytes come soon) and decoding each
// as it arrives, so the disc and the decoder work at the same time; `decoded`
// hears how many bytes of `out` are final after each step. The error is a
// failed image read or the decoder's.
formats::Result<uint64_t> decode_in_steps(const Image& image, uint64_t offset, uint64_t available,
                                          std::span<uint8_t> out, std::optional<uint64_t> prefix,
                                          const std::function<void(uint64_t)>& decoded = {}) {
    // Only the pages the steps fill are touched: the extent's length is an upper bound.
    const Input stream = input_buffer(available);
    formats::wad_lz::StepDecoder decoder(stream.bytes(), out, prefix);
    uint64_t arrived = 0, ready = 0;
    for (uint64_t step = 64 << 10; !decoder.done(); step = std::min<uint64_t>(step * 2, 1 << 20)) {
        const uint64_t next = std::min(decoder.input_end() ? decoder.input_end() : available, arrived + step);
        if (!image.read(offset + arrived, stream.bytes().subspan(arrived, next - arrived)))
            return formats::FormatError{formats::Errc::truncated, arrived,
                                        fmt::format("image read at 0x{:x} failed: {}", offset + arrived, std::strerror(errno))};
        arrived = next;
        auto step_done = decoder.advance(arrived);
        if (!step_done.ok()) return step_done.error();
        ready = *step_done;
        // The input behind the decoder is not read again: a whole core's
        // 9 MB need not stay resident to its end.
        if (decoder.consumed() > kInputKept) stream.data->release_front(decoder.consumed() - kInputKept);
        if (decoded) decoded(ready);
    }
    return ready;
}

// The head of a stream, [0, length), decoded in steps while the kernel reads
// ahead what the stream's own ratio says the head needs.
formats::Result<cache::Buffer> decode_stream_head(const Image& image, uint64_t offset, uint64_t available,
                                                  uint64_t length, uint64_t decoded_total) {
    auto out = cache::Blob::allocate(length + formats::wad_lz::kPrefixSlack);
    image.prefetch(offset, expected_read(available, length, decoded_total));
    if (auto done = decode_in_steps(image, offset, available, out->bytes(), length); !done.ok()) return done.error();
    out->narrow(0, length);
    return cache::Buffer(out);
}

}  // namespace

formats::Result<cache::Buffer> decode_stream_window(const Image& image, uint64_t offset, uint64_t available,
                                                    uint64_t from, uint64_t length, uint64_t decoded_total,
                                                    RestartPoints* restarts) {
    if (restarts)
        if (auto known = restarts->fails(from + length)) return *known;  // the stream fails before this window's end
    if (from == 0) return decode_stream_head(image, offset, available, length, decoded_total);
    auto out = cache::Blob::allocate(std::min(from, formats::wad_lz::kWindowLead) + length + formats::wad_lz::kPrefixSlack);
    const auto start = restarts ? restarts->before(from) : std::nullopt;
    // The decoder takes the stream a piece at a time (a window at the end of
    // a core walks all 9 MB of it; holding it whole was the largest part of a
    // level's sizing peak), while the kernel reads ahead what it will need:
    // from the restart point on, when the walk starts at one.
    const uint64_t first = start ? start->point.p : 0;
    const uint64_t reach = expected_read(available, from + length, decoded_total);
    image.prefetch(offset + first, reach > first ? reach - first : expected_read(available, length, decoded_total));
    formats::wad_lz::OfferRestart offer;
    if (restarts)
        offer = [restarts](const formats::wad_lz::RestartPoint& point, bool window_start) { restarts->offer(point, window_start); };
    bool read_failed = false;  // an I/O error says nothing of the stream: it is not remembered
    uint64_t fails_past = UINT64_MAX;
    auto walk = [&](const formats::wad_lz::RestartPoint* from_point) {
        fails_past = UINT64_MAX;
        uint64_t walked = 0;
        auto done = formats::wad_lz::decompress_window_read(
            available,
            [&](uint64_t at, std::span<uint8_t> into) -> std::string {
                if (image.read(offset + at, into)) return {};
                read_failed = true;
                return fmt::format("image read at 0x{:x} failed: {}", offset + at, std::strerror(errno));
            },
            out->bytes(), from, length, formats::wad_lz::kInputStep, from_point, offer, &fails_past, &walked);
        // What was decoded only to reach the window's lead (a failed walk: up
        // to its failing packet, when known).
        if (!done.ok()) {
            const uint64_t began = from_point ? from_point->pos : 0;
            const uint64_t reached = std::min(from - std::min(from, formats::wad_lz::kWindowLead), fails_past);
            walked = reached > began ? reached - began : 0;
        }
        walked_bytes.fetch_add(walked, std::memory_order_relaxed);
        return done;
    };
    auto at = walk(start ? &start->point : nullptr);
    if (!at.ok() && start) {
        // A saved point may lie (tree/index/restart_points.h): the walk from the head
        // decides. A point whose output missed its check goes either way; one
        // the head walk fails on too is the stream's damage, not the point's.
        const formats::FormatError resumed = at.error();
        at = walk(nullptr);
        if (at.ok() || resumed.code == formats::Errc::restart_check) restarts->drop(start->point.pos, resumed.describe());
    }
    if (!at.ok() && restarts && !read_failed && fails_past != UINT64_MAX) restarts->failed_past(fails_past, at.error());
    if (!at.ok()) return at.error();
    out->narrow(*at, length);
    return cache::Buffer(out);
}

ImageSlice::ImageSlice(const Image& image, uint64_t offset, uint64_t length)
    : image_(image), offset_(offset), length_(length) {}

ReadOutcome ImageSlice::read(uint64_t offset, std::span<uint8_t> out) const {
    if (offset >= length_) return {0, {}};
    const uint64_t n = std::min<uint64_t>(out.size(), length_ - offset);
    if (!image_.read(offset_ + offset, out.first(n)))
        return {0, fmt::format("image read of {} bytes at image byte 0x{:x} failed: {}", n, offset_ + offset,
                               std::strerror(errno))};
    return {n, {}};
}

std::optional<std::pair<int, uint64_t>> ImageSlice::file_range(uint64_t offset, uint64_t& length) const {
    if (offset >= length_) return std::nullopt;
    length = std::min(length, length_ - offset);
    return image_.file_range(offset_ + offset, length);
}

ReadOutcome StaticText::read(uint64_t offset, std::span<uint8_t> out) const {
    return copy_window(as_span(text_), offset, out);
}

const std::string& GeneratedText::text() const {
    std::call_once(made_, [&] { text_ = make_(); });
    return text_;
}

ReadOutcome GeneratedText::read(uint64_t offset, std::span<uint8_t> out) const { return copy_window(as_span(text()), offset, out); }

ReadOutcome LiveText::read(uint64_t offset, std::span<uint8_t> out) const {
    return copy_window(as_span(render_()), offset, out);
}

StreamedFill::StreamedFill(cache::LruCache& cache, std::function<Plan()> plan, Filler fill)
    : cache_(cache), key_(new_cache_key()), plan_(std::move(plan)), fill_(std::move(fill)) {}

StreamedFill::~StreamedFill() {
    std::lock_guard lock(filler_mutex_);
    if (filler_.joinable()) filler_.join();
}

std::string StreamedFill::failure() const {
    std::lock_guard lock(failure_mutex_);
    return failure_;
}

cache::Loaded StreamedFill::start() const {
    if (std::string failed = failure(); !failed.empty()) return {nullptr, failed};
    const Plan plan = plan_();
    if (!plan.error.empty()) return {nullptr, plan.error};
    auto out = cache::Blob::allocate(plan.size);
    auto filling = std::make_shared<cache::Filling>();
    std::lock_guard lock(filler_mutex_);
    if (filler_.joinable()) filler_.join();  // an evicted fill still running: at most one per file
    filler_ = std::thread([this, out, filling] { run(out, filling); });
    return {out, {}, filling};
}

void StreamedFill::run(std::shared_ptr<cache::Blob> out, std::shared_ptr<cache::Filling> filling) const {
    std::string error;
    try {
        error = fill_(out->bytes(), *filling);
    } catch (const std::exception& e) {
        error = e.what();
    }
    if (error.empty()) return;
    {
        std::lock_guard lock(failure_mutex_);
        failure_ = error;
    }
    filling->fail(error);
    cache_.forget(key_);
}

cache::Loaded StreamedFill::loaded() const {
    return cache_.get(key_, [this] { return start(); }, plan_().peak);
}

cache::Buffer StreamedFill::resident() const { return cache_.find(key_); }

cache::Loaded StreamedFill::whole() const {
    cache::Loaded whole = loaded();
    if (whole.bytes && whole.filling) {
        if (std::string error = whole.filling->wait_for(whole.bytes->size()); !error.empty()) return {nullptr, error};
    }
    return {whole.bytes, whole.error};
}

ReadOutcome StreamedFill::read(uint64_t offset, std::span<uint8_t> out) const {
    const cache::Loaded buffer = loaded();
    if (!buffer.bytes) return {0, buffer.error};
    const uint64_t end = std::min<uint64_t>(buffer.bytes->size(), offset + out.size());
    if (buffer.filling && offset < end) {
        if (std::string error = buffer.filling->wait_for(end); !error.empty()) return {0, error};
    }
    return copy_window(buffer.bytes->bytes(), offset, out);
}

WadStream::WadStream(const Image& image, cache::LruCache& cache, uint64_t offset, uint64_t available,
                     std::optional<uint64_t> declared_size)
    : image_(image), offset_(offset), available_(available), size_(declared_size),
      decode_(cache, [this] { return plan(); }, [this](std::span<uint8_t> out, cache::Filling& progress) { return fill(out, progress); }) {}

uint64_t WadStream::size() const {
    std::call_once(measured_, [&] {
        if (size_) return;
        const auto stream = read_extent(image_, offset_, available_);
        if (!stream.ok()) {
            size_error_ = stream.error().message;
            return;
        }
        auto measured = formats::wad_lz::measure(stream->bytes());
        if (measured.ok())
            size_ = *measured;
        else
            size_error_ = stream_error(measured.error(), offset_);
    });
    return size_.value_or(0);
}

std::string WadStream::open_error() const {
    size();
    if (!size_) return size_error_;
    return decode_.failure();
}

StreamedFill::Plan WadStream::plan() const {
    const uint64_t expected = size();
    if (!size_) return {0, 0, size_error_};
    // Checked before the buffer is allocated; the decoder checks the stream's
    // own declared size against it again.
    if (!formats::wad_lz::achievable(available_, expected))
        return {0, 0, fmt::format("stream of at most {} bytes cannot decode to the declared {} bytes (image byte 0x{:x})",
                                  available_, expected, offset_)};
    // Peak memory of a load: the output and the whole compressed stream.
    return {expected, expected + available_, {}};
}

std::string WadStream::fill(std::span<uint8_t> out, cache::Filling& progress) const {
    image_.prefetch(offset_, available_);
    // The stream is held whole for the decode (the cache's reservation
    // does not cover it once the loader has returned): at most one
    // extent per decode in flight, freed when it ends.
    auto done = decode_in_steps(image_, offset_, available_, out, std::nullopt, [&](uint64_t ready) { progress.advance(ready); });
    return done.ok() ? std::string() : stream_error(done.error(), offset_);
}

SubRange::SubRange(std::shared_ptr<const Source> whole, uint64_t offset, uint64_t length)
    : whole_(std::move(whole)), offset_(offset), length_(length) {}

ReadOutcome SubRange::read(uint64_t offset, std::span<uint8_t> out) const {
    if (offset >= length_) return {0, {}};
    const uint64_t n = std::min<uint64_t>(out.size(), length_ - offset);
    return whole_->read(offset_ + offset, out.first(n));
}

StreamRegion::StreamRegion(std::shared_ptr<const WadStream> whole, const Image& image, cache::LruCache& cache,
                           CoreStream stream, uint64_t offset, uint64_t length)
    : whole_(std::move(whole)), image_(image), cache_(cache), stream_(stream), offset_(offset), length_(length),
      key_(new_cache_key()) {}

ReadOutcome StreamRegion::read(uint64_t offset, std::span<uint8_t> out) const {
    if (offset >= length_) return {0, {}};
    out = out.first(std::min<uint64_t>(out.size(), length_ - offset));
    if (whole_->open_error().empty())
        if (ReadOutcome got = whole_->read(offset_ + offset, out); got.ok()) return got;
    const cache::Loaded window = this->window();
    if (!window.bytes) return {0, window.error};
    return copy_window(window.bytes->bytes(), offset, out);
}

void SoundPrefix::extend(uint64_t to) {
    uint64_t seen = end_.load(std::memory_order_relaxed);
    while (seen < to && !end_.compare_exchange_weak(seen, to, std::memory_order_release)) {
    }
}

std::string StreamRegion::error() const {
    if (stream_.sound->end() >= offset_ + length_) return {};
    return bytes().loaded.error;
}

StreamRegion::Bytes StreamRegion::bytes() const {
    if (cache::Buffer whole = whole_->resident()) {
        stream_.sound->extend(whole->size());
        return {{std::move(whole), {}}, 0};
    }
    return {window(), offset_};
}

cache::Loaded StreamRegion::window() const { return cached_core_window(cache_, key_, image_, stream_, offset_, offset_ + length_); }

cache::Loaded cached_core_window(cache::LruCache& cache, uint64_t key, const Image& image, CoreStream stream,
                                 uint64_t from, uint64_t to) {
    return cache.get(
        key,
        [&]() -> cache::Loaded {
            auto decoded = decode_stream_window(image, stream.offset, stream.available, from, to - from, stream.decoded,
                                                stream.restarts.get());
            if (!decoded.ok()) return {nullptr, "core_data " + stream_error(decoded.error(), stream.offset)};
            stream.sound->extend(to);
            if (from == 0) return {*decoded, {}};
            // A window past the start is copied out of the buffer that also
            // held its history, so the cache charges exactly what it keeps.
            return {cache::Blob::copy_of((*decoded)->bytes()), {}};
        },
        stream_window_peak(stream.available, from, to - from));
}

}  // namespace gcfs::tree
