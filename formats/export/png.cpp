#include "formats/export/png.h"

#include <zlib.h>

#include <algorithm>
#include <stdexcept>

namespace gcfs::formats::png {
namespace {

constexpr uint64_t kStoredBlock = 65535;  // RFC 1951: a stored block holds at most this many bytes
constexpr uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

uint64_t stored_zlib_size(uint64_t raw) {
    const uint64_t blocks = std::max<uint64_t>(1, (raw + kStoredBlock - 1) / kStoredBlock);
    return 2 + blocks * 5 + raw + 4;  // header, block headers, data, Adler-32
}

// Big-endian, as PNG and zlib want.
void be32(Bytes& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

void chunk(Bytes& out, const char type[4], const Bytes& data) {
    be32(out, static_cast<uint32_t>(data.size()));
    const size_t typed = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    be32(out, static_cast<uint32_t>(crc32(0, out.data() + typed, static_cast<uInt>(out.size() - typed))));
}

}  // namespace

uint64_t indexed_size(uint32_t width, uint32_t height) {
    const uint64_t raw = static_cast<uint64_t>(height) * (1 + static_cast<uint64_t>(width));  // a filter byte per row
    return sizeof kSignature + (12 + 13) + (12 + 768) + (12 + 256) + (12 + stored_zlib_size(raw)) + 12;
}

Bytes write_indexed(uint32_t width, uint32_t height, const std::array<Rgba, 256>& palette, ByteSpan indices) {
    if (indices.size() != static_cast<uint64_t>(width) * height) throw std::invalid_argument("PNG: pixel count");
    Bytes out(kSignature, kSignature + sizeof kSignature);
    Bytes ihdr;
    be32(ihdr, width);
    be32(ihdr, height);
    ihdr.insert(ihdr.end(), {8, 3, 0, 0, 0});  // depth 8, indexed, deflate, adaptive filters, no interlace
    chunk(out, "IHDR", ihdr);
    Bytes plte, trns;
    for (const Rgba& c : palette) {
        plte.insert(plte.end(), {c.r, c.g, c.b});
        trns.push_back(c.a);
    }
    chunk(out, "PLTE", plte);
    chunk(out, "tRNS", trns);

    Bytes raw;
    raw.reserve(static_cast<size_t>(height) * (width + 1));
    for (uint32_t y = 0; y < height; ++y) {
        raw.push_back(0);  // filter: none
        raw.insert(raw.end(), indices.begin() + static_cast<std::ptrdiff_t>(y) * width,
                   indices.begin() + static_cast<std::ptrdiff_t>(y + 1) * width);
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
    chunk(out, "IDAT", z);
    chunk(out, "IEND", {});
    return out;
}

}  // namespace gcfs::formats::png
