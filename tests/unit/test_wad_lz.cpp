// WAD LZ (formats.md §5): round trips, the worked examples of §5.6, one
// hand-made stream per packet kind, and corrupt streams.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

#include "formats/wad_lz/wad_lz.h"

namespace test_wad_lz {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs::formats;

namespace {

Bytes stream_of(std::initializer_list<uint8_t> packets) {
    Bytes s = {'W', 'A', 'D', 0, 0, 0, 0};
    s.resize(16, 0);
    s.insert(s.end(), packets);
    const uint32_t size = static_cast<uint32_t>(s.size());
    for (int i = 0; i < 4; ++i) s[3 + i] = static_cast<uint8_t>(size >> (8 * i));
    return s;
}

Bytes bytes_of(std::string_view text) { return Bytes(text.begin(), text.end()); }

std::string decoded_text(const Bytes& stream) {
    auto size = wad_lz::measure(stream);
    REQUIRE_MESSAGE(size.ok(), size.error().describe());
    auto out = wad_lz::decompress(stream, *size);
    REQUIRE_MESSAGE(out.ok(), out.error().describe());
    return std::string(out->begin(), out->end());
}

void check_round_trip(const Bytes& input) {
    const Bytes stream = wad_lz::compress(input, "test");
    auto header = wad_lz::read_header(stream);
    REQUIRE(header.ok());
    CHECK(header->compressed_size == stream.size());
    CHECK(header->tag == "test");
    auto measured = wad_lz::measure(stream);
    REQUIRE_MESSAGE(measured.ok(), measured.error().describe());
    CHECK(*measured == input.size());
    auto out = wad_lz::decompress(stream, input.size());
    REQUIRE_MESSAGE(out.ok(), out.error().describe());
    CHECK(*out == input);
}

Bytes random_bytes(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    Bytes b(n);
    for (auto& x : b) x = static_cast<uint8_t>(rng());
    return b;
}

}  // namespace

TEST_CASE("WAD LZ round trips the issue's inputs byte-exactly") {
    SUBCASE("empty") { check_round_trip({}); }
    SUBCASE("one byte") { check_round_trip({0x42}); }
    SUBCASE("two and three bytes ride in a leading dummy") {
        check_round_trip({1, 2});
        check_round_trip({1, 2, 3});
    }
    SUBCASE("random") { check_round_trip(random_bytes(100000, 1)); }
    SUBCASE("zero run") { check_round_trip(Bytes(300000, 0)); }
    SUBCASE("text") {
        std::string text;
        for (int i = 0; i < 4000; ++i) text += "Ratchet & Clank: Going Commando level " + std::to_string(i % 37) + "\n";
        check_round_trip(bytes_of(text));
    }
    SUBCASE("10 MB of mixed data") {
        Bytes big;
        std::mt19937 rng(7);
        while (big.size() < 10'000'000) {
            const int kind = rng() % 3;
            const size_t n = 1 + rng() % 5000;
            for (size_t i = 0; i < n; ++i)
                big.push_back(kind == 0 ? 0 : kind == 1 ? static_cast<uint8_t>(rng()) : static_cast<uint8_t>(i % 13));
        }
        check_round_trip(big);
    }
    SUBCASE("far repeats exercise distances above 16384") {
        Bytes data = random_bytes(17000, 3);
        data.insert(data.end(), data.begin(), data.begin() + 5);  // §5.6 example 5
        Bytes longer = random_bytes(20000, 4);
        longer.insert(longer.end(), longer.begin() + 100, longer.begin() + 400);
        check_round_trip(data);
        check_round_trip(longer);
    }
    SUBCASE("every remaining-length tail near the 273/264 caps") {
        // §5.5: Wrench's compressor overran the input with 265-272 bytes left.
        for (size_t n = 5390; n < 5420; ++n) check_round_trip(random_bytes(n, static_cast<uint32_t>(n)));
        for (size_t tail = 260; tail < 280; ++tail) {
            Bytes d(1000, 9);
            Bytes r = random_bytes(tail, 11);
            d.insert(d.end(), r.begin(), r.end());
            check_round_trip(d);
        }
    }
}

TEST_CASE("WAD LZ decodes the worked examples of formats.md §5.6") {
    CHECK(decoded_text(stream_of({0x01, 'a', 'b', 'c', 'd'})) == "abcd");
    CHECK(decoded_text(stream_of({0x11, 0x03, 0x00, 'A', 'B', 'C', 0x27, 0x08, 0x00})) == "ABCABCABCABC");
    CHECK(decoded_text(stream_of({0x04, 'H', 'e', 'l', 'l', 'o', ',', ' ', 0x99, 0x00, '!'})) == "Hello, Hello!");
    CHECK(decoded_text(stream_of({0x11, 0x01, 0x00, 'a', 0x20, 0x10, 0x00, 0x00})) == std::string(50, 'a'));
}

TEST_CASE("WAD LZ compressor output starts as the worked examples do") {
    const Bytes abcd = wad_lz::compress(bytes_of("abcd"), "");
    CHECK(abcd.size() == 21);  // §5.6 example 1: size 0x15
    CHECK(abcd[16] == 0x01);
    const Bytes rle = wad_lz::compress(bytes_of("ABCABCABCABC"), "");
    CHECK(Bytes(rle.begin() + 16, rle.end()) == Bytes{0x11, 0x03, 0x00, 'A', 'B', 'C', 0x27, 0x08, 0x00});
}

TEST_CASE("WAD LZ hand-made streams for each packet kind") {
    SUBCASE("big literal: 00 N copies N + 18 bytes") {
        Bytes packets = {0x00, 2};
        for (int i = 0; i < 20; ++i) packets.push_back(static_cast<uint8_t>('a' + i));
        Bytes s = stream_of({});
        s.insert(s.end(), packets.begin(), packets.end());
        s[3] = static_cast<uint8_t>(s.size());
        CHECK(decoded_text(s) == "abcdefghijklmnopqrst");
    }
    SUBCASE("little match with trailing literal") {
        CHECK(decoded_text(stream_of({0x01, 'w', 'x', 'y', 'z', 0x49, 0x00, '!'})) == "wxyzxyz!");
    }
    SUBCASE("far match reaches 0x4000 + X back") {
        Bytes in;
        for (int i = 0; i < 17000; ++i) in.push_back(static_cast<uint8_t>(i * 7 + i / 251));
        const Bytes stream = wad_lz::compress(in, "far");
        CHECK(decoded_text(stream).size() == in.size());
        // Medium far: flag 0x13 = L 5; X = 9*64 + (0xA0 >> 2) = 616, D = 17000 (§5.6 ex. 5).
        Bytes data = random_bytes(17000, 5);
        Bytes s = wad_lz::compress(data, "");
        s.resize(s.size());
        Bytes with_far = s;
        const uint8_t far[] = {0x13, 0xA0, 0x09};
        with_far.insert(with_far.end(), far, far + 3);
        const uint32_t size = static_cast<uint32_t>(with_far.size());
        for (int i = 0; i < 4; ++i) with_far[3 + i] = static_cast<uint8_t>(size >> (8 * i));
        auto out = wad_lz::decompress(with_far, 17005);
        REQUIRE_MESSAGE(out.ok(), out.error().describe());
        CHECK(Bytes(out->end() - 5, out->end()) == Bytes(data.begin(), data.begin() + 5));
    }
    SUBCASE("dummy 11 00 00 is a no-op and pad skips to the 0x1000 boundary") {
        Bytes s = stream_of({0x01, 'a', 'b', 'c', 'd', 0x11, 0x00, 0x00, 0x12, 0x00, 0x00});
        s.resize(16 + 0x1000, 0xEE);
        s.push_back(0x11);
        s.push_back(0x02);
        s.push_back(0x00);
        s.push_back('e');
        s.push_back('f');
        const uint32_t size = static_cast<uint32_t>(s.size());
        for (int i = 0; i < 4; ++i) s[3 + i] = static_cast<uint8_t>(size >> (8 * i));
        CHECK(decoded_text(s) == "abcdef");
    }
}

namespace {

// Walks a stream's packets by hand: no literal follows a literal, no packet
// crosses 0x1FFD of its block, and every pad (12 00 00) lands where §5.2's
// decoder goes on (the next 0x1000 from +0x10). Returns the pads met.
int check_writer_constraints(const Bytes& s) {
    int pads = 0;
    size_t p = 16;
    bool last_literal = false;
    while (p < s.size()) {
        const size_t rel = p - 16;
        const uint8_t f = s[p];
        size_t size;
        if (f < 0x10) {
            CHECK_FALSE(last_literal);
            size = f == 0 ? 2 + s[p + 1] + 18 : 1 + f + 3;
            last_literal = true;
        } else {
            last_literal = false;
            if (f == 0x12 && s[p + 1] == 0 && s[p + 2] == 0) {
                ++pads;
                CHECK(rel % 0x2000 + 3 <= 0x2000);
                p = 16 + (rel + 3 + 0xfff) / 0x1000 * 0x1000;
                for (size_t filler = 16 + rel + 3; filler < p && filler < s.size(); ++filler) CHECK(s[filler] == 0xEE);
                continue;
            }
            if (f < 0x20) size = ((f & 7) == 0 ? 4 : 3) + (s[p + ((f & 7) == 0 ? 2 : 1)] & 3);
            else if (f < 0x40) size = ((f & 0x1f) == 0 ? 4 : 3) + (s[p + ((f & 0x1f) == 0 ? 2 : 1)] & 3);
            else size = 2 + (f & 3);
        }
        CHECK(rel % 0x2000 + size <= 0x1ffd);
        p += size;
    }
    CHECK(p == s.size());
    return pads;
}

// Level-core-like bytes: runs of text, repeats and noise, so packets of every kind appear.
Bytes core_like(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    Bytes b;
    while (b.size() < n) {
        const int kind = static_cast<int>(rng() % 3);
        const size_t run = 16 + rng() % 400;
        if (kind == 0 && b.size() > 64) {  // a repeat of something earlier
            const size_t from = rng() % (b.size() - 32);
            for (size_t i = 0; i < run && b.size() < n; ++i) b.push_back(b[from + i % 32]);
        } else {
            for (size_t i = 0; i < run && b.size() < n; ++i) b.push_back(static_cast<uint8_t>(kind == 1 ? 'a' + rng() % 4 : rng()));
        }
    }
    return b;
}

}  // namespace

TEST_CASE("WAD LZ streams obey the writer constraints of §5.4") {
    Bytes input = random_bytes(9000, 21);  // §5.6 example 6: a pad appears before 0x2000
    CHECK(check_writer_constraints(wad_lz::compress(input, "")) > 0);
}

TEST_CASE("WAD LZ compressed again around an edit: decodes to the edit, keeps the rules, keeps the old packets far from it") {
    const Bytes plain = core_like(600000, 5);
    const Bytes old = wad_lz::compress(plain, "coredata");
    auto starts = wad_lz::block_starts(old);
    REQUIRE(starts.ok());
    CHECK(starts->size() > 10);
    for (const auto& at : *starts) CHECK((at.p - 16) % 0x2000 == 0);
    struct Case {
        const char* what;
        size_t at, removed;
        Bytes inserted;
    };
    const Case cases[] = {
        {"bytes changed in the middle", 300000, 200, Bytes(200, 0x5a)},
        {"bytes inserted", 250000, 0, Bytes(1234, 0x11)},
        {"bytes removed", 250000, 5000, {}},
        {"the first bytes", 0, 10, Bytes(10, 0x77)},
        {"the last bytes", 599990, 10, Bytes(10, 0x77)},
        {"a tail appended", 600000, 0, Bytes(70000, 0x33)},
        {"nothing", 1000, 0, {}},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what);
        Bytes edited = plain;
        edited.erase(edited.begin() + c.at, edited.begin() + c.at + c.removed);
        edited.insert(edited.begin() + c.at, c.inserted.begin(), c.inserted.end());
        const Bytes again = wad_lz::recompress(old, plain, edited, "coredata");
        auto decoded = wad_lz::decompress(again, edited.size());
        REQUIRE_MESSAGE(decoded.ok(), decoded.error().describe());
        CHECK(*decoded == edited);
        check_writer_constraints(again);
        auto header = wad_lz::read_header(again);
        REQUIRE(header.ok());
        CHECK(header->compressed_size == again.size());
        CHECK(header->tag == "coredata");
        // The packets before the edit's block, and past its lookback after it, are the old ones.
        const size_t same_head = static_cast<size_t>(std::mismatch(old.begin() + 16, old.end(), again.begin() + 16, again.end()).first - old.begin());
        const size_t same_tail = static_cast<size_t>(std::mismatch(old.rbegin(), old.rend(), again.rbegin(), again.rend()).first - old.rbegin());
        if (c.at >= 0x4000 && c.removed + c.inserted.size() > 0) CHECK(same_head + 0x4000 >= c.at / 4);  // the compressed prefix is kept
        if (c.at + c.removed + 0x20000 < plain.size()) CHECK(same_tail > old.size() / 4);
        if (c.removed + c.inserted.size() == 0) CHECK(again == old);
    }
}

TEST_CASE("WAD LZ rejects corrupt streams with typed errors") {
    SUBCASE("truncated header") {
        const Bytes s = {'W', 'A', 'D'};
        CHECK(wad_lz::measure(s).error().code == Errc::truncated);
    }
    SUBCASE("bad magic") {
        Bytes s = stream_of({0x01, 'a', 'b', 'c', 'd'});
        s[0] = 'X';
        CHECK(wad_lz::measure(s).error().code == Errc::bad_magic);
    }
    SUBCASE("declared size past the buffer") {
        Bytes s = stream_of({0x01, 'a', 'b', 'c', 'd'});
        s[3] = 200;
        CHECK(wad_lz::measure(s).error().code == Errc::out_of_range);
    }
    SUBCASE("lookback before the start") {
        const auto r = wad_lz::measure(stream_of({0x01, 'a', 'b', 'c', 'd', 0x5d, 0x01}));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == Errc::lookback);
        CHECK(r.error().offset == 21);
    }
    SUBCASE("double literal") {
        const auto r = wad_lz::measure(stream_of({0x01, 'a', 'b', 'c', 'd', 0x01, 'e', 'f', 'g', 'h'}));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == Errc::double_literal);
        CHECK(r.error().offset == 21);
    }
    SUBCASE("literal runs past the stream end") {
        CHECK(wad_lz::measure(stream_of({0x05, 'a', 'b'})).error().code == Errc::truncated);
    }
    SUBCASE("decoded size disagrees with the declared size") {
        const Bytes s = wad_lz::compress(bytes_of("hello world, hello world"), "");
        CHECK(wad_lz::decompress(s, 10).error().code == Errc::size_mismatch);
        CHECK(wad_lz::decompress(s, 100).error().code == Errc::size_mismatch);
    }
    SUBCASE("a declared size that would allocate gigabytes is refused before allocating") {
        const Bytes s = wad_lz::compress(bytes_of("tiny"), "");
        CHECK(wad_lz::decompress(s, 4'000'000'000ull).error().code == Errc::too_large);
    }
}

TEST_CASE("the seed's gameplay reading: decoding from +8 instead of +16 is a double literal") {
    // formats.md §11 row 1: the seed started 8 bytes into the 16-byte header.
    // Retail streams hold zeros at +8/+9, which then read as a big literal
    // "00 00" of 18 bytes; the walk lands inside the first literal's data and
    // meets a small byte right after a literal: the seed's "adjacent literal
    // packets" on every level.
    ByteWriter gameplay;  // like §9: a table of s32 block offsets, then blocks
    int32_t block = 0x100;
    for (int i = 0; i < 39; ++i) gameplay.s32(block += 16 + (i * 53 % 97) * 4);
    for (int i = 0; i < 2000; ++i) gameplay.s32(i % 7 == 0 ? i : 0x45000000 + i);
    const Bytes stream = wad_lz::compress(gameplay.bytes(), "");  // zero tag, as on the disc
    REQUIRE(wad_lz::measure(stream).ok());

    Bytes from_plus_8 = {'W', 'A', 'D', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    from_plus_8.insert(from_plus_8.end(), stream.begin() + 8, stream.end());
    const uint32_t size = static_cast<uint32_t>(from_plus_8.size());
    for (int i = 0; i < 4; ++i) from_plus_8[3 + i] = static_cast<uint8_t>(size >> (8 * i));
    auto seed_reading = wad_lz::measure(from_plus_8);
    REQUIRE_FALSE(seed_reading.ok());
    CHECK(seed_reading.error().code == Errc::double_literal);
}

TEST_CASE("WAD LZ refuses a declared size below its 16-byte header, saying why") {
    for (uint8_t declared : {0, 7, 15}) {
        CAPTURE(declared);
        Bytes s = stream_of({0x01, 'a', 'b', 'c', 'd'});
        s[3] = declared;
        s[4] = s[5] = s[6] = 0;
        const auto header = wad_lz::read_header(s);
        REQUIRE(!header.ok());
        CHECK(header.error().offset == 3);
        CHECK(header.error().message.find("smaller than the 16-byte header it includes") != std::string::npos);
        CHECK(!wad_lz::decompress(s, 4).ok());
    }
}

namespace {

// Hands out `stream` a piece at a time, as the tree reads an image, and
// notes the largest piece asked for.
struct PieceReader {
    const Bytes& stream;
    uint64_t largest = 0;
    bool in_bounds = true;
    std::string operator()(uint64_t offset, std::span<uint8_t> into) {
        if (offset + into.size() > stream.size()) return in_bounds = false, "read past the stream";
        largest = std::max<uint64_t>(largest, into.size());
        std::copy_n(stream.begin() + static_cast<std::ptrdiff_t>(offset), into.size(), into.begin());
        return {};
    }
};

// The window [from, from + length) of `stream`, decoded alone: from the
// stream in memory, and read in pieces of a few sizes (the smallest just over
// two largest packets), which must give the same bytes.
Bytes window_of(const Bytes& stream, uint64_t from, uint64_t length) {
    Bytes out(std::min(from, wad_lz::kWindowLead) + length + wad_lz::kPrefixSlack);
    auto at = wad_lz::decompress_window_into(stream, out, from, length);
    REQUIRE_MESSAGE(at.ok(), at.error().describe());
    Bytes window(out.begin() + static_cast<std::ptrdiff_t>(*at), out.begin() + static_cast<std::ptrdiff_t>(*at + length));
    for (const uint64_t step : {uint64_t{583}, uint64_t{4099}, wad_lz::kInputStep}) {
        CAPTURE(step);
        PieceReader pieces{stream};
        Bytes read_out(out.size());
        auto read_at = wad_lz::decompress_window_read(stream.size(), std::ref(pieces), read_out, from, length, step);
        REQUIRE_MESSAGE(read_at.ok(), read_at.error().describe());
        CHECK(pieces.largest <= step);
        CHECK(pieces.in_bounds);
        CHECK(Bytes(read_out.begin() + static_cast<std::ptrdiff_t>(*read_at),
                    read_out.begin() + static_cast<std::ptrdiff_t>(*read_at + length)) == window);
    }
    return window;
}

}  // namespace

TEST_CASE("a WAD LZ window decodes as the same bytes of the whole stream, holding only a short history") {
    // Mixed data with far matches (distances past 0x4000, §5.2) across the
    // window edges and the history buffer's 1 MiB steps.
    Bytes data;
    std::mt19937 rng(21);
    while (data.size() < 3'500'000) {
        const size_t n = 1 + rng() % 6000;
        if (rng() % 3 == 0 && data.size() > 0xc000) {
            const size_t back = 0x4000 + rng() % 0x7fff;  // a far repeat
            const size_t start = data.size() - back;
            for (size_t i = 0; i < n % 300; ++i) data.push_back(data[start + i]);
        } else {
            for (size_t i = 0; i < n; ++i) data.push_back(rng() % 4 == 0 ? static_cast<uint8_t>(rng()) : static_cast<uint8_t>(i % 7));
        }
    }
    const Bytes stream = wad_lz::compress(data, "window");
    const uint64_t size = data.size();
    const std::pair<uint64_t, uint64_t> windows[] = {
        {0, 100}, {5, 0x20000}, {wad_lz::kWindowLead - 1, 10}, {wad_lz::kWindowLead, 1}, {wad_lz::kWindowLead + 1, 5000},
        {(1 << 20) + wad_lz::kWindowLead - 3, 7}, {(1 << 20) + wad_lz::kWindowLead, 70000}, {2'000'000, 1}, {size - 1, 1},
        {size - 300'000, 300'000}, {0, size}};
    for (const auto& item : windows) {
        const auto& from = std::get<0>(item);
        const auto& length = std::get<1>(item);
        CAPTURE(from);
        CAPTURE(length);
        CHECK(window_of(stream, from, length) == Bytes(data.begin() + static_cast<std::ptrdiff_t>(from),
                                                       data.begin() + static_cast<std::ptrdiff_t>(from + length)));
    }
    for (int i = 0; i < 40; ++i) {
        const uint64_t from = rng() % size;
        const uint64_t length = 1 + rng() % std::min<uint64_t>(size - from, 200000);
        CAPTURE(from);
        CHECK(window_of(stream, from, length) == Bytes(data.begin() + static_cast<std::ptrdiff_t>(from),
                                                       data.begin() + static_cast<std::ptrdiff_t>(from + length)));
    }
    SUBCASE("a window past the end, or a stream cut short of it, is an error") {
        Bytes out(wad_lz::kWindowLead + 10 + wad_lz::kPrefixSlack);
        CHECK(wad_lz::decompress_window_into(stream, out, size - 5, 10).error().code == Errc::size_mismatch);
        const Bytes cut(stream.begin(), stream.begin() + static_cast<std::ptrdiff_t>(stream.size() / 2));
        CHECK_FALSE(wad_lz::decompress_window_into(cut, out, size - 20, 10).ok());
    }
    SUBCASE("a buffer without room for the history and the window is refused") {
        Bytes out(wad_lz::kWindowLead + 10);
        CHECK(wad_lz::decompress_window_into(stream, out, 2'000'000, 10).error().code == Errc::too_large);
    }
    SUBCASE("read in pieces: a failed read is the error, at the offset it failed; a size past the extent is refused") {
        Bytes out(wad_lz::kWindowLead + 10 + wad_lz::kPrefixSlack);
        PieceReader pieces{stream};
        const wad_lz::ReadStream failing = [&](uint64_t offset, std::span<uint8_t> into) -> std::string {
            if (offset + into.size() > stream.size() / 2) return "the disc is scratched";
            return pieces(offset, into);
        };
        auto failed = wad_lz::decompress_window_read(stream.size(), failing, out, size - 20, 10);
        REQUIRE_FALSE(failed.ok());
        CHECK(failed.error().code == Errc::truncated);
        CHECK(failed.error().message == "the disc is scratched");
        CHECK(failed.error().offset <= stream.size() / 2);
        CHECK(failed.error().offset + wad_lz::kInputStep > stream.size() / 2);
        auto short_extent = wad_lz::decompress_window_read(stream.size() - 1, std::ref(pieces), out, size - 20, 10);
        CHECK(short_extent.error().code == Errc::out_of_range);
        CHECK_THROWS_AS((void)wad_lz::decompress_window_read(stream.size(), std::ref(pieces), out, 0, 10, 582), std::invalid_argument);
    }
}

namespace {

// §5.2's pseudocode, one byte at a time and nothing else: the reference the
// decoder's chunked copies are held to.
Bytes reference_decode(const Bytes& s) {
    Bytes out;
    size_t p = 16;
    auto copy_in = [&](size_t n) {
        out.insert(out.end(), s.begin() + static_cast<std::ptrdiff_t>(p), s.begin() + static_cast<std::ptrdiff_t>(p + n));
        p += n;
    };
    while (p < s.size()) {
        const uint8_t f = s[p++];
        if (f < 0x10) {
            const size_t n = f == 0 ? s[p++] + 18u : f + 3u;
            copy_in(n);
            continue;
        }
        size_t length = 0, distance = 0, trailing = 0;
        if (f < 0x20) {
            size_t m = f & 7;
            if (m == 0) m = s[p++] + 7u;
            const uint8_t b0 = s[p++], b1 = s[p++];
            const size_t x = ((f & 8) ? 0x4000u : 0u) + b1 * 64u + (b0 >> 2);
            if (x != 0) length = m + 2, distance = x + 0x4000;
            trailing = b0 & 3;
        } else if (f < 0x40) {
            size_t m = f & 0x1f;
            if (m == 0) m = s[p++] + 31u;
            const uint8_t b1 = s[p++], b2 = s[p++];
            length = m + 2, distance = b2 * 64u + (b1 >> 2) + 1, trailing = b1 & 3;
        } else {
            const uint8_t b1 = s[p++];
            length = (f >> 5) + 1u, distance = b1 * 8u + ((f >> 2) & 7) + 1, trailing = f & 3;
        }
        for (size_t i = 0; i < length; ++i) out.push_back(out[out.size() - distance]);
        copy_in(trailing);
    }
    return out;
}

}  // namespace

TEST_CASE("WAD LZ: every match distance and length decodes as the grammar's byte-at-a-time copy") {
    // Hand-built packets (not the compressor's choice of them): short and
    // overlapping distances, lengths up to a big match's 288, trailing
    // literals of 0-3 and literals of every size, far from and near both
    // ends of the stream, where the decoder copies in chunks or exactly.
    std::mt19937 rng(7);
    Bytes s = stream_of({0x00, 255});
    for (int i = 0; i < 273; ++i) s.push_back(static_cast<uint8_t>(rng()));
    size_t decoded = 273;
    while (s.size() < 200'000) {
        const uint32_t kind = rng() % 4;
        const size_t trailing = rng() % 4;
        if (kind == 0) {  // medium or big match, distance 1..64 or up to what is decoded
            const size_t distance = 1 + (rng() % 2 ? rng() % 64 : rng() % std::min<size_t>(decoded, 16384));
            const size_t m = 1 + rng() % 286;
            if (m <= 31) {
                s.push_back(static_cast<uint8_t>(0x20 | m));
            } else {
                s.push_back(0x20);
                s.push_back(static_cast<uint8_t>(m - 31));
            }
            s.push_back(static_cast<uint8_t>(((distance - 1) % 64) << 2 | trailing));
            s.push_back(static_cast<uint8_t>((distance - 1) / 64));
            decoded += m + 2;
        } else if (kind == 1) {  // little match, lengths 3..8, distances 1..2048
            const size_t length = 3 + rng() % 6, distance = 1 + rng() % std::min<size_t>(decoded, 2048);
            s.push_back(static_cast<uint8_t>((length - 1) << 5 | ((distance - 1) % 8) << 2 | trailing));
            s.push_back(static_cast<uint8_t>((distance - 1) / 8));
            decoded += length;
        } else if (kind == 2 && decoded > 0x4100) {  // far match
            const size_t x = 1 + rng() % std::min<size_t>(decoded - 0x4000, 0x7fff);
            const size_t m = 1 + rng() % 7;
            s.push_back(static_cast<uint8_t>(0x10 | (x >= 0x4000 ? 8 : 0) | m));
            s.push_back(static_cast<uint8_t>((x % 64) << 2 | trailing));
            s.push_back(static_cast<uint8_t>((x % 0x4000) / 64));
            decoded += m + 2;
        } else {  // a literal, then a match so that no literal follows it (§5.2)
            const size_t n = 4 + rng() % 270;
            if (n <= 18) {
                s.push_back(static_cast<uint8_t>(n - 3));
            } else {
                s.push_back(0x00);
                s.push_back(static_cast<uint8_t>(n - 18));
            }
            for (size_t i = 0; i < n; ++i) s.push_back(static_cast<uint8_t>(rng()));
            s.push_back(0x40);  // little match: length 3, distance 1, no trailing bytes
            s.push_back(0x00);
            decoded += n + 3;
            continue;
        }
        for (size_t i = 0; i < trailing; ++i) s.push_back(static_cast<uint8_t>(rng()));
        decoded += trailing;
    }
    const uint32_t size = static_cast<uint32_t>(s.size());
    for (int i = 0; i < 4; ++i) s[3 + i] = static_cast<uint8_t>(size >> (8 * i));
    const Bytes expected = reference_decode(s);
    REQUIRE(expected.size() == decoded);
    auto out = wad_lz::decompress(s, decoded);
    REQUIRE_MESSAGE(out.ok(), out.error().describe());
    CHECK(*out == expected);
    CHECK(window_of(s, 100'000, decoded - 100'000) ==
          Bytes(expected.begin() + 100'000, expected.end()));
}

TEST_CASE("a WAD LZ stream decoded step by step as its bytes arrive equals the whole decode") {
    std::mt19937 rng(11);
    Bytes data;
    while (data.size() < 2'000'000) {
        const size_t n = 1 + rng() % 3000;
        for (size_t i = 0; i < n; ++i) data.push_back(rng() % 3 == 0 ? static_cast<uint8_t>(rng()) : static_cast<uint8_t>(i % 5));
    }
    const Bytes stream = wad_lz::compress(data, "steps");
    Bytes extent = stream;
    extent.resize(stream.size() + 777, 0xEE);  // the extent may run past the stream's declared end

    Bytes out(data.size());
    wad_lz::StepDecoder decoder(extent, out);
    uint64_t arrived = 0, ready = 0;
    while (!decoder.done()) {
        arrived += 1 + rng() % 70'000;
        auto step = decoder.advance(arrived);
        REQUIRE_MESSAGE(step.ok(), step.error().describe());
        CHECK(*step >= ready);  // bytes once final stay final
        ready = *step;
        // What is called final already equals the data.
        REQUIRE(std::equal(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(ready), data.begin()));
        if (arrived < stream.size()) CHECK_FALSE(decoder.done());
    }
    CHECK(decoder.input_end() == stream.size());
    CHECK(ready == data.size());
    CHECK(out == data);

    SUBCASE("a stream that decodes short of the declared size fails at its end") {
        Bytes bigger(data.size() + 1);
        wad_lz::StepDecoder short_decoder(stream, bigger);
        CHECK(short_decoder.advance(stream.size() / 2).ok());
        CHECK(short_decoder.advance(stream.size()).error().code == Errc::size_mismatch);
    }
    SUBCASE("a match reaching before the output fails at its packet, the bytes before it final") {
        Bytes bad = stream_of({0x01, 'a', 'b', 'c', 'd', 0x40, 0x10});  // little match, distance 0x10*8+1 > 4
        Bytes small(7);
        wad_lz::StepDecoder bad_decoder(bad, small);
        const auto step = bad_decoder.advance(bad.size());
        CHECK(step.error().code == Errc::lookback);
        CHECK(Bytes(small.begin(), small.begin() + 4) == bytes_of("abcd"));
    }
    SUBCASE("a header declaring more than the extent holds is refused at the first step") {
        const Bytes cut(stream.begin(), stream.begin() + 1000);
        Bytes any(data.size());
        wad_lz::StepDecoder cut_decoder(cut, any);
        CHECK(cut_decoder.advance(10).ok());  // no header yet
        CHECK(cut_decoder.advance(1000).error().code == Errc::out_of_range);
    }
    SUBCASE("an extent shorter than a header fails once all of it has arrived") {
        const Bytes tiny = {'W', 'A', 'D'};
        Bytes any(1);
        wad_lz::StepDecoder tiny_decoder(tiny, any);
        CHECK(tiny_decoder.advance(2).ok());
        CHECK(tiny_decoder.advance(3).error().code == Errc::truncated);
    }
}

TEST_CASE("a WAD LZ stream's head decoded step by step stops at the prefix and needs no more of the stream") {
    std::mt19937 rng(12);
    Bytes data;
    while (data.size() < 600'000) data.push_back(rng() % 4 == 0 ? static_cast<uint8_t>(rng()) : static_cast<uint8_t>(data.size() % 9));
    const Bytes stream = wad_lz::compress(data, "head");
    const uint64_t prefix = 250'001;
    Bytes out(prefix + wad_lz::kPrefixSlack);
    wad_lz::StepDecoder decoder(stream, out, prefix);
    uint64_t arrived = 0;
    while (!decoder.done()) {
        arrived += 4096;
        auto step = decoder.advance(arrived);
        REQUIRE_MESSAGE(step.ok(), step.error().describe());
        CHECK(*step <= prefix);
    }
    CHECK(arrived < stream.size());  // done before the whole stream arrived
    CHECK(std::equal(out.begin(), out.begin() + prefix, data.begin()));

    SUBCASE("a prefix past what the stream decodes to fails once it has all arrived") {
        Bytes big(data.size() + 10 + wad_lz::kPrefixSlack);
        wad_lz::StepDecoder past(stream, big, data.size() + 10);
        CHECK(past.advance(stream.size()).error().code == Errc::size_mismatch);
    }
}

TEST_CASE("a WAD LZ window walked from a restart point equals the walk from the head, and unusable points are not used") {
    // Far matches across the points (§5.2: 0x4000 + 0x7fff back at most).
    Bytes data;
    std::mt19937 rng(33);
    while (data.size() < 5'000'000) {
        const size_t n = 1 + rng() % 5000;
        if (rng() % 3 == 0 && data.size() > 0xc000) {
            const size_t start = data.size() - (0x4000 + rng() % 0x7fff);
            for (size_t i = 0; i < n % 300; ++i) data.push_back(data[start + i]);
        } else {
            for (size_t i = 0; i < n; ++i) data.push_back(rng() % 4 == 0 ? static_cast<uint8_t>(rng()) : static_cast<uint8_t>(i % 5));
        }
    }
    const Bytes stream = wad_lz::compress(data, "restart");
    PieceReader pieces{stream};
    auto window = [&](uint64_t from, uint64_t length, const wad_lz::RestartPoint* start, const wad_lz::OfferRestart& offer) {
        Bytes out(wad_lz::kWindowLead + length + wad_lz::kPrefixSlack);
        auto at = wad_lz::decompress_window_read(stream.size(), std::ref(pieces), out, from, length, wad_lz::kInputStep, start, offer);
        REQUIRE_MESSAGE(at.ok(), at.error().describe());
        return Bytes(out.begin() + static_cast<std::ptrdiff_t>(*at), out.begin() + static_cast<std::ptrdiff_t>(*at + length));
    };
    // The walk to a window at the end offers a point each 1 MiB step, each
    // with the history the decoded data has before it.
    std::vector<std::pair<wad_lz::RestartPoint, Bytes>> points;
    const uint64_t end_from = data.size() - 1000;
    std::vector<uint64_t> window_starts;
    CHECK(window(end_from, 1000, nullptr, [&](const wad_lz::RestartPoint& p, bool window_start) {
              points.push_back({p, Bytes(p.history.begin(), p.history.end())});
              if (window_start) window_starts.push_back(p.pos);
          }) == Bytes(data.end() - 1000, data.end()));
    REQUIRE(points.size() >= 4);
    // The window's own point: the packet that decodes the first byte of its
    // lead, at most one largest packet (§5.2: 288 + 3 bytes) before it.
    REQUIRE(window_starts.size() == 1);
    const uint64_t lead_start = end_from - wad_lz::kWindowLead;
    CHECK(window_starts[0] <= lead_start);
    CHECK(lead_start - window_starts[0] < 288 + 3);
    // Plain references, not structured bindings: CAPTURE is a lambda, and clang 14 cannot capture a binding.
    for (auto& offered : points) {
        auto& point = offered.first;
        const Bytes& history = offered.second;
        CAPTURE(point.pos);
        CHECK(point.history.size() == wad_lz::kRestartHistory);
        CHECK(history == Bytes(data.begin() + static_cast<std::ptrdiff_t>(point.pos - wad_lz::kRestartHistory),
                               data.begin() + static_cast<std::ptrdiff_t>(point.pos)));
        point.history = history;  // the offered span lived only during the call
    }
    // Windows started at each point: the same bytes as the data, and the
    // stream read only from the point's cursor on.
    for (const auto& offered : points) {
        const wad_lz::RestartPoint& point = offered.first;
        for (const uint64_t gap : {wad_lz::kWindowLead, wad_lz::kWindowLead + 12345, uint64_t{1500000}}) {
            const uint64_t from = point.pos + gap;
            if (from + 500 > data.size()) continue;
            CAPTURE(point.pos);
            CAPTURE(gap);
            struct FromCursor {
                PieceReader& pieces;
                uint64_t lowest = UINT64_MAX;
                std::string operator()(uint64_t offset, std::span<uint8_t> into) {
                    if (offset >= wad_lz::kHeaderSize) lowest = std::min(lowest, offset);
                    return pieces(offset, into);
                }
            } reader{pieces};
            Bytes out(wad_lz::kWindowLead + 500 + wad_lz::kPrefixSlack);
            auto at = wad_lz::decompress_window_read(stream.size(), std::ref(reader), out, from, 500, wad_lz::kInputStep, &point);
            REQUIRE_MESSAGE(at.ok(), at.error().describe());
            CHECK(Bytes(out.begin() + static_cast<std::ptrdiff_t>(*at), out.begin() + static_cast<std::ptrdiff_t>(*at + 500)) ==
                  Bytes(data.begin() + static_cast<std::ptrdiff_t>(from), data.begin() + static_cast<std::ptrdiff_t>(from + 500)));
            CHECK(reader.lowest == point.p);
        }
    }
    // Resumed from its own point, the window walks nothing before its lead;
    // from the head, everything before it.
    for (const auto& offered : points) {
        if (offered.first.pos != window_starts[0]) continue;
        Bytes out(wad_lz::kWindowLead + 1000 + wad_lz::kPrefixSlack);
        uint64_t walked = UINT64_MAX;
        auto at = wad_lz::decompress_window_read(stream.size(), std::ref(pieces), out, end_from, 1000, wad_lz::kInputStep, &offered.first,
                                                 {}, nullptr, &walked);
        REQUIRE_MESSAGE(at.ok(), at.error().describe());
        CHECK(Bytes(out.begin() + static_cast<std::ptrdiff_t>(*at), out.begin() + static_cast<std::ptrdiff_t>(*at + 1000)) ==
              Bytes(data.end() - 1000, data.end()));
        CHECK(walked == 0);
        REQUIRE(wad_lz::decompress_window_read(stream.size(), std::ref(pieces), out, end_from, 1000, wad_lz::kInputStep, nullptr, {}, nullptr,
                                               &walked).ok());
        CHECK(walked == window_starts[0]);
    }
    // A point too close to the window, or with a short history, is passed over: the walk starts at the head.
    const wad_lz::RestartPoint& first = points.front().first;
    CHECK_FALSE(wad_lz::usable_restart(first, first.pos + wad_lz::kWindowLead - 1, stream.size()));
    CHECK(wad_lz::usable_restart(first, first.pos + wad_lz::kWindowLead, stream.size()));
    wad_lz::RestartPoint short_history = first;
    short_history.history = short_history.history.first(100);
    CHECK_FALSE(wad_lz::usable_restart(short_history, first.pos + (1 << 20), stream.size()));
    wad_lz::RestartPoint past_end = first;
    past_end.p = stream.size();
    CHECK_FALSE(wad_lz::usable_restart(past_end, first.pos + (1 << 20), stream.size()));
    const uint64_t near = first.pos + 100;
    CHECK(window(near, 300, &first, {}) == Bytes(data.begin() + static_cast<std::ptrdiff_t>(near), data.begin() + static_cast<std::ptrdiff_t>(near + 300)));
}

}  // namespace test_wad_lz
