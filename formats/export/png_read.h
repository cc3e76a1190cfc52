// Any PNG a paint program writes (grey, RGB, RGBA, palette, 16-bit,
// interlaced), read to 8-bit RGBA through libpng: the edit decoder for
// pictures (edit/), beside the writer in png.h. Input is untrusted: the
// size is checked against what is expected before anything is allocated.
#pragma once

#include <cstdint>

#include "formats/common/bytes.h"

namespace gcfs::formats::png {

struct RgbaImage {
    uint32_t width = 0, height = 0;
    Bytes rgba;  // width × height × 4, rows top to bottom
};

// Fails (bad_value) unless the PNG is exactly `width` × `height`.
Result<RgbaImage> read_rgba(ByteSpan file, uint32_t width, uint32_t height);
// A PNG of any size up to `max_side` pixels a side (a new texture's).
Result<RgbaImage> read_rgba_within(ByteSpan file, uint32_t max_side);

}  // namespace gcfs::formats::png
