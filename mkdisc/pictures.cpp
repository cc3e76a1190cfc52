#include "mkdisc/pictures.h"

namespace gcfs::mkdisc {
namespace {

// PS2 alpha: most entries opaque (0x80), every fifth half (0x40), every
// thirteenth clear (0).
uint8_t alpha_of(int i) { return i % 13 == 0 ? 0 : i % 5 == 0 ? 0x40 : 0x80; }

}  // namespace

Picture8 picture8(uint32_t width, uint32_t height, int seed) {
    Picture8 p{width, height};
    for (int i = 0; i < 256; ++i)
        p.palette[static_cast<size_t>(i)] = {static_cast<uint8_t>(i), static_cast<uint8_t>((i * 7 + seed * 40) & 0xff),
                                             static_cast<uint8_t>(255 - i), alpha_of(i)};
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) p.indices.push_back(static_cast<uint8_t>((x + 2 * y + static_cast<uint32_t>(seed) * 17) & 0xff));
    return p;
}

Picture4 picture4(uint32_t width, uint32_t height, int seed) {
    Picture4 p{width, height};
    for (int i = 0; i < 16; ++i)
        p.palette[static_cast<size_t>(i)] = {static_cast<uint8_t>(16 * i), static_cast<uint8_t>(255 - 16 * i), static_cast<uint8_t>(seed * 30), alpha_of(i)};
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x)  // odd pixels 7 colours on: the two pixels of each stored byte differ
            p.indices.push_back(static_cast<uint8_t>((x / 4 + 3 * (y / 4) + 7 * (x % 2) + static_cast<uint32_t>(seed)) % 16));
    return p;
}

std::vector<formats::png::Rgba> picture_rgba(uint32_t width, uint32_t height, int seed) {
    std::vector<formats::png::Rgba> out;
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x)
            out.push_back({static_cast<uint8_t>(255 * x / std::max(1u, width - 1)), static_cast<uint8_t>(255 * y / std::max(1u, height - 1)),
                           static_cast<uint8_t>(seed * 50), static_cast<uint8_t>(x * 4 / width == 0 ? 0x20 : 0x80)});
    return out;
}

}  // namespace gcfs::mkdisc
