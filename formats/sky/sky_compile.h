// Sky shells compiled from meshes (formats-tie-sky.md B.7): each shell's
// triangles grouped into clusters by the direction they lie in, as Wrench's
// writer groups them (12 azimuth sectors in each of three elevation bands,
// the middle band's offset by half a sector, and a cap above and below
// ±65°), a cluster split before it passes 127 vertices (B.5) or 32,766
// faces; positions to s16 × 1024, texture coordinates to s16 × 4096, alpha
// to 0x80 for opaque else a / 2 (rounded up: read back × 2, within 1), faces stored in reversed winding (B.4).
// Wrench's band tests are inclusive, so it may put a triangle on a boundary
// in two clusters; gcfs puts each in one.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "formats/common/error.h"
#include "formats/sky/sky.h"

namespace gcfs::formats {

struct SkyShellIn {
    bool textured = false;
    std::vector<std::array<double, 3>> positions;  // game axes, sky units (s16 / 1024)
    std::vector<std::array<double, 2>> uvs;        // one per position: u = s / 4096, v = t / 4096
    std::vector<uint8_t> alpha;                    // one per position, 0..255
    struct Face {
        std::array<uint32_t, 3> corners{};  // wound as sky.obj shows them (the stored order reversed, B.4)
        uint8_t texture = 0xff;             // texture def, 0xff on gradient shells
    };
    std::vector<Face> faces;
};

// The clusters of each shell (at most 8), each with its bounding sphere.
// Fails naming the shell and the number that does not fit.
Result<std::vector<std::vector<SkyClusterContent>>> compile_sky_shells(const std::vector<SkyShellIn>& shells);

}  // namespace gcfs::formats

namespace gcfs::formats {

// B.3: the sphere Wrench's writer gives a cluster (approximate_bounding_sphere):
// the middle of its vertices' bounds, and the farthest vertex from it, in sky units.
std::array<float, 4> sky_cluster_bsphere(const SkyClusterContent& cluster);

}  // namespace gcfs::formats
