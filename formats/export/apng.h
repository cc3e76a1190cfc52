// Animated PNG (APNG 1.0, the acTL/fcTL/fdAT chunks that browsers, file
// managers and PIL play; a plain PNG reader shows the first frame): RGBA
// frames of one size, each replacing the last, looping forever. Stored
// image data, as in png.h, so the size is arithmetic on the frame size and
// count.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "formats/export/png.h"

namespace gcfs::formats::png {

uint64_t apng_size(uint32_t width, uint32_t height, uint64_t frames);
// Every frame holds width × height pixels; each shows for delay_num /
// delay_den seconds.
Bytes write_apng(uint32_t width, uint32_t height, const std::vector<std::vector<Rgba>>& frames, uint16_t delay_num, uint16_t delay_den);

}  // namespace gcfs::formats::png
