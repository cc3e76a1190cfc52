// A level texture (formats.md §6.3) as PNG: 8-bit indices from the
// decompressed core, the 256-colour RGBA32 palette from the GS-RAM lump.
#pragma once

#include "formats/core/level_core.h"

namespace gcfs::formats {

// PS2 alpha: 0x80 means opaque; scaled to PNG's 0-255 (≥ 0x80 -> 255, else × 2).
uint8_t ps2_alpha_to_png(uint8_t alpha);

uint64_t texture_png_size(const TextureEntry& texture);
// Checks the pixels lie in `core` and the palette in `gs_ram` first. formats.md
// is silent on any swizzle of pixels or palette entries (the GS's CSM1 CLUT
// order): both are taken as linear, as Wrench's unpacker reads them.
Result<Bytes> texture_png(const TextureEntry& texture, ByteSpan core, int32_t textures_base, ByteSpan gs_ram);

}  // namespace gcfs::formats
