// WAD LZ compressor: greedy hash-chain matching, then a packet writer that
// obeys every stream constraint of formats.md §5.3-§5.4.
#include <algorithm>
#include <array>
#include <optional>
#include <cstring>
#include <vector>

#include "formats/wad_lz/wad_lz.h"

namespace gcfs::formats::wad_lz {
namespace {

constexpr uint64_t kMinMatch = 3;
constexpr uint64_t kMaxMatch = 264;       // §5.3: big far matches stop at 264 (Wrench caps all at 264)
constexpr uint64_t kMaxDistance = 32767;  // §5.3: far matches reach 16385…32767, never the "A" bit
constexpr uint64_t kMaxLiteral = 273;     // §5.3: big literal, n - 18 in one byte
constexpr uint64_t kBlock = kBlockBytes;  // §5.4 rule 3
constexpr uint64_t kPadStep = 0x1000;     // §5.2: where a pad lands
constexpr uint64_t kBlockLimit = kBlock - 3;
constexpr int kHashBits = 16;
constexpr int kMaxProbes = 24;

enum class Last { none, literal, match, dummy, pad };

class PacketWriter {
public:
    explicit PacketWriter(std::string_view tag) {
        out_.assign(kHeaderSize, 0);
        out_[0] = 'W';
        out_[1] = 'A';
        out_[2] = 'D';
        std::memcpy(out_.data() + 7, tag.data(), std::min<size_t>(tag.size(), 9));
    }
    // Going on after `kept`, a stream's header and packets up to a pad that
    // ended a block (recompress).
    explicit PacketWriter(ByteSpan kept) : out_(kept.begin(), kept.end()), last_(Last::pad) {}

    // Brings the stream to a block start (§5.4 rule 3) with pads, so that
    // packets kept from another stream's block start follow as they were;
    // §5.2's pad skips to the next 0x1000 from +0x10, so a pad is written at
    // each 0x1000 on the way. A literal packet last gets one too: the next
    // packet may be a literal (rule 1).
    void pad_to_block() {
        bool separate = last_ == Last::literal;
        while (rel() % kBlock != 0 || separate) {
            const uint8_t pad[3] = {0x12, 0x00, 0x00};
            out_.insert(out_.end(), pad, pad + 3);
            out_.resize(kHeaderSize + align_up(rel(), kPadStep), 0xEE);
            last_ = Last::pad;
            separate = false;
        }
    }
    void append_kept(ByteSpan packets) { out_.insert(out_.end(), packets.begin(), packets.end()); }

    void lead_literals(const uint8_t* bytes, uint64_t count) {
        if (count == 0) return;
        if (count < 4) {
            place_dummy_carrying(bytes, count);
        } else {
            literal_run(bytes, count);
        }
    }

    // A match and the literals that follow it up to the next match.
    void match(uint64_t length, uint64_t distance, const uint8_t* trailing, uint64_t count) {
        const uint64_t k = count <= 3 ? count : 0;
        uint8_t packet[4];
        const uint64_t size = encode_match(packet, length, distance, k);
        place(size + k, [&] {
            out_.insert(out_.end(), packet, packet + size);
            out_.insert(out_.end(), trailing, trailing + k);
            last_ = Last::match;
        });
        if (count > 3) literal_run(trailing, count);
    }

    Bytes finish() {
        const uint32_t total = static_cast<uint32_t>(out_.size());
        for (int i = 0; i < 4; ++i) out_[3 + i] = static_cast<uint8_t>(total >> (8 * i));
        return std::move(out_);
    }

private:
    uint64_t rel() const { return out_.size() - kHeaderSize; }

    // §5.4 rule 3: a packet (with its trailing bytes and any dummy before it)
    // may not end past 0x1FFD of its 0x2000 block; otherwise pad first.
    template <class Emit>
    void place(uint64_t size, Emit&& emit) {
        if (rel() % kBlock + size > kBlockLimit) {
            const uint8_t pad[3] = {0x12, 0x00, 0x00};
            out_.insert(out_.end(), pad, pad + 3);
            out_.resize(kHeaderSize + align_up(rel(), kBlock), 0xEE);
            last_ = Last::pad;
        }
        emit();
    }

    void place_dummy_carrying(const uint8_t* bytes, uint64_t count) {
        place(3 + count, [&] {
            const uint8_t dummy[3] = {0x11, static_cast<uint8_t>(count), 0x00};
            out_.insert(out_.end(), dummy, dummy + 3);
            out_.insert(out_.end(), bytes, bytes + count);
            last_ = Last::dummy;
        });
    }

    // Splits a run of >= 4 bytes into literal packets of 4…273 bytes.
    void literal_run(const uint8_t* bytes, uint64_t count) {
        while (count > 0) {
            uint64_t chunk = std::min(count, kMaxLiteral);
            if (count - chunk > 0 && count - chunk < 4) chunk = count - 4;  // keep the last piece >= 4
            literal_packet(bytes, chunk);
            bytes += chunk;
            count -= chunk;
        }
    }

    void literal_packet(const uint8_t* bytes, uint64_t count) {
        const uint64_t header = count <= 18 ? 1 : 2;
        // §5.4 rule 1: never two literal packets in a row. After a pad we also
        // separate them: whether the game accepts a literal right after a pad
        // is open (formats.md §12 item 4), and a dummy is always accepted.
        auto needs_dummy = [&] { return last_ == Last::literal || last_ == Last::pad; };
        const uint64_t dummy_size = needs_dummy() ? 3 : 0;
        place(dummy_size + header + count, [&] {
            if (needs_dummy()) {
                const uint8_t dummy[3] = {0x11, 0x00, 0x00};
                out_.insert(out_.end(), dummy, dummy + 3);
            }
            if (count <= 18) {
                out_.push_back(static_cast<uint8_t>(count - 3));
            } else {
                out_.push_back(0x00);
                out_.push_back(static_cast<uint8_t>(count - 18));
            }
            out_.insert(out_.end(), bytes, bytes + count);
            last_ = Last::literal;
        });
    }

    // §5.3 encoding table. Returns the packet's size without trailing bytes.
    static uint64_t encode_match(uint8_t* p, uint64_t length, uint64_t distance, uint64_t k) {
        if (distance <= 2048 && length <= 8) {
            const uint64_t d = distance - 1;
            p[0] = static_cast<uint8_t>(((length - 1) << 5) | ((d % 8) << 2) | k);
            p[1] = static_cast<uint8_t>(d / 8);
            return 2;
        }
        if (distance <= 16384) {
            const uint64_t d = distance - 1;
            const uint8_t lo = static_cast<uint8_t>(((d % 64) << 2) | k);
            const uint8_t hi = static_cast<uint8_t>(d / 64);
            if (length <= 33) {
                p[0] = static_cast<uint8_t>(0x20 | (length - 2));
                p[1] = lo;
                p[2] = hi;
                return 3;
            }
            p[0] = 0x20;
            p[1] = static_cast<uint8_t>(length - 33);
            p[2] = lo;
            p[3] = hi;
            return 4;
        }
        const uint64_t x = distance - 0x4000;  // 1…16383, so X is never 0 (that would be a pad)
        const uint8_t lo = static_cast<uint8_t>(((x % 64) << 2) | k);
        const uint8_t hi = static_cast<uint8_t>(x / 64);
        if (length <= 9) {
            p[0] = static_cast<uint8_t>(0x10 | (length - 2));
            p[1] = lo;
            p[2] = hi;
            return 3;
        }
        p[0] = 0x10;
        p[1] = static_cast<uint8_t>(length - 9);
        p[2] = lo;
        p[3] = hi;
        return 4;
    }

    Bytes out_;
    Last last_ = Last::none;
};

class MatchFinder {
public:
    explicit MatchFinder(ByteSpan in) : in_(in), head_(1u << kHashBits, -1), chain_(kMaxDistance + 1, -1) {}

    void insert(uint64_t i) {
        if (i + kMinMatch > in_.size()) return;
        const uint32_t h = hash(i);
        chain_[i & kMaxDistance] = head_[h];
        head_[h] = static_cast<int64_t>(i);
    }

    // Longest match for position i, clamped to the input's end (§5.5 notes
    // that Wrench's compressor fails to clamp; we must).
    std::pair<uint64_t, uint64_t> longest(uint64_t i) const {
        const uint64_t limit = std::min<uint64_t>(kMaxMatch, in_.size() - i);
        if (limit < kMinMatch) return {0, 0};
        uint64_t best_length = 0, best_distance = 0;
        int64_t candidate = head_[hash(i)];
        for (int probe = 0; probe < kMaxProbes && candidate >= 0; ++probe) {
            const uint64_t c = static_cast<uint64_t>(candidate);
            const uint64_t distance = i - c;
            if (distance > kMaxDistance) break;
            if (in_[c + best_length] == in_[i + best_length]) {
                uint64_t length = 0;
                while (length < limit && in_[c + length] == in_[i + length]) ++length;
                if (length > best_length) {
                    best_length = length;
                    best_distance = distance;
                    if (length == limit) break;
                }
            }
            const int64_t next = chain_[c & kMaxDistance];
            if (next >= candidate) break;  // slot reused by a newer position
            candidate = next;
        }
        if (best_length < kMinMatch) return {0, 0};
        return {best_length, best_distance};
    }

private:
    uint32_t hash(uint64_t i) const {
        const uint32_t v = in_[i] | in_[i + 1] << 8 | in_[i + 2] << 16;
        return (v * 2654435761u) >> (32 - kHashBits);
    }

    ByteSpan in_;
    std::vector<int64_t> head_;
    std::vector<int64_t> chain_;
};

}  // namespace

namespace {

// Greedy matching over input[from, to), the bytes before `from` (up to the
// longest distance) history a match may reach, into `writer`.
void encode_range(PacketWriter& writer, ByteSpan input, uint64_t from, uint64_t to) {
    MatchFinder finder(input.first(to));
    for (uint64_t h = from > kMaxDistance ? from - kMaxDistance : 0; h < from; ++h) finder.insert(h);
    const uint8_t* data = input.data();

    bool have_match = false;
    uint64_t match_length = 0, match_distance = 0;
    uint64_t literal_start = from;
    auto flush = [&](uint64_t literal_end) {
        const uint64_t count = literal_end - literal_start;
        if (have_match) {
            writer.match(match_length, match_distance, data + literal_start, count);
        } else {
            writer.lead_literals(data + literal_start, count);
        }
    };

    uint64_t i = from;
    while (i < to) {
        const auto [length, distance] = finder.longest(i);
        if (length == 0) {
            finder.insert(i);
            ++i;
            continue;
        }
        flush(i);
        have_match = true;
        match_length = length;
        match_distance = distance;
        for (uint64_t j = 0; j < length; ++j) finder.insert(i + j);
        i += length;
        literal_start = i;
    }
    flush(to);
}

// How many bytes `a` and `b` end with alike, compared a page at a time from
// the end (a 28 MB core edited near its head shares nearly all of it).
uint64_t shared_tail(ByteSpan a, ByteSpan b) {
    constexpr uint64_t kPage = 4096;
    const uint64_t most = std::min(a.size(), b.size());
    uint64_t n = 0;
    while (most - n >= kPage && std::memcmp(a.data() + a.size() - n - kPage, b.data() + b.size() - n - kPage, kPage) == 0) n += kPage;
    while (n < most && a[a.size() - 1 - n] == b[b.size() - 1 - n]) ++n;
    return n;
}

}  // namespace

Bytes compress(ByteSpan input, std::string_view tag) {
    PacketWriter writer(tag);
    encode_range(writer, input, 0, input.size());
    return writer.finish();
}

Bytes recompress(ByteSpan old, ByteSpan old_plain, ByteSpan input, std::string_view tag) {
    const auto blocks = block_starts(old);
    if (!blocks.ok()) return compress(input, tag);
    return recompress(old, *blocks, old_plain, input, tag);
}

Bytes recompress(ByteSpan old, std::span<const StepDecoder::Cursor> old_blocks, ByteSpan old_plain, ByteSpan input, std::string_view tag) {
    const auto header = read_header(old);
    if (!header.ok()) return compress(input, tag);
    const uint64_t old_n = old_plain.size(), new_n = input.size(), common = std::min(old_n, new_n);
    const uint64_t first = static_cast<uint64_t>(std::mismatch(old_plain.begin(), old_plain.begin() + common, input.begin()).first - old_plain.begin());
    if (first == old_n && first == new_n) return Bytes(old.begin(), old.begin() + header->compressed_size);
    const uint64_t shared_end = shared_tail(old_plain.subspan(first), input.subspan(first));  // bytes both end with, after the first change
    // The last block start at or before the first change, and the first one
    // after it whose whole lookback is in the shared end.
    std::optional<StepDecoder::Cursor> head, tail;
    for (const auto& at : old_blocks) {
        if (at.pos <= first) head = at;
        else if (at.pos >= old_n - shared_end + kRestartHistory && at.pos <= old_n) {
            tail = at;
            break;
        }
    }
    PacketWriter writer = head ? PacketWriter(old.first(head->p)) : PacketWriter(tag);
    const uint64_t middle_end = tail ? tail->pos - old_n + new_n : new_n;
    encode_range(writer, input, head ? head->pos : 0, middle_end);
    if (tail) {
        writer.pad_to_block();
        writer.append_kept(old.subspan(tail->p, header->compressed_size - tail->p));
    }
    return writer.finish();
}

}  // namespace gcfs::formats::wad_lz
