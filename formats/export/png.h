// 8-bit indexed PNG (colour type 3, PLTE + tRNS) for PS2 textures, and RGBA
// PNG (colour type 6) for the RGBA images of the global WADs. The image
// data is stored, not deflated, so that a file's size is arithmetic on its
// width and height: the filesystem reports it at stat time without decoding
// the level core. The CRCs and the Adler-32 come from zlib.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "formats/common/bytes.h"

namespace gcfs::formats::png {

struct Rgba {
    uint8_t r = 0, g = 0, b = 0, a = 0;
};

// An indexed PNG of `palette_entries` colours (1-256).
uint64_t indexed_size(uint32_t width, uint32_t height, uint32_t palette_entries = 256);
// `indices` holds width × height palette indices, row by row.
Bytes write_indexed(uint32_t width, uint32_t height, std::span<const Rgba> palette, ByteSpan indices);

// A truecolour PNG with alpha (colour type 6), from width × height pixels.
uint64_t rgba_size(uint32_t width, uint32_t height);
Bytes write_rgba(uint32_t width, uint32_t height, std::span<const Rgba> pixels);

}  // namespace gcfs::formats::png
