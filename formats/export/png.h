// 8-bit indexed PNG (colour type 3, PLTE + tRNS) for PS2 textures. The image
// data is stored, not deflated, so that a file's size is arithmetic on its
// width and height: the filesystem reports it at stat time without decoding
// the level core. The CRCs and the Adler-32 come from zlib.
#pragma once

#include <array>
#include <cstdint>

#include "formats/common/bytes.h"

namespace gcfs::formats::png {

struct Rgba {
    uint8_t r = 0, g = 0, b = 0, a = 0;
};

uint64_t indexed_size(uint32_t width, uint32_t height);
// `indices` holds width × height palette indices, row by row.
Bytes write_indexed(uint32_t width, uint32_t height, const std::array<Rgba, 256>& palette, ByteSpan indices);

}  // namespace gcfs::formats::png
