// The kinds of file content the tree serves.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "cache/lru_cache.h"
#include "tree/node/image.h"
#include "tree/node/node.h"
#include "tree/index/restart_points.h"

namespace gcfs::tree {

// A fresh key for one cached buffer (one per source that caches).
uint64_t new_cache_key();
// `count` fresh keys in a row; returns the first (a file run's files, made
// again on every lookup, keep theirs: first + position).
uint64_t new_cache_keys(uint64_t count);

// A byte range of the image, read with pread on every request (no cache copy).
class ImageSlice final : public Source {
public:
    ImageSlice(const Image& image, uint64_t offset, uint64_t length);
    uint64_t size() const override { return length_; }
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;
    // The image file's descriptor and offset holding bytes [offset, offset +
    // length) of the slice, clamped to its end, when a reply can splice them.
    std::optional<std::pair<int, uint64_t>> file_range(uint64_t offset, uint64_t& length) const;

private:
    const Image& image_;
    uint64_t offset_, length_;
};

// Content fixed once made (README.txt).
class StaticText final : public Source {
public:
    explicit StaticText(std::string text) : text_(std::move(text)) {}
    uint64_t size() const override { return text_.size(); }
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;

private:
    std::string text_;
};

// Text made once, when first stat'ed or read, and fixed from then on (a
// folder's CSV or info.json that needs its entries looked at first).
class GeneratedText final : public Source {
public:
    explicit GeneratedText(std::function<std::string()> make) : make_(std::move(make)) {}
    uint64_t size() const override { return text().size(); }
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;

private:
    const std::string& text() const;
    std::function<std::string()> make_;
    mutable std::once_flag made_;
    mutable std::string text_;
};

// Content rendered afresh on every open (.gcfs/stats).
class LiveText final : public Source {
public:
    explicit LiveText(std::function<std::string()> render) : render_(std::move(render)) {}
    uint64_t size() const override { return render_().size(); }
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;
    bool dynamic() const override { return true; }
    std::string render() const { return render_(); }

private:
    std::function<std::string()> render_;
};

// A decode that fills its cache buffer front to back on a thread of its own,
// while each read is answered as soon as its bytes are final (issue 18's
// streamed decodes; WAD-LZ streams and WAV files). A fill found damaged part
// way is rejected whole from then on: every read and open answers its error.
// Its owner declares it last, so that it is destroyed (and its thread joined)
// before whatever `fill` reads.
class StreamedFill {
public:
    struct Plan {
        uint64_t size = 0;  // the buffer's bytes
        uint64_t peak = 0;  // what the decode holds at its peak, for the cache's budget
        std::string error;  // why nothing can be decoded (checked before allocating)
    };
    // Writes `out` front to back, telling `progress` what is final; returns
    // the error it stopped for, or "".
    using Filler = std::function<std::string(std::span<uint8_t> out, cache::Filling& progress)>;

    StreamedFill(cache::LruCache& cache, std::function<Plan()> plan, Filler fill);
    ~StreamedFill();
    StreamedFill(const StreamedFill&) = delete;
    StreamedFill& operator=(const StreamedFill&) = delete;

    cache::Loaded loaded() const;  // through the cache, possibly still filling
    cache::Loaded whole() const;   // every byte final (null with `error` on failure)
    cache::Buffer resident() const;  // the buffer, when the cache holds it whole and final; nothing is started
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const;
    std::string failure() const;   // why the last fill stopped, once it has

private:
    cache::Loaded start() const;  // the cache's loader
    void run(std::shared_ptr<cache::Blob> out, std::shared_ptr<cache::Filling> filling) const;

    cache::LruCache& cache_;
    const uint64_t key_;
    std::function<Plan()> plan_;
    Filler fill_;
    mutable std::mutex filler_mutex_;
    mutable std::thread filler_;  // the last fill started (joined before the next, and at the end)
    mutable std::mutex failure_mutex_;
    mutable std::string failure_;
};

// A WAD-LZ stream in the image, decompressed on first read into the cache.
// The decoded size comes from a header when one declares it; otherwise it is
// measured once by walking the packets (no output is written).
//
// The decode streams (StreamedFill): a thread of the stream's own decodes it
// front to back, reading the stream in steps while the kernel reads ahead.
class WadStream final : public Source {
public:
    WadStream(const Image& image, cache::LruCache& cache, uint64_t offset, uint64_t available,
              std::optional<uint64_t> declared_size);
    uint64_t size() const override;
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override { return decode_.read(offset, out); }
    std::string open_error() const override;
    // The whole decoded buffer, once all of it is decoded (null with `error`
    // set on failure).
    cache::Loaded decoded() const { return decode_.whole(); }
    // The whole decoded buffer if the cache holds it complete, else null:
    // a decoder that needs a part of the stream uses it when it is at hand
    // rather than start a whole decode of its own.
    cache::Buffer resident() const { return decode_.resident(); }

private:
    StreamedFill::Plan plan() const;
    std::string fill(std::span<uint8_t> out, cache::Filling& progress) const;

    const Image& image_;
    uint64_t offset_, available_;
    mutable std::once_flag measured_;
    mutable std::optional<uint64_t> size_;
    mutable std::string size_error_;
    StreamedFill decode_;  // last: its thread reads the members above
};

// A file the headers name but that cannot be read at all (an extent past its
// container, say): it lists with size 0, and opening it is EIO with `reason`.
class Unreadable final : public Source {
public:
    explicit Unreadable(std::string reason) : reason_(std::move(reason)) {}
    uint64_t size() const override { return 0; }
    ReadOutcome read(uint64_t, std::span<uint8_t>) const override { return {0, reason_}; }
    std::string open_error() const override { return reason_; }

private:
    std::string reason_;
};

// A window of another source (core regions inside core_data.bin).
class SubRange final : public Source {
public:
    SubRange(std::shared_ptr<const Source> whole, uint64_t offset, uint64_t length);
    uint64_t size() const override { return length_; }
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;

private:
    std::shared_ptr<const Source> whole_;
    uint64_t offset_, length_;
};

// Decodes bytes [from, from + length) of the WAD-LZ stream at image `offset`
// (`available` bytes of extent), holding only a short history of what comes
// before and a piece of the stream at a time (wad_lz::decompress_window_read);
// it reads only as much of the stream as the window needs. A window at the
// head of the stream is read in steps and decoded as they arrive
// (wad_lz::StepDecoder). Either way the kernel reads ahead meanwhile:
// `decoded_total`, when known, is what the whole stream decodes to, and the
// read-ahead is then sized from the stream's own ratio rather than the worst case.
// With `restarts`, the walk to the window starts at the furthest point it
// knows and offers it the points met on the way.
formats::Result<cache::Buffer> decode_stream_window(const Image& image, uint64_t offset, uint64_t available,
                                                    uint64_t from, uint64_t length, uint64_t decoded_total = 0,
                                                    RestartPoints* restarts = nullptr);
// Bytes decode_stream_window has decoded only to reach its windows' leads
// (from a restart point or the stream's head: the packets wholly before each
// window's kWindowLead bytes of history) and let go, in this process: the
// work a window costs beyond its own bytes (.gcfs/stats bytes_walked).
uint64_t window_walk_bytes();
// "stream <error> (image byte 0x…)": how a damaged WAD-LZ stream is reported.
std::string stream_error(const formats::FormatError& error, uint64_t image_offset);
// The most memory decode_stream_window holds at once (output, history, stream).
uint64_t stream_window_peak(uint64_t available, uint64_t from, uint64_t length);

// How far a level's core stream is known to decode without an error: the
// end of the furthest window decoded so far. A window that ends before it
// would decode too (WAD LZ finds damage front to back), so whether it reads
// is known without decoding it again.
class SoundPrefix {
public:
    uint64_t end() const { return end_.load(std::memory_order_acquire); }
    void extend(uint64_t to);

private:
    std::atomic<uint64_t> end_{0};
};

// Where a level's core_data WAD stream lies in the image.
struct CoreStream {
    uint64_t offset = 0;     // image offset of the stream
    uint64_t available = 0;  // bytes of its extent
    uint64_t decoded = 0;    // what the whole stream decodes to (core header 0x8C); 0: unknown
    std::shared_ptr<SoundPrefix> sound = std::make_shared<SoundPrefix>();  // shared by the copies of one level's
    std::shared_ptr<RestartPoints> restarts;  // where windows may start (null: from the head)
};

// Decoded bytes [from, to) of the core_data stream, through the cache under
// `key`: only the window is kept.
cache::Loaded cached_core_window(cache::LruCache& cache, uint64_t key, const Image& image, CoreStream stream,
                                 uint64_t from, uint64_t to);

// One region of a level's core_data stream (core/<region>.bin). What it
// answers depends only on where the stream is damaged, never on what was
// read first: it is served from the whole decode while that is sound, and,
// once the whole decode has failed, from a window decoded up to its own end.
// A region before the damage reads in full; one that reaches it fails.
// bytes() (a decoder's input, not a read of the region's file) never starts
// the whole decode: it takes the whole buffer only when the cache holds it
// complete, and decodes the region's window otherwise.
class StreamRegion final : public Source {
public:
    StreamRegion(std::shared_ptr<const WadStream> whole, const Image& image, cache::LruCache& cache, CoreStream stream,
                 uint64_t offset, uint64_t length);
    uint64_t size() const override { return length_; }
    uint64_t offset() const { return offset_; }  // in core_data.bin
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;

    // All of the region at once, by the same rule: the whole decode (`base`
    // 0) when the cache holds it complete, else the region's window (`base`
    // its offset).
    struct Bytes {
        cache::Loaded loaded;
        uint64_t base = 0;  // the core_data byte at loaded.bytes[0]
    };
    Bytes bytes() const;
    // What bytes() would answer, decoding only when the stream's sound
    // prefix does not already reach the region's end.
    std::string error() const;

private:
    cache::Loaded window() const;

    std::shared_ptr<const WadStream> whole_;
    const Image& image_;
    cache::LruCache& cache_;
    CoreStream stream_;
    uint64_t offset_, length_;
    uint64_t key_;  // of the window, when it is needed
};

// Copies [offset, offset + out.size()) of `content`, clamped to its end.
ReadOutcome copy_window(std::span<const uint8_t> content, uint64_t offset, std::span<uint8_t> out);

}  // namespace gcfs::tree
