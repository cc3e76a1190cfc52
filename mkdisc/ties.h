// Synthetic tie classes (formats-tie-sky.md A.10): an arch, a pillar and a
// stair block per level, each with three LODs, several materials, vertices
// shared between GS slots and fat vertices.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "formats/common/bytes.h"
#include "mkdisc/random.h"

namespace gcfs::mkdisc {

struct ClassBlob {
    int32_t o_class = 0;
    formats::Bytes bytes;              // 0x40-padded
    std::array<uint8_t, 16> textures;  // class slot -> row of its texture table, then 0xff
};

constexpr int kTieTextureCount = 6;  // rows of the tie texture table the classes use
std::vector<ClassBlob> make_ties(Random& random);

}  // namespace gcfs::mkdisc
