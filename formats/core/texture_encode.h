// A picture written over an 8-bit indexed texture (formats.md §6.3, formats-
// tie-sky.md A.6): texel indices and, where the texture has a palette of its
// own, a new palette. The edit decoder for textures/*.png (edit/), the
// inverse of texture_png.h.
#pragma once

#include <array>
#include <string>

#include "formats/export/png.h"
#include "formats/export/png_read.h"

namespace gcfs::formats {

using Palette = std::array<png::Rgba, 256>;

struct IndexedPicture {
    Bytes texels;             // width × height palette indices
    Palette palette;          // PNG colours (what texture_png shows)
    bool new_palette = false;
    std::string how;          // the edit's status: how the colours were placed
};

// A pixel whose colour is in `palette` takes that index (its old one when the
// colour is the one it had, so an unchanged pixel keeps its byte). When some
// colour is not there: with `own_palette` (no other texture names this
// palette) the picture gets a palette of its own colours, quantised with
// libimagequant when it has more than 256; else every such pixel takes the
// nearest colour of the shared palette (least squared RGBA distance).
// `colours`: how many of the palette's entries the texture has (16 for a 4-bit
// PIF); the rest are never used.
IndexedPicture encode_indexed(const png::RgbaImage& picture, ByteSpan old_texels, const Palette& palette, bool own_palette,
                              size_t colours = 256);

// The stored 1024 bytes of a palette: PS2 slot order and alpha (0x80 opaque),
// the inverse of ps2_palette for every colour it can give back (a PNG alpha
// below 255 keeps its upper seven bits).
Bytes ps2_palette_bytes(const Palette& palette);

}  // namespace gcfs::formats
