#include "formats/vcdiff/vcdiff_write.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace gcfs::formats::vcdiff {
namespace {

// RFC 3284 §4.1: the file header: "VCD" with the high bits set, version 0,
// Hdr_Indicator 0 (no secondary compressor, no code table, no app header).
constexpr uint8_t kHeader[] = {0xD6, 0xC3, 0xC4, 0x00, 0x00};
constexpr uint8_t kVcdSource = 0x01;  // §4.2 Win_Indicator: the window copies from the source file
// §5.6, the default code table: index 1 is ADD with its size following,
// index 19 COPY in mode 0 (VCD_SELF) with its size following.
constexpr uint8_t kAddSized = 1, kCopySelfSized = 19;
constexpr size_t kMatch = 32;       // the shortest run worth a COPY (its opcode, size and address)
constexpr size_t kIndexStep = 4;    // source positions hashed

// §2: a variable-length integer, 7 bits a byte, most significant first.
void put_varint(Bytes& out, uint64_t v) {
    uint8_t buffer[10];
    int n = 0;
    buffer[n++] = static_cast<uint8_t>(v & 0x7f);
    while (v >>= 7) buffer[n++] = static_cast<uint8_t>(0x80 | (v & 0x7f));
    while (n) out.push_back(buffer[--n]);
}

constexpr uint64_t kPrime = 0x100000001b3ull;

uint64_t hash_at(const uint8_t* p) {
    uint64_t h = 0;
    for (size_t i = 0; i < kMatch; ++i) h = h * kPrime + p[i];
    return h;
}

struct Window {
    Bytes data, instructions, addresses;
    uint64_t added = 0;
    void add(const uint8_t* from, size_t n) {
        if (!n) return;
        instructions.push_back(kAddSized);
        put_varint(instructions, n);
        data.insert(data.end(), from, from + n);
        added += n;
    }
    void copy(uint64_t address, uint64_t n) {
        instructions.push_back(kCopySelfSized);
        put_varint(instructions, n);
        put_varint(addresses, address);
    }
};

// The target window's bytes as ADDs and COPYs from `source` (the segment):
// greedy, at each position the longer run of two candidates, the source byte
// where the target's would lie had nothing moved (`aligned`: the segment
// offset of the window's first byte's origin) and the last source position
// of the same hash; a run is grown backwards over bytes not yet placed.
void encode(ByteSpan source, ByteSpan target, uint64_t aligned, Window& w) {
    if (source.size() < kMatch || target.size() < kMatch) return w.add(target.data(), target.size());
    size_t bits = 10;
    while ((size_t{1} << bits) < source.size() / kIndexStep * 2 && bits < 24) ++bits;
    const uint64_t mask = (uint64_t{1} << bits) - 1;
    std::vector<uint32_t> table(size_t{1} << bits, UINT32_MAX);
    for (size_t at = 0; at + kMatch <= source.size(); at += kIndexStep) table[(hash_at(source.data() + at) >> 20) & mask] = static_cast<uint32_t>(at);
    uint64_t drop = 1;  // kPrime^(kMatch-1): the weight of the byte leaving the rolling hash
    for (size_t i = 1; i < kMatch; ++i) drop *= kPrime;
    size_t placed = 0, at = 0;
    uint64_t h = hash_at(target.data());
    // How far the source at `from` and the target at `at` agree (0 when not kMatch bytes).
    auto run_at = [&](uint64_t from) -> size_t {
        if (from + kMatch > source.size() || std::memcmp(source.data() + from, target.data() + at, kMatch) != 0) return 0;
        size_t n = kMatch;
        while (at + n < target.size() && from + n < source.size() && source[from + n] == target[at + n]) ++n;
        return n;
    };
    while (at + kMatch <= target.size()) {
        const uint32_t hashed = table[(h >> 20) & mask];
        const size_t straight = run_at(aligned + at), found = hashed == UINT32_MAX ? 0 : run_at(hashed);
        if (straight || found) {
            size_t from = straight >= found ? aligned + at : hashed, to = at, n = std::max(straight, found);
            while (to > placed && from > 0 && source[from - 1] == target[to - 1]) --from, --to, ++n;
            w.add(target.data() + placed, to - placed);
            w.copy(from, n);
            placed = at = to + n;
            if (at + kMatch <= target.size()) h = hash_at(target.data() + at);
            continue;
        }
        if (at + kMatch < target.size()) h = (h - target[at] * drop) * kPrime + target[at + kMatch];
        ++at;
    }
    w.add(target.data() + placed, target.size() - placed);
}

}  // namespace

Written write_delta(const Files& files) {
    Written out;
    auto emit = [&](ByteSpan piece) {
        if (!files.write(piece)) throw std::runtime_error("the delta cannot be written");
        out.bytes += piece.size();
    };
    emit(ByteSpan(kHeader, sizeof kHeader));
    Bytes target, source;
    for (uint64_t t = 0, n = 0; t < files.target_size; t += n) {
        n = std::min(kWindowBytes, files.target_size - t);
        const auto next_break = std::upper_bound(files.breaks.begin(), files.breaks.end(), t);
        if (next_break != files.breaks.end()) n = std::min(n, *next_break - t);
        target.resize(n);
        if (!files.read_target(t, target)) throw std::runtime_error(fmt::format("the target cannot be read at byte {}", t));
        const uint64_t origin = std::min(files.origin(t), files.source_size);
        // Unchanged at its origin: one COPY, the segment the window itself.
        uint64_t seg_at = origin, seg_n = std::min(n, files.source_size - origin);
        source.resize(seg_n);
        if (seg_n && !files.read_source(seg_at, source)) throw std::runtime_error(fmt::format("the source cannot be read at byte {}", seg_at));
        Window w;
        if (seg_n == n && source == target) {
            w.copy(0, n);
        } else {
            seg_at = origin > kSearchMargin ? origin - kSearchMargin : 0;
            seg_n = std::min(files.source_size, origin + n + kSearchMargin) - seg_at;
            source.resize(seg_n);
            if (seg_n && !files.read_source(seg_at, source)) throw std::runtime_error(fmt::format("the source cannot be read at byte {}", seg_at));
            encode(source, target, origin - seg_at, w);
        }
        // §4.2-4.3: the window header, then its delta encoding.
        Bytes window;
        window.push_back(seg_n ? kVcdSource : 0);
        if (seg_n) {
            put_varint(window, seg_n);
            put_varint(window, seg_at);
        }
        Bytes delta;
        put_varint(delta, n);
        delta.push_back(0);  // Delta_Indicator: no section compressed
        put_varint(delta, w.data.size());
        put_varint(delta, w.instructions.size());
        put_varint(delta, w.addresses.size());
        put_varint(window, delta.size() + w.data.size() + w.instructions.size() + w.addresses.size());
        window.insert(window.end(), delta.begin(), delta.end());
        emit(window);
        emit(w.data);
        emit(w.instructions);
        emit(w.addresses);
        ++out.windows;
        out.added += w.added;
    }
    return out;
}

}  // namespace gcfs::formats::vcdiff
