// libFuzzer: the WAD LZ decoder (formats.md §5) on arbitrary streams (whole,
// prefix, window, window-read-in-pieces and step-by-step decodes agreeing), the compressor's output decoding
// back to its input, and an edit of a stream's decoded bytes compressed again around the change
// (recompress, which walks the untrusted stream's pads) decoding to the edit.
#include <algorithm>

#include "formats/wad_lz/wad_lz.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan input(data, size);
    const wad_lz::ReadStream read_pieces = [&](uint64_t offset, std::span<uint8_t> into) -> std::string {
        if (offset + into.size() > size) __builtin_trap();  // the decoder reads only inside the extent
        std::copy_n(data + offset, into.size(), into.begin());
        return {};
    };
    auto measured = wad_lz::measure(input);
    if (measured.ok()) {
        auto decoded = wad_lz::decompress(input, *measured);
        if (!decoded.ok() || decoded->size() != *measured) __builtin_trap();  // measure and decode must agree
        auto prefix = wad_lz::decompress_prefix(input, *measured / 2);
        if (!prefix.ok() || !std::equal(prefix->begin(), prefix->end(), decoded->begin())) __builtin_trap();
        // The last quarter decoded alone, through the sliding history when it starts far enough in.
        const uint64_t from = *measured - *measured / 4;
        Bytes window(std::min(from, wad_lz::kWindowLead) + *measured / 4 + wad_lz::kPrefixSlack);
        auto at = wad_lz::decompress_window_into(input, window, from, *measured / 4);
        if (!at.ok() || !std::equal(decoded->begin() + static_cast<std::ptrdiff_t>(from), decoded->end(),
                                    window.begin() + static_cast<std::ptrdiff_t>(*at)))
            __builtin_trap();
        // The same window with the stream read in small pieces.
        Bytes pieces_window(window.size());
        auto read_at = wad_lz::decompress_window_read(size, read_pieces, pieces_window, from, *measured / 4, 583);
        if (!read_at.ok() || !std::equal(decoded->begin() + static_cast<std::ptrdiff_t>(from), decoded->end(),
                                         pieces_window.begin() + static_cast<std::ptrdiff_t>(*read_at)))
            __builtin_trap();
    }
    {
        // Step by step as the bytes arrive (a few uneven steps): the same
        // verdict as the whole decode, and on success the same bytes.
        Bytes stepped(measured.ok() ? *measured : size);
        wad_lz::StepDecoder decoder(input, stepped);
        bool failed = false;
        for (uint64_t arrived = 1; !decoder.done() && !failed; arrived = arrived * 3 + 7) failed = !decoder.advance(arrived).ok();
        if (measured.ok() && (failed || !std::equal(stepped.begin(), stepped.end(), wad_lz::decompress(input, *measured)->begin())))
            __builtin_trap();
        if (!measured.ok() && !failed) __builtin_trap();
        if (measured.ok()) {  // the first half alone, as the head of a core is read
            const uint64_t half = *measured / 2;
            Bytes head(half + wad_lz::kPrefixSlack);
            wad_lz::StepDecoder prefix(input, head, half);
            for (uint64_t arrived = 5; !prefix.done(); arrived = arrived * 2 + 1)
                if (!prefix.advance(arrived).ok()) __builtin_trap();
            if (!std::equal(head.begin(), head.begin() + static_cast<std::ptrdiff_t>(half), stepped.begin())) __builtin_trap();
        }
    }
    (void)wad_lz::block_starts(input);
    if (measured.ok() && *measured > 0 && *measured < (1 << 20)) {
        Bytes plain = *wad_lz::decompress(input, *measured);
        Bytes edited = plain;
        edited[edited.size() / 3] ^= 0x5a;  // one byte changed, and a few inserted past the middle
        edited.insert(edited.begin() + static_cast<std::ptrdiff_t>(edited.size() / 2), {1, 2, 3, 4, 5});
        const Bytes again = wad_lz::recompress(input, plain, edited, "fuzz");
        auto back = wad_lz::decompress(again, edited.size());
        if (!back.ok() || *back != edited) __builtin_trap();
    }
    if (!measured.ok()) {
        (void)wad_lz::decompress(input, size);  // a wrong size must fail cleanly too
        (void)wad_lz::decompress_prefix(input, size / 2 + 1);
        Bytes window(wad_lz::kWindowLead + 64 + wad_lz::kPrefixSlack);
        (void)wad_lz::decompress_window_into(input, window, size * 8, 64);
        (void)wad_lz::decompress_window_read(size, read_pieces, window, size / 2, 64, 583);
    }
    if (size > 8192) return 0;  // the round trip below is the slow half; small inputs cover its branches
    const Bytes packed = wad_lz::compress(input, "fuzz");
    auto round_trip = wad_lz::decompress(packed, size);
    if (!round_trip.ok() || *round_trip != Bytes(data, data + size)) __builtin_trap();
    return 0;
}
