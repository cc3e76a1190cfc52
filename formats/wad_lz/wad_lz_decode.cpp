// WAD LZ decoder (formats.md §5.2). One packet walker serves both the
// size-only pre-pass and the real decode.
#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "formats/wad_lz/wad_lz.h"

namespace gcfs::formats::wad_lz {
namespace {

constexpr uint64_t kPadAlignment = 0x1000;  // §5.2: a pad advances to the next 0x1000 from +0x10

// A walk always stops between packets, so it can be resumed from its cursor.
using Cursor = StepDecoder::Cursor;

struct Walk {
    const uint8_t* in;
    uint64_t end;       // compressed_size: the stream stops exactly here (§5.2)
    uint8_t* out;       // null in measure mode; holds decoded bytes [base, capacity)
    uint64_t capacity;  // the decoded position `out` ends at
    uint64_t stop_at = UINT64_MAX;  // prefix mode: stop once this much is decoded
    uint64_t base = 0;  // window mode: the decoded position out[0] holds
    uint64_t input_limit = UINT64_MAX;  // step mode: no packet starts here or past it
    uint64_t in_base = 0;  // fed mode: the stream position in[0] holds
    Cursor* last = nullptr;  // hears where the last packet decoded started
};

// Copies in fixed 8-byte chunks: a few moves instead of a library call for
// the 1-16-byte runs most packets carry. The caller guarantees slack up to the
// next multiple of 8 on both sides; bytes past `count` are overwritten by later
// packets. Forward chunks stay exact for overlapping matches whose source is
// at least 8 bytes behind.
inline void copy_chunk(uint8_t* dst, const uint8_t* src) {
    uint64_t chunk;
    std::memcpy(&chunk, src, 8);
    std::memcpy(dst, &chunk, 8);
}
inline void copy_chunks(uint8_t* dst, const uint8_t* src, uint64_t count) {
    for (uint64_t i = 0; i < count; i += 8) copy_chunk(dst + i, src + i);
}
// For a match whose source lies d < 8 bytes back: which of the d source bytes
// each of the first 8 output bytes repeats, and the smallest multiple of d
// that is at least 8.
constexpr uint8_t kRepeatIndex[8][8] = {
    {}, {0, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 0, 1, 0, 1, 0, 1}, {0, 1, 2, 0, 1, 2, 0, 1},
    {0, 1, 2, 3, 0, 1, 2, 3}, {0, 1, 2, 3, 4, 0, 1, 2}, {0, 1, 2, 3, 4, 5, 0, 1}, {0, 1, 2, 3, 4, 5, 6, 0}};
constexpr uint8_t kWholePeriods[8] = {0, 8, 8, 9, 8, 10, 12, 14};

// The same with at least 16 bytes moved: most runs are that short, and a
// fixed copy spares the loop's data-dependent branch.
inline void copy_chunks_16(uint8_t* dst, const uint8_t* src, uint64_t count) {
    copy_chunk(dst, src);
    copy_chunk(dst + 8, src + 8);
    if (count > 16) [[unlikely]] copy_chunks(dst + 16, src + 16, count - 16);
}

// The most one packet reads and writes (§5.2): a big literal reads its flag,
// its count and 273 bytes, then peeks at the next flag; a big match writes
// 288 bytes and its 3 trailing literals. Chunked copies run up to 15 past both.
constexpr uint64_t kMaxPacketInput = 1 + 1 + 273 + 1 + 15;
constexpr uint64_t kMaxPacketOutput = 288 + 3 + 15;

// Where the last packet that can run on the first `held` stream bytes may
// start: one starting kMaxPacketInput bytes before their end reads only bytes
// that are there (stepped decodes, pieces of a window's stream).
constexpr uint64_t packet_start_limit(uint64_t held) { return held > kMaxPacketInput ? held - kMaxPacketInput : 0; }

// One packet at `p` (formats.md §5.2). Unchecked packets are those the walk
// knows to lie at least one largest packet away from the end of the input and
// of the output: their bounds checks cannot fail, so only the rules that
// depend on the bytes themselves (lookback, double literal) are tested, and
// copies move whole chunks past the bytes they need.
template <bool kWrite, bool kChecked>
[[gnu::always_inline]] inline void decode_packet(const Walk& w, uint64_t& p, uint64_t& pos) {
    // Positions are the stream's; `in` holds them from w.in_base on.
    const uint8_t* const in = w.in;
    const uint64_t in_base = w.in_base;
    const uint64_t end = w.end;
    auto at_pos = [&]() { return w.out + (pos - w.base); };
    auto need = [&](uint64_t count, uint64_t packet) {
        if (kChecked && count > end - p) [[unlikely]]
            fail(Errc::truncated, packet,
                 fmt::format("packet needs {} more bytes, stream ends {} bytes later", count, end - p));
    };
    auto room = [&](uint64_t count, uint64_t packet) {
        if (kChecked && count > w.capacity - pos) [[unlikely]]
            fail(Errc::size_mismatch, packet,
                 fmt::format("stream decodes past the declared size of {} bytes", w.capacity));
    };
    auto copy_input = [&](uint64_t count, uint64_t packet) {
        need(count, packet);
        room(count, packet);
        if constexpr (kWrite) {
            if (!kChecked)
                copy_chunks_16(at_pos(), in + (p - in_base), count);
            else if (count <= 3 && end - p >= 8 && w.capacity - pos >= 8)
                copy_chunk(at_pos(), in + (p - in_base));
            else
                std::memcpy(at_pos(), in + (p - in_base), count);
        }
        p += count;
        pos += count;
    };

    const uint64_t packet = p;
    const uint8_t flag = in[p++ - in_base];
    uint64_t length = 0, distance = 0, trailing = 0;
    // §5.2: a match's M is the flag's low bits, or when those are zero an
    // extra byte E plus the largest value they hold (E + 7, E + 31).
    auto match_m = [&](uint8_t mask) {
        uint64_t m = flag & mask;
        if (m == 0) {
            need(1, packet);
            m = in[p++ - in_base] + uint64_t{mask};
        }
        return m;
    };

    if (flag < 0x10) {  // literal packets
        uint64_t count;
        if (flag == 0) {
            need(1, packet);
            count = in[p++ - in_base] + 18ull;
        } else {
            count = flag + 3ull;
        }
        copy_input(count, packet);
        if (p < end && in[p - in_base] < 0x10) [[unlikely]]
            fail(Errc::double_literal, p,
                 fmt::format("literal packet at 0x{:x} is followed by flag 0x{:02x}", packet, in[p - in_base]));
        return;
    }
    if (flag < 0x20) {  // far match, dummy or pad
        const uint64_t m = match_m(7);
        need(2, packet);
        const uint8_t b0 = in[p++ - in_base];
        const uint8_t b1 = in[p++ - in_base];
        const uint64_t x = ((flag & 8) ? 0x4000u : 0u) + b1 * 64ull + (b0 >> 2);
        if (x == 0 && m != 1) {
            // Pad: skip filler to the next 0x1000 boundary. Like Wrench's
            // decoder, a pad that runs off the end simply ends the stream.
            p = kHeaderSize + align_up(p - kHeaderSize, kPadAlignment);
            return;
        }
        if (x != 0) {
            length = m + 2;
            distance = x + 0x4000;
        }
        trailing = b0 & 3;
    } else if (flag < 0x40) {  // medium / big match
        const uint64_t m = match_m(0x1f);
        need(2, packet);
        const uint8_t b1 = in[p++ - in_base];
        const uint8_t b2 = in[p++ - in_base];
        length = m + 2;
        distance = b2 * 64ull + (b1 >> 2) + 1;
        trailing = b1 & 3;
    } else {  // little match
        need(1, packet);
        const uint8_t b1 = in[p++ - in_base];
        length = (flag >> 5) + 1ull;
        distance = b1 * 8ull + ((flag >> 2) & 7) + 1;
        trailing = flag & 3;
    }

    if (length != 0) {
        if (distance > pos) [[unlikely]]
            fail(Errc::lookback, packet, fmt::format("match reaches {} bytes back with only {} decoded", distance, pos));
        room(length, packet);
        if constexpr (kWrite) {
            uint8_t* dst = at_pos();
            const uint8_t* src = dst - distance;
            if (!kChecked && distance >= 8) {
                copy_chunks_16(dst, src, length);
            } else if (!kChecked) {
                // A source closer than 8 bytes repeats its first `distance`
                // bytes: the first 8 are gathered from those alone (no load
                // waits on the store before it), the rest copied in chunks
                // from a whole number of periods (at least 8) back.
                uint8_t pattern[8];
                for (uint64_t i = 0; i < 8; ++i) pattern[i] = src[kRepeatIndex[distance][i]];
                std::memcpy(dst, pattern, 8);
                if (length > 8) copy_chunks(dst + 8, dst + 8 - kWholePeriods[distance], length - 8);
            } else if (distance >= 8 && length <= 16 && w.capacity - pos >= 16) {
                copy_chunks(dst, src, length);
            } else if (distance >= length) {
                std::memcpy(dst, src, length);
            } else if (distance == 1) {
                std::memset(dst, *src, length);
            } else {
                for (uint64_t i = 0; i < length; ++i) dst[i] = src[i];  // overlapping: RLE-like
            }
        }
        pos += length;
    }
    if (!kChecked) {  // 0-3 bytes: one chunk, whatever their number
        if constexpr (kWrite) copy_chunk(at_pos(), in + (p - in_base));
        p += trailing;
        pos += trailing;
    } else if (trailing != 0) {
        copy_input(trailing, packet);
    }
}

template <bool kWrite>
void walk_packets(const Walk& w, Cursor& at) {
    uint64_t p = at.p;
    uint64_t pos = at.pos;
    // Output position `pos` lives at out[pos - base]; window mode keeps at
    // least the longest lookback (§5.2) behind `pos` in the buffer. Far from
    // both ends, packets skip their bounds checks.
    const uint64_t input_stop = std::min(w.end, w.input_limit);
    const uint64_t fast_input_end = std::min(w.end > kMaxPacketInput ? w.end - kMaxPacketInput : 0, input_stop);
    const uint64_t fast_output_end = w.capacity > kMaxPacketOutput ? w.capacity - kMaxPacketOutput : 0;
    const uint64_t fast_stop = std::min(fast_output_end, w.stop_at);
    // A packet that fails leaves `at` at its start: every byte before it decoded.
    Cursor packet = at;
    try {
        while (p < fast_input_end && pos < fast_stop) {
            packet = {p, pos};
            decode_packet<kWrite, false>(w, p, pos);
        }
        while (p < input_stop && pos < w.stop_at) {
            packet = {p, pos};
            decode_packet<kWrite, true>(w, p, pos);
        }
    } catch (const FormatFailure&) {
        at = packet;
        throw;
    }
    if (w.last && p != at.p) *w.last = packet;
    at = {p, pos};
}

template <bool kWrite>
uint64_t walk_from_start(const Walk& w) {
    Cursor at;
    walk_packets<kWrite>(w, at);
    return at.pos;
}

uint64_t checked_end(ByteSpan stream, uint64_t available) {
    require(stream, 0, kHeaderSize, "WAD LZ header");
    if (std::memcmp(stream.data(), "WAD", 3) != 0)
        fail(Errc::bad_magic, 0, "stream does not start with \"WAD\"");
    const int32_t declared = s32_at(stream, 3);
    if (declared < static_cast<int32_t>(kHeaderSize))
        // Wrench reads such a stream as empty; gcfs refuses it, since the size
        // counts the 16-byte header itself (§5.1) and cannot be smaller.
        fail(Errc::bad_value, 3,
             fmt::format("compressed size {} is smaller than the 16-byte header it includes (formats.md 5.1); "
                         "refused, though Wrench would read an empty stream",
                         declared));
    if (static_cast<uint64_t>(declared) > available)
        fail(Errc::out_of_range, 3,
             fmt::format("compressed size {} exceeds the {} bytes available", declared, available));
    return static_cast<uint64_t>(declared);
}

}  // namespace

Result<StreamHeader> read_header(ByteSpan stream, uint64_t available) {
    return capture([&] {
        const uint64_t end = checked_end(stream, available);
        std::string tag(reinterpret_cast<const char*>(stream.data() + 7), 9);
        tag.erase(tag.find_last_not_of('\0') + 1);
        return StreamHeader{static_cast<uint32_t>(end), tag};
    });
}

Result<uint64_t> measure(ByteSpan stream) {
    return capture([&] {
        return walk_from_start<false>(Walk{stream.data(), checked_end(stream, stream.size()), nullptr, UINT64_MAX});
    });
}

Result<std::vector<StepDecoder::Cursor>> block_starts(ByteSpan stream) {
    return capture([&] {
        const Walk w{stream.data(), checked_end(stream, stream.size()), nullptr, UINT64_MAX};
        std::vector<Cursor> out;
        Cursor at;
        while (at.p < w.end) {
            const Cursor packet = at;
            decode_packet<false, true>(w, at.p, at.pos);
            // §5.2: flag 0x10-0x1F with X == 0 and M != 1 is a pad; M is the
            // flag's low 3 bits, or E + 7 when they are 0 (so never 1 then).
            const uint8_t flag = stream[packet.p];
            if (flag < 0x10 || flag >= 0x20 || (flag & 7) == 1) continue;
            const uint64_t b0 = packet.p + ((flag & 7) == 0 ? 2 : 1);
            const bool x_zero = (flag & 8) == 0 && (stream[b0] >> 2) == 0 && stream[b0 + 1] == 0;
            if (x_zero && at.p < w.end && (at.p - kHeaderSize) % kBlockBytes == 0) out.push_back(at);
        }
        return out;
    });
}

Result<uint64_t> decompress_into(ByteSpan stream, std::span<uint8_t> out) {
    return capture([&] {
        const uint64_t end = checked_end(stream, stream.size());
        const uint64_t decoded = walk_from_start<true>(Walk{stream.data(), end, out.data(), out.size()});
        if (decoded != out.size())
            fail(Errc::size_mismatch, end,
                 fmt::format("stream decodes to {} bytes, {} were declared", decoded, out.size()));
        return end;
    });
}

namespace {

// Where a window's walk reads the stream: all of it in memory, or a piece at
// a time through a ReadStream, keeping at most `step` bytes.
class Feed {
public:
    Feed(ByteSpan whole, uint64_t end) : data_(whole.data()), held_end_(end), end_(end) {}
    Feed(const ReadStream& read, uint64_t end, uint64_t step)
        : read_(&read), buffer_(std::make_unique_for_overwrite<uint8_t[]>(step)), step_(step), end_(end) {
        data_ = buffer_.get();
    }
    uint64_t end() const { return end_; }

    // Walks from `at` until `w.stop_at` is decoded or the stream ends.
    void walk(Walk w, Cursor& at) {
        for (;;) {
            if (read_ && held_end_ < end_ && at.p >= packet_start_limit(held_end_)) refill(at.p);
            const bool all = held_end_ >= end_;
            w.in = data_;
            w.in_base = base_;
            w.input_limit = all ? UINT64_MAX : packet_start_limit(held_end_);
            walk_packets<true>(w, at);
            if (all || at.pos >= w.stop_at || at.p >= end_) return;
        }
    }

private:
    // Keeps the unread bytes from `p` on (a pad may have skipped past all
    // that is held) and reads on to fill the buffer.
    void refill(uint64_t p) {
        const uint64_t kept = p < held_end_ ? held_end_ - p : 0;
        if (kept) std::memmove(buffer_.get(), buffer_.get() + (p - base_), kept);
        base_ = p;
        const uint64_t from = p + kept, to = std::min(end_, p + step_);
        if (to > from) {
            if (const std::string error = (*read_)(from, {buffer_.get() + kept, to - from}); !error.empty())
                fail(Errc::truncated, from, error);
        }
        held_end_ = std::max(to, p);
    }

    const ReadStream* read_ = nullptr;
    std::unique_ptr<uint8_t[]> buffer_;
    const uint64_t step_ = 0;
    const uint8_t* data_ = nullptr;
    uint64_t base_ = 0, held_end_ = 0;  // stream bytes [base_, held_end_) are at data_
    uint64_t end_;
};

// A point met on a walk, offered once the walk has decoded its check.
struct PendingPoint {
    Cursor at;
    std::unique_ptr<uint8_t[]> history;
    bool window_start;
};

// decompress_window_into's walk (see wad_lz.h), from whichever feed, from
// the head or from `start` (checked by the caller); `at` is where it is,
// `walked` what it decoded before the window's lead.
uint64_t walk_window(Feed& feed, std::span<uint8_t> out, uint64_t from, uint64_t length, const RestartPoint* start,
                     const OfferRestart& offer, Cursor& at, uint64_t& walked) {
    const uint64_t end = feed.end();
    if (!achievable(end, from + length))
        fail(Errc::too_large, 3, fmt::format("{} compressed bytes cannot decode to {} bytes", end, from + length));
    const uint64_t lead = std::min(from, kWindowLead);
    if (out.size() < lead + length + kPrefixSlack)
        fail(Errc::too_large, 0, fmt::format("window buffer of {} bytes for {} + {} + slack", out.size(), lead, length));
    auto short_of = [&](uint64_t decoded, uint64_t wanted) {
        fail(Errc::size_mismatch, end, fmt::format("stream decodes to {} bytes, {} were asked", decoded, wanted));
    };
    uint64_t base = 0;  // the decoded position out[0] holds
    walked = 0;
    if (from > kWindowLead) {
        // What comes before the window passes through a small buffer that
        // keeps only the last kWindowLead bytes (>= the longest lookback).
        const uint64_t size = window_scratch_bytes(from);
        auto history = std::make_unique_for_overwrite<uint8_t[]>(size);
        uint64_t history_base = 0;
        const uint64_t began = start ? start->pos : 0;
        if (start) {
            history_base = start->pos - kRestartHistory;
            std::memcpy(history.get(), start->history.data(), kRestartHistory);
            at = {start->p, start->pos};
        }
        auto check_at = [&](uint64_t p, uint64_t pos) { return restart_check(p, pos, {history.get() + (pos - history_base), kRestartCheck}); };
        // Points met wait here until a later step has decoded their checks:
        // one at each step's end, and the window's own (the packet that
        // decodes the first byte of its lead), from which this window
        // resumes with nothing walked.
        std::vector<PendingPoint> pending;
        auto keep_point = [&](Cursor point, bool window_start) {
            if (!offer || point.pos < kRestartHistory || point.pos - kRestartHistory < history_base) return;
            if (start && point.pos == start->pos) return;  // the point this walk began at
            for (PendingPoint& other : pending)
                if (other.at.pos == point.pos) return void(other.window_start |= window_start);
            PendingPoint kept{point, std::make_unique_for_overwrite<uint8_t[]>(kRestartHistory), window_start};
            std::memcpy(kept.history.get(), history.get() + (point.pos - kRestartHistory - history_base), kRestartHistory);
            pending.push_back(std::move(kept));
        };
        const uint64_t lead_start = from - kWindowLead;
        bool lead_met = false;
        for (;;) {
            const uint64_t step_stop = std::min(from, history_base + kWindowLead + kWindowStep);
            const uint64_t stop = lead_met ? step_stop : std::min(step_stop, lead_start);
            Cursor last = at;
            feed.walk(Walk{nullptr, end, history.get(), history_base + size, stop, history_base, UINT64_MAX, 0, &last}, at);
            if (!lead_met && at.pos >= lead_start) {
                // The packet that decoded byte lead_start, or the cursor right at it.
                const Cursor window_point = at.pos == lead_start ? at : last;
                lead_met = true;
                walked = window_point.pos - began;
                keep_point(window_point, true);
            }
            // The first step from `start` passes start->pos + kWindowLead (usable_restart).
            if (start && at.pos >= start->pos + kRestartCheck) {
                if (check_at(start->p, start->pos) != start->check)
                    fail(Errc::restart_check, start->p, fmt::format("resumed at decoded byte {}, the next {} bytes are not the ones its check names",
                                                                   start->pos, kRestartCheck));
                start = nullptr;
            }
            std::erase_if(pending, [&](const PendingPoint& point) {
                if (at.pos < point.at.pos + kRestartCheck) return false;
                offer({point.at.p, point.at.pos, {point.history.get(), kRestartHistory}, check_at(point.at.p, point.at.pos)},
                      point.window_start);
                return true;
            });
            if (at.pos >= from) break;
            if (at.pos < stop) short_of(at.pos, from + length);
            if (stop == step_stop) keep_point(at, false);
            // The last kWindowLead bytes stay; a step that stopped at the
            // lead's start may not have decoded that many past the history.
            if (at.pos > history_base + kWindowLead) {
                const uint64_t keep = at.pos - kWindowLead;
                std::memmove(history.get(), history.get() + (keep - history_base), kWindowLead);
                history_base = keep;
            }
        }
        base = from - kWindowLead;
        std::memcpy(out.data(), history.get() + (base - history_base), at.pos - base);
    }
    feed.walk(Walk{nullptr, end, out.data(), base + out.size(), from + length, base}, at);
    if (at.pos < from + length) short_of(at.pos, from + length);
    return from - base;
}

uint64_t decode_window(Feed& feed, std::span<uint8_t> out, uint64_t from, uint64_t length, const RestartPoint* start = nullptr,
                       const OfferRestart& offer = {}, uint64_t* fails_past = nullptr, uint64_t* walked = nullptr) {
    Cursor at;
    uint64_t walked_here = 0;
    try {
        const uint64_t landed = walk_window(feed, out, from, length, start, offer, at, walked_here);
        if (walked) *walked = walked_here;
        return landed;
    } catch (const FormatFailure& failure) {
        // A packet that fails, or the stream's end, is where every walk fails
        // (walks are deterministic); a window out of reach or a point that
        // missed its check says nothing of the stream there.
        const Errc code = failure.error().code;
        if (fails_past && code != Errc::too_large && code != Errc::restart_check) *fails_past = at.pos;
        throw;
    }
}

}  // namespace

Result<uint64_t> decompress_window_into(ByteSpan stream, std::span<uint8_t> out, uint64_t from, uint64_t length) {
    return capture([&] {
        // A window may be decoded from the head of a stream: the declared end
        // is honoured when the bytes reach it, otherwise running out is
        // Errc::size_mismatch (decompress_prefix's rule).
        const uint64_t end = std::min<uint64_t>(checked_end(stream, UINT64_MAX), stream.size());
        Feed feed(stream, end);
        return decode_window(feed, out, from, length);
    });
}

uint64_t restart_check(uint64_t p, uint64_t pos, ByteSpan output) {
    uint8_t where[16];
    for (int k = 0; k < 8; ++k) where[k] = static_cast<uint8_t>(p >> (8 * k)), where[8 + k] = static_cast<uint8_t>(pos >> (8 * k));
    const auto n = static_cast<uInt>(output.size());
    const uLong crc = crc32(crc32(0, where, sizeof where), output.data(), n);
    const uLong adler = adler32(adler32(1, where, sizeof where), output.data(), n);
    return uint64_t{crc} << 32 | (adler & 0xffffffffu);
}

bool usable_restart(const RestartPoint& start, uint64_t from, uint64_t end) {
    return start.history.size() == kRestartHistory && start.pos >= kRestartHistory && start.p >= kHeaderSize &&
           start.p < end && start.pos <= from && from - start.pos >= kWindowLead;
}

Result<uint64_t> decompress_window_read(uint64_t available, const ReadStream& read, std::span<uint8_t> out, uint64_t from,
                                        uint64_t length, uint64_t step, const RestartPoint* start, const OfferRestart& offer,
                                        uint64_t* fails_past, uint64_t* walked) {
    // A piece must hold a largest packet past the one being kept, so each refill moves on.
    if (step <= 2 * kMaxPacketInput) throw std::invalid_argument("decompress_window_read: step too small");
    return capture([&] {
        uint8_t header[kHeaderSize];
        const uint64_t got = std::min(available, kHeaderSize);
        if (const std::string error = read(0, {header, got}); !error.empty()) fail(Errc::truncated, 0, error);
        Feed feed(read, checked_end({header, got}, available), step);
        // A point that does not fit this stream and window (a stale saved
        // index, say) is not used: the walk starts at the head.
        if (start && !usable_restart(*start, from, feed.end())) start = nullptr;
        return decode_window(feed, out, from, length, start, offer, fails_past, walked);
    });
}

StepDecoder::StepDecoder(ByteSpan stream, std::span<uint8_t> out, std::optional<uint64_t> prefix)
    : stream_(stream), out_(out), wanted_(prefix.value_or(out.size())), prefix_(prefix.has_value()) {
    if (prefix_ && out_.size() < wanted_ + kPrefixSlack)
        throw std::invalid_argument("StepDecoder: a prefix needs kPrefixSlack bytes of room past it");
}

Result<uint64_t> StepDecoder::advance(uint64_t arrived) {
    return capture([&] {
        arrived = std::min<uint64_t>(arrived, stream_.size());
        if (end_ == 0) {
            if (arrived < kHeaderSize && arrived < stream_.size()) return uint64_t{0};  // more to come
            end_ = check_decodable(stream_, wanted_).value();
        }
        const bool all = arrived >= end_;
        const uint64_t limit = all ? end_ : packet_start_limit(arrived);
        const uint64_t stop = prefix_ ? wanted_ : UINT64_MAX;
        walk_packets<true>(Walk{stream_.data(), end_, out_.data(), out_.size(), stop, 0, limit}, at_);
        if (prefix_ && at_.pos >= wanted_) {
            done_ = true;
            return wanted_;
        }
        if (all) {
            if (prefix_)
                fail(Errc::size_mismatch, end_, fmt::format("stream decodes to {} bytes, {} were asked", at_.pos, wanted_));
            if (at_.pos != out_.size())
                fail(Errc::size_mismatch, end_,
                     fmt::format("stream decodes to {} bytes, {} were declared", at_.pos, out_.size()));
            done_ = true;
        }
        return at_.pos;
    });
}

Result<uint64_t> decompress_prefix_into(ByteSpan stream, std::span<uint8_t> out, uint64_t length) {
    auto window = decompress_window_into(stream, out, 0, length);
    if (!window.ok()) return window.error();
    return length;
}

Result<Bytes> decompress_prefix(ByteSpan stream, uint64_t length) {
    Bytes out(length + kPrefixSlack);
    auto done = decompress_prefix_into(stream, out, length);
    if (!done.ok()) return done.error();
    out.resize(length);
    return out;
}

Result<uint64_t> check_decodable(ByteSpan stream, uint64_t decoded_size) {
    return capture([&] {
        const uint64_t end = checked_end(stream, stream.size());
        if (!achievable(end, decoded_size))
            fail(Errc::too_large, 3,
                 fmt::format("{} compressed bytes cannot decode to the declared {} bytes", end, decoded_size));
        return end;
    });
}

Result<Bytes> decompress(ByteSpan stream, uint64_t expected_size) {
    return capture([&] {
        check_decodable(stream, expected_size).value();
        Bytes out(expected_size);
        decompress_into(stream, out).value();
        return out;
    });
}

Result<Bytes> decompress(ByteSpan stream) {
    const auto size = measure(stream);
    if (!size.ok()) return size.error();
    return decompress(stream, *size);
}

}  // namespace gcfs::formats::wad_lz
