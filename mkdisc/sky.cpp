#include "mkdisc/sky.h"

#include <array>
#include <cmath>
#include <numbers>

#include "formats/sky/sky_compile.h"

namespace gcfs::mkdisc {
namespace {

constexpr int kSlices = 12;   // clusters per shell, one per azimuth slice
constexpr int kBands = 4;     // elevation bands per slice
constexpr int kTextures = 4;  // the first two are fx textures (formats-tie-sky.md B.2: fx defs first)
constexpr uint8_t kFx = 2;
constexpr uint8_t kNoTexture = 0xff;  // B.4: untextured faces

// One azimuth slice of a dome of `radius` (s16 units; the sky's real scale is
// open, formats-tie-sky.md B.8): a (kBands + 1) × 2 vertex grid, two faces per
// band. A gradient slice (texture 0xff) fades from opaque at the horizon
// (alpha 0x80) towards the top, with zero texture coordinates, as Wrench's
// writer leaves them on untextured shells (B.4).
formats::SkyClusterContent slice(int index, int radius, uint8_t texture) {
    formats::SkyClusterContent c;
    const bool gradient = texture == kNoTexture;
    for (int band = 0; band <= kBands; ++band)
        for (int side = 0; side < 2; ++side) {
            const double azimuth = 2 * std::numbers::pi * (index + side) / kSlices;
            const double elevation = std::numbers::pi / 2 * band / kBands;
            const auto alpha = static_cast<int16_t>(gradient ? 0x80 - band * 0x1c : 0x80);
            c.vertices.push_back({static_cast<int16_t>(radius * std::cos(elevation) * std::cos(azimuth)),
                                  static_cast<int16_t>(radius * std::cos(elevation) * std::sin(azimuth)),
                                  static_cast<int16_t>(radius * std::sin(elevation)), alpha});
            c.texcoords.push_back(gradient ? std::array<int16_t, 2>{0, 0}
                                           : std::array<int16_t, 2>{static_cast<int16_t>(side * 0x1000),
                                                                    static_cast<int16_t>(band * 0x1000 / kBands)});
        }
    for (int band = 0; band < kBands; ++band) {
        const auto v = static_cast<uint8_t>(2 * band), t = static_cast<uint8_t>(texture);
        c.faces.push_back({v, static_cast<uint8_t>(v + 1), static_cast<uint8_t>(v + 2), t});
        c.faces.push_back({static_cast<uint8_t>(v + 1), static_cast<uint8_t>(v + 3), static_cast<uint8_t>(v + 2), t});
    }
    return c;
}

}  // namespace

formats::SkyContent make_sky(Random& random) {
    formats::SkyContent sky;
    sky.rgba = {static_cast<uint8_t>(random.below(64)), static_cast<uint8_t>(random.below(96)),
                static_cast<uint8_t>(96 + random.below(128)), 0x80};
    sky.clear_screen = static_cast<int16_t>(random.below(2));  // B.2: a boolean
    sky.maximum_sprite_count = 4;
    for (uint8_t fx = 0; fx < kFx; ++fx) sky.fx.push_back(fx);
    for (int t = 0; t < kTextures; ++t) {
        formats::SkyTextureContent texture;
        texture.width = texture.height = 32;
        for (int i = 0; i < 32 * 32; ++i) texture.texels.push_back(static_cast<uint8_t>((i / 32 + t * 40 + random.below(6)) & 0xff));
        for (uint32_t i = 0; i < 256; ++i) texture.palette[i] = 0x80000000u | (i << 16) | ((i / 2) << 8) | (255 - i / 3);
        sky.textures.push_back(std::move(texture));
    }
    // Two textured shells (faces name the non-fx defs, two textures in each
    // shell), then a gradient shell inside them.
    for (int shell = 0; shell < 3; ++shell) {
        const bool gradient = shell == 2;
        std::vector<formats::SkyClusterContent> clusters;
        for (int s = 0; s < kSlices; ++s)
            clusters.push_back(slice(s, 24000 - shell * 4000,
                                     gradient ? kNoTexture : static_cast<uint8_t>(kFx + (s + shell) % (kTextures - kFx))));
        for (auto& cluster : clusters) cluster.bsphere = formats::sky_cluster_bsphere(cluster);  // B.3, as Wrench's writer computes it
        sky.shells.push_back(std::move(clusters));
        sky.shell_flags.push_back(gradient ? 1 : 0);
    }
    return sky;
}

}  // namespace gcfs::mkdisc
