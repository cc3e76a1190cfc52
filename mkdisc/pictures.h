// The pictures the builder draws into PIFs and RGBA images (formats-globals.md
// §5, §7, §11): patterns a test can recompute, so a decoded PNG can be held to
// them pixel for pixel. Palettes and pixels carry PS2 alpha (0x80 opaque),
// with half-transparent and transparent entries, so alpha scaling is seen.
#pragma once

#include <array>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/export/png.h"

namespace gcfs::mkdisc {

struct Picture8 {
    uint32_t width = 0, height = 0;
    std::array<formats::png::Rgba, 256> palette{};  // PNG order (the PIF stores it swizzled)
    formats::Bytes indices;
};
// Diagonal bands of the 256 colours, shifted by `seed`.
Picture8 picture8(uint32_t width, uint32_t height, int seed);

struct Picture4 {
    uint32_t width = 0, height = 0;
    std::array<formats::png::Rgba, 16> palette{};
    formats::Bytes indices;  // one per pixel, 0-15
};
// A 4 × 4-pixel checker of the 16 colours, shifted by `seed`, every odd
// column 7 colours further on: the two pixels a 4-bit byte holds always
// differ, so a decode with its nibbles swapped shows (formats-globals.md §5).
Picture4 picture4(uint32_t width, uint32_t height, int seed);

// A gradient: red along x, green along y, blue from `seed`, alpha in four bands.
std::vector<formats::png::Rgba> picture_rgba(uint32_t width, uint32_t height, int seed);

}  // namespace gcfs::mkdisc
