// A particle (formats-globals.md §13) as one animated PNG: its frames, each a
// part_textures entry (square, 8-bit, palette swizzled, PS2 alpha, both in the
// particle bank), played in order and looped. The references give no frame
// rate: gcfs shows each frame for 1/15 s, its own choice. Frames of unequal
// sides sit at the top left of a canvas as large as the largest, the rest
// transparent (APNG wants every frame at the canvas's size).
#pragma once

#include <vector>

#include "formats/core/bank_textures.h"
#include "formats/particles/particle_defs.h"

namespace gcfs::formats::particles {

constexpr uint16_t kFrameDelayNum = 1, kFrameDelayDen = 15;  // seconds per frame: 1/15

// The canvas side: the largest frame's (0 when there are none or a frame names no row).
uint32_t canvas_side(const Particle& particle, const std::vector<BankTexture>& textures);
uint64_t animation_size(const Particle& particle, const std::vector<BankTexture>& textures);
// From `core`, the decompressed core or a window of it (`bank_offset`
// counted from the window's start); every frame's ranges are checked.
Result<Bytes> animation_png(const Particle& particle, const std::vector<BankTexture>& textures, ByteSpan core, int32_t bank_offset);

}  // namespace gcfs::formats::particles
