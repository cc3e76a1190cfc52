// A level texture (formats.md §6.3) as PNG: 8-bit indices from the
// decompressed core, the 256-colour RGBA32 palette from the GS-RAM lump.
#pragma once

#include <array>

#include "formats/core/level_core.h"
#include "formats/export/png.h"
#include "formats/export/png_read.h"

namespace gcfs::formats {

// PS2 alpha: 0x80 means opaque; scaled to PNG's 0-255 (≥ 0x80 -> 255, else × 2).
uint8_t ps2_alpha_to_png(uint8_t alpha);

// The stored slot of palette colour `index`: PS2 palettes are kept swizzled,
// entries 8-15 and 16-23 of every 32 swapped (bits 3 and 4 of the index),
// for tfrag, tie, shrub, moby and sky textures alike (formats-tie-sky.md A.6
// step 3, B.2; formats-shrub.md; formats.md is silent). Its own inverse.
constexpr uint8_t ps2_palette_slot(uint8_t index) {
    return static_cast<uint8_t>((index & ~0x18) | ((index & 0x08) << 1) | ((index & 0x10) >> 1));
}

// A stored (swizzled) 256 × RGBA32 palette with PS2 alpha in PNG order and
// alpha; `stored` holds at least 1024 bytes.
std::array<png::Rgba, 256> ps2_palette(ByteSpan stored);

// An 8-bit indexed PNG from `width` x `height` texels and a stored (swizzled)
// 256 x RGBA32 palette with PS2 alpha; the caller checked both sizes.
Bytes indexed_texture_png(uint32_t width, uint32_t height, ByteSpan texels, ByteSpan palette);
// The same texels as the RGBA pixels that PNG shows.
png::RgbaImage indexed_texture_rgba(uint32_t width, uint32_t height, ByteSpan texels, ByteSpan palette);

uint64_t texture_png_size(const TextureEntry& texture);
// Checks the pixels lie in `core` and the palette in `gs_ram` first. Pixels
// are linear on GC (not swizzled; the references agree).
Result<Bytes> texture_png(const TextureEntry& texture, ByteSpan core, int32_t textures_base, ByteSpan gs_ram);

}  // namespace gcfs::formats
