// WAD LZ: the flag-byte LZ packet stream used for level cores, gameplay and
// other compressed lumps (formats.md §5).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::formats::wad_lz {

constexpr uint64_t kHeaderSize = 0x10;  // §5.1: "WAD", s32 total size, 9 tag bytes
// §5.2: the longest output per input byte is a 4-byte big match of 288 bytes.
constexpr uint64_t kMaxExpansion = 72;

struct StreamHeader {
    uint32_t compressed_size;  // whole stream, header included (§5.1)
    std::string tag;           // ASCII tag, zero bytes trimmed
};

// `stream` may be just the first 16 bytes; `available` is how many bytes the
// stream may occupy (its extent), which the declared size must not exceed.
Result<StreamHeader> read_header(ByteSpan stream, uint64_t available);
inline Result<StreamHeader> read_header(ByteSpan stream) { return read_header(stream, stream.size()); }

// Walks every packet without writing output and returns the decoded size.
// Validates the same rules as decompress (lookbacks, double literals, bounds).
Result<uint64_t> measure(ByteSpan stream);

// Decodes into `out`, which must be exactly the decompressed size: decoding
// more or fewer bytes is Errc::size_mismatch.
Result<uint64_t> decompress_into(ByteSpan stream, std::span<uint8_t> out);

// Allocates `expected_size` bytes (after checking it is achievable from the
// stream's length) and decodes into them.
Result<Bytes> decompress(ByteSpan stream, uint64_t expected_size);
// A stream whose decoded size nothing declares (the global WADs' items):
// measured first (no output written), then decoded.
Result<Bytes> decompress(ByteSpan stream);

// Whether `compressed_size` stream bytes can decode to `decoded_size` bytes at
// all (checked before a buffer of that size is allocated).
constexpr bool achievable(uint64_t compressed_size, uint64_t decoded_size) {
    return decoded_size <= compressed_size * kMaxExpansion;
}

// What to check before allocating a stream's output: the header is sound, the
// declared size fits `stream`, and it can decode to `decoded_size` bytes at all.
// Returns the declared (compressed) size.
Result<uint64_t> check_decodable(ByteSpan stream, uint64_t decoded_size);

// Decodes only the first `length` bytes (the tfrag region at the head of a
// level core, say). `stream` may be cut short of its declared size; running
// out of it before `length` bytes is Errc::truncated. `out` needs
// kPrefixSlack bytes beyond `length`: the last packet may run past it.
constexpr uint64_t kPrefixSlack = 288 + 3;  // §5.2: a big match and its trailing literals
Result<uint64_t> decompress_prefix_into(ByteSpan stream, std::span<uint8_t> out, uint64_t length);
Result<Bytes> decompress_prefix(ByteSpan stream, uint64_t length);

// Decodes bytes [from, from + length) without holding what comes before: the
// walk to `from` keeps only a history as long as the longest lookback
// (§5.2: 0x4000 + 0x7fff bytes). `out` needs min(from, kWindowLead) + length
// + kPrefixSlack bytes; the result is where byte `from` landed in it (the
// bytes before it are history). Prefix rules otherwise: `stream` may be cut
// short, and running out of it first is an error.
constexpr uint64_t kWindowLead = 0x10000;
Result<uint64_t> decompress_window_into(ByteSpan stream, std::span<uint8_t> out, uint64_t from, uint64_t length);
// The same window with the stream read a piece at a time, so that at most
// kInputStep bytes of it are held: `read` fills `into` with the stream's bytes
// from `offset` on and returns why it could not (empty: it did). `available`
// is the stream's extent; its declared size must fit in it (§5.1). `step`
// (more than two largest packets) is how much is held and read at a time.
using ReadStream = std::function<std::string(uint64_t offset, std::span<uint8_t> into)>;
constexpr uint64_t kInputStep = 256 << 10;

// A place a walk can resume from instead of the stream's head: packets keep
// no state between them but their lookback (§5.2: a far match reaches
// 0x4000 + 0x7fff bytes back), so the cursor between two packets and the
// output's last kRestartHistory bytes before it are the whole decoder state.
constexpr uint64_t kRestartHistory = 0xC000;
//
// A point kept outside the process (a saved index) is untrusted: its check
// is a digest of its cursor, its position and the kRestartCheck bytes it
// decodes to, taken when a walk met it. Those bytes are right, and where
// they belong, when the digest holds, and every later byte reaches back no
// further than them (the longest lookback is kRestartHistory), so a walk
// resumed at a point that matches its check decodes what a walk from the
// head would; one that does not fails with Errc::restart_check. (A digest
// is no signature: a point forged by running this decoder on a forged
// history would pass. The saved index marks every point with a keyed HMAC
// for that, cache/index_key.h; this check still holds a point to its bytes.)
constexpr uint64_t kRestartCheck = kRestartHistory;
struct RestartPoint {
    uint64_t p = kHeaderSize;  // the next packet's stream offset
    uint64_t pos = 0;          // bytes decoded before it (>= kRestartHistory)
    ByteSpan history;          // decoded bytes [pos - kRestartHistory, pos)
    uint64_t check = 0;        // restart_check(p, pos, the decoded bytes [pos, pos + kRestartCheck))
};
// CRC-32 and Adler-32 of the cursor, position (little-endian u64s) and
// `output` side by side: 64 bits no accident matches.
uint64_t restart_check(uint64_t p, uint64_t pos, ByteSpan output);
// Hears the points a window's walk meets, once it has decoded each one's
// check: one each kWindowStep of output, and the window's own, where its
// lead begins (`window_start`: the packet that decodes byte from -
// kWindowLead), from which the same window is decoded again walking nothing
// before its lead. The history it is given is valid only during the call.
using OfferRestart = std::function<void(const RestartPoint&, bool window_start)>;
// Whether `start` can begin the walk to a window at `from` whose stream
// declares `end` bytes: a whole history, a cursor inside the stream, and at
// least kWindowLead bytes before the window (the window's own history).
bool usable_restart(const RestartPoint& start, uint64_t from, uint64_t end);

// `start`, when given and usable, replaces the walk from the head (and its
// output is held to its check); points met on the way are offered to
// `offer`. When the stream itself fails (a packet breaks a rule, or it ends
// short), `fails_past` gets the bytes decoded before the failing packet: a
// window ending there or before decodes, one ending past it fails alike.
// `walked` gets what a window that decoded cost beyond its own lead: the
// output of the packets wholly before it, from `start` or the head (0 from
// the window's own point).
Result<uint64_t> decompress_window_read(uint64_t available, const ReadStream& read, std::span<uint8_t> out, uint64_t from,
                                        uint64_t length, uint64_t step = kInputStep, const RestartPoint* start = nullptr,
                                        const OfferRestart& offer = {}, uint64_t* fails_past = nullptr,
                                        uint64_t* walked = nullptr);
// The scratch the walk to `from` holds beside `out`: the history and a step
// of output at a time, only when the window starts past kWindowLead.
constexpr uint64_t kWindowStep = 1 << 20;
constexpr uint64_t window_scratch_bytes(uint64_t from) {
    return from > kWindowLead ? kWindowLead + kWindowStep + kPrefixSlack : 0;
}

// Decodes a whole stream front to back as its bytes arrive, so that each
// step's output can be handed on before the rest is decoded (streamed reads).
// The checks are those of decompress_into; once a step fails, the decoder is
// spent.
class StepDecoder {
public:
    // `stream` spans the extent the stream may occupy (its declared size must
    // fit), of which only the first bytes may have arrived; `out` is exactly
    // the declared decoded size. With `prefix`, only the stream's first
    // `prefix` bytes are decoded (the head of a level core, say): `out` then
    // needs kPrefixSlack bytes past them, and the stream may decode to more.
    StepDecoder(ByteSpan stream, std::span<uint8_t> out, std::optional<uint64_t> prefix = std::nullopt);
    // Decodes what the first `arrived` bytes allow and returns how many bytes
    // of `out` are final (at most the prefix). Once every byte up to the
    // declared end has arrived, `out` must be exactly full (or the prefix
    // decoded).
    Result<uint64_t> advance(uint64_t arrived);
    // The declared compressed size once the header has arrived (0 before).
    uint64_t input_end() const { return end_; }
    bool done() const { return done_; }
    // The input offset of the next packet: the walk never reads further back
    // than the packet before it (§5.2's checks look one packet back).
    uint64_t consumed() const { return at_.p; }

    // Where the walk is: the next packet's input offset and the bytes decoded.
    struct Cursor {
        uint64_t p = kHeaderSize;
        uint64_t pos = 0;
    };

private:
    ByteSpan stream_;
    std::span<uint8_t> out_;
    uint64_t wanted_;  // bytes to decode: all of out_, or the prefix
    bool prefix_;
    uint64_t end_ = 0;
    Cursor at_;
    bool done_ = false;
};

// Emits a stream satisfying every writer constraint of §5.4.
Bytes compress(ByteSpan input, std::string_view tag);

// §5.4 rule 3's blocks: 0x2000 bytes of stream from the first packet byte.
constexpr uint64_t kBlockBytes = 0x2000;
// Every place a pad ends a block in `stream` (the next packet starts a block,
// rel % kBlockBytes == 0): where a writer can take the stream up again, since
// no packet state crosses a pad but the output's lookback. In stream order.
Result<std::vector<StepDecoder::Cursor>> block_starts(ByteSpan stream);

// A stream for `input` that keeps `old`'s packets where they still serve:
// `old` decodes to `old_plain`, and `input` is that with some bytes changed
// (the same length or not). The packets before the last block start at or
// before the first changed byte are kept, so are those from the first block
// start whose whole lookback (kRestartHistory bytes) lies in the bytes both
// end with; only what lies between is compressed again, with the kept
// output before it as history, and joined to the kept tail by pads
// (formats.md §5.2: a pad skips to the next 0x1000 from +0x10; two bring the
// join to a block start whether a decoder aligns to 0x1000 or 0x2000). A
// stream with no such blocks is compressed whole. Either way it decodes to
// `input` and keeps §5.4's rules; the kept parts are byte for byte `old`'s.
// An edit to a 28 MB level core costs its neighbourhood, not the core.
Bytes recompress(ByteSpan old, ByteSpan old_plain, ByteSpan input, std::string_view tag);
// The same with `old`'s block starts already found (block_starts(old)): a
// writer that re-compresses one stream again and again walks it once.
Bytes recompress(ByteSpan old, std::span<const StepDecoder::Cursor> old_blocks, ByteSpan old_plain, ByteSpan input, std::string_view tag);

}  // namespace gcfs::formats::wad_lz
