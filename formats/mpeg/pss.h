// A PSS is Sony's MPEG-2 program stream for the PS2 (formats-globals.md §4):
// gcfs serves the disc's bytes unchanged. This is the disc builder's side: a
// small stream ffprobe and players accept, made of MPEG-2 intra frames whose
// macroblocks are flat colours (ISO/IEC 13818-1 packs and PES packets,
// 13818-2 Main Profile video, DC coefficients only). The references give no
// layout for a PSS's audio (PS-ADPCM in private stream 1), so the builder
// writes video alone and says so.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::formats::mpeg {

struct YCbCr {
    uint8_t y = 16, cb = 128, cr = 128;
};

// One picture: a colour per 16×16 macroblock, row by row.
struct FlatPicture {
    std::vector<YCbCr> macroblocks;
};

// `width` and `height` are multiples of 16 (at most 4080 × 2800); every
// picture holds (width / 16) × (height / 16) macroblocks. 29.97 frames per
// second, as the NTSC disc plays them.
Bytes write_pss(uint32_t width, uint32_t height, const std::vector<FlatPicture>& pictures);

}  // namespace gcfs::formats::mpeg
