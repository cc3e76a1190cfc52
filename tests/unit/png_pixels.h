// The RGBA pixels of a PNG gcfs wrote (8-bit indexed with PLTE and tRNS, or
// truecolour with alpha; zlib inflates IDAT), for pixel checks. Test code only.
#pragma once

#include <zlib.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::test {

struct Pixels {
    uint32_t width = 0, height = 0;
    int colour_type = 0;
    size_t palette = 0;             // PLTE entries (indexed)
    formats::Bytes rgba;            // width × height × 4
};

inline Pixels png_pixels(formats::ByteSpan png) {
    auto be32 = [&](size_t at) { return uint32_t{png[at]} << 24 | uint32_t{png[at + 1]} << 16 | uint32_t{png[at + 2]} << 8 | png[at + 3]; };
    Pixels p;
    formats::Bytes plte, trns, z;
    for (size_t at = 8; at + 12 <= png.size();) {
        const uint32_t n = be32(at);
        const std::string type(reinterpret_cast<const char*>(png.data() + at + 4), 4);
        const uint8_t* d = png.data() + at + 8;
        if (type == "IHDR") p.width = be32(at + 8), p.height = be32(at + 12), p.colour_type = d[9];
        if (type == "PLTE") plte.assign(d, d + n);
        if (type == "tRNS") trns.assign(d, d + n);
        if (type == "IDAT") z.insert(z.end(), d, d + n);
        at += 12 + n;
    }
    const size_t channels = p.colour_type == 6 ? 4 : 1;
    formats::Bytes raw(p.height * (1 + channels * p.width));
    uLongf raw_size = raw.size();
    if (uncompress(raw.data(), &raw_size, z.data(), z.size()) != Z_OK || raw_size != raw.size()) throw std::runtime_error("PNG: IDAT");
    p.palette = plte.size() / 3;
    for (uint32_t y = 0; y < p.height; ++y)
        for (uint32_t x = 0; x < p.width; ++x) {
            const uint8_t* px = raw.data() + y * (1 + channels * p.width) + 1 + channels * x;
            if (channels == 4) {
                p.rgba.insert(p.rgba.end(), px, px + 4);
            } else {
                const uint8_t i = *px;
                p.rgba.insert(p.rgba.end(), {plte[3 * i], plte[3 * i + 1], plte[3 * i + 2], static_cast<uint8_t>(i < trns.size() ? trns[i] : 255)});
            }
        }
    return p;
}

}  // namespace gcfs::test
