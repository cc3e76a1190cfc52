#include "formats/export/png.h"

#include "formats/export/png_chunks.h"

#include <zlib.h>

#include <algorithm>
#include <stdexcept>

namespace gcfs::formats::png {

constexpr uint64_t kStoredBlock = 65535;  // RFC 1951: a stored block holds at most this many bytes

uint64_t stored_zlib_size(uint64_t raw) {
    const uint64_t blocks = std::max<uint64_t>(1, (raw + kStoredBlock - 1) / kStoredBlock);
    return 2 + blocks * 5 + raw + 4;  // header, block headers, data, Adler-32
}

// Big-endian, as PNG and zlib want.
void be32(Bytes& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}
void be16(Bytes& out, uint16_t v) {
    out.push_back(static_cast<uint8_t>(v >> 8));
    out.push_back(static_cast<uint8_t>(v));
}

void chunk(Bytes& out, const char type[4], const Bytes& data) {
    be32(out, static_cast<uint32_t>(data.size()));
    const size_t typed = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    be32(out, static_cast<uint32_t>(crc32(0, out.data() + typed, static_cast<uInt>(out.size() - typed))));
}

Bytes signature_and_header(uint32_t width, uint32_t height, uint8_t colour_type) {
    Bytes out(kSignature, kSignature + sizeof kSignature);
    Bytes ihdr;
    be32(ihdr, width);
    be32(ihdr, height);
    ihdr.insert(ihdr.end(), {8, colour_type, 0, 0, 0});  // depth 8, deflate, adaptive filters, no interlace
    chunk(out, "IHDR", ihdr);
    return out;
}

Bytes stored_zlib(const uint8_t* pixels, uint64_t rows, uint64_t row_bytes) {
    Bytes raw;
    raw.reserve(static_cast<size_t>(rows * (row_bytes + 1)));
    for (uint64_t y = 0; y < rows; ++y) {
        raw.push_back(0);  // filter: none
        raw.insert(raw.end(), pixels + y * row_bytes, pixels + (y + 1) * row_bytes);
    }
    Bytes z = {0x78, 0x01};  // deflate, 32 KiB window, no dictionary, "fastest"
    uint64_t at = 0;
    do {
        const uint64_t n = std::min(kStoredBlock, raw.size() - at);
        const bool last = at + n == raw.size();
        z.push_back(last ? 1 : 0);  // BFINAL, BTYPE 00 = stored
        z.insert(z.end(), {static_cast<uint8_t>(n), static_cast<uint8_t>(n >> 8), static_cast<uint8_t>(~n),
                           static_cast<uint8_t>(~n >> 8)});
        z.insert(z.end(), raw.begin() + static_cast<std::ptrdiff_t>(at), raw.begin() + static_cast<std::ptrdiff_t>(at + n));
        at += n;
    } while (at < raw.size());
    be32(z, static_cast<uint32_t>(adler32(1, raw.data(), static_cast<uInt>(raw.size()))));
    return z;
}

uint64_t indexed_size(uint32_t width, uint32_t height, uint32_t palette_entries) {
    const uint64_t raw = static_cast<uint64_t>(height) * (1 + static_cast<uint64_t>(width));  // a filter byte per row
    return sizeof kSignature + (kChunkOverhead + 13) + (kChunkOverhead + 3 * uint64_t{palette_entries}) + (kChunkOverhead + palette_entries) +
           (kChunkOverhead + stored_zlib_size(raw)) + kChunkOverhead;
}

uint64_t rgba_size(uint32_t width, uint32_t height) {
    const uint64_t raw = static_cast<uint64_t>(height) * (1 + 4 * static_cast<uint64_t>(width));
    return sizeof kSignature + (kChunkOverhead + 13) + (kChunkOverhead + stored_zlib_size(raw)) + kChunkOverhead;
}

namespace {

// `rows` rows of `row_bytes` each as IDAT, then IEND.
void stored_image(Bytes& out, const uint8_t* pixels, uint64_t rows, uint64_t row_bytes) {
    chunk(out, "IDAT", stored_zlib(pixels, rows, row_bytes));
    chunk(out, "IEND", {});
}

}  // namespace

Bytes write_indexed(uint32_t width, uint32_t height, std::span<const Rgba> palette, ByteSpan indices) {
    if (indices.size() != static_cast<uint64_t>(width) * height) throw std::invalid_argument("PNG: pixel count");
    if (palette.empty() || palette.size() > 256) throw std::invalid_argument("PNG: palette size");
    Bytes out = signature_and_header(width, height, 3);
    Bytes plte, trns;
    for (const Rgba& c : palette) {
        plte.insert(plte.end(), {c.r, c.g, c.b});
        trns.push_back(c.a);
    }
    chunk(out, "PLTE", plte);
    chunk(out, "tRNS", trns);
    stored_image(out, indices.data(), height, width);
    return out;
}

Bytes write_rgba(uint32_t width, uint32_t height, std::span<const Rgba> pixels) {
    if (pixels.size() != static_cast<uint64_t>(width) * height) throw std::invalid_argument("PNG: pixel count");
    static_assert(sizeof(Rgba) == 4);
    Bytes out = signature_and_header(width, height, 6);
    stored_image(out, reinterpret_cast<const uint8_t*>(pixels.data()), height, 4 * static_cast<uint64_t>(width));
    return out;
}

}  // namespace gcfs::formats::png
