// Synthetic tie classes (formats-tie-sky.md A.10): an arch, a pillar and a
// stair block per level, each with three LODs, several materials, vertices
// shared between GS slots and fat vertices.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
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

// A class's texture slots: the rows given, the rest unused (0xff; formats-tie-sky.md A.1, formats-moby.md §10).
inline std::array<uint8_t, 16> texture_slots(std::initializer_list<uint8_t> rows) {
    std::array<uint8_t, 16> out;
    out.fill(0xff);
    std::copy(rows.begin(), rows.end(), out.begin());
    return out;
}

// A coordinate in fixed point: `unit` steps per world unit.
inline int16_t fixed(double value, double unit) { return static_cast<int16_t>(std::lround(value * unit)); }

constexpr int kTieTextureCount = 6;  // rows of the tie texture table the classes use
std::vector<ClassBlob> make_ties(Random& random);

}  // namespace gcfs::mkdisc
