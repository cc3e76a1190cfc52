// A PSS is Sony's MPEG-2 program stream for the PS2 (formats-globals.md §4):
// gcfs serves the disc's bytes unchanged. This is the disc builder's side: a
// small stream ffprobe and players accept, made of MPEG-2 intra frames whose
// macroblocks are flat colours (ISO/IEC 13818-1 packs and PES packets,
// 13818-2 Main Profile video, DC coefficients only), with a PS-ADPCM sound
// track in private stream 1 laid out as pss_audio.h gives it.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/mpeg/pss_audio.h"

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
// second, as the NTSC disc plays them. `audio` (write_audio_stream's bytes),
// when given, goes out in private stream 1 packets of at most 2 KiB, one
// after each picture's and the rest at the end, each stamped with the time of
// its first sample.
Bytes write_pss(uint32_t width, uint32_t height, const std::vector<FlatPicture>& pictures, const Bytes& audio = {});

}  // namespace gcfs::formats::mpeg
