// A class model as the class compilers take it (formats/tie/tie_compile.h,
// formats/shrub/shrub_compile.h): triangles in class space, the game's axes,
// each naming its class texture slot.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace gcfs::formats {

struct ClassMeshIn {
    struct Triangle {
        std::array<uint32_t, 3> corners{};  // into positions, counter-clockwise seen from outside
        int slot = 0;                       // class texture slot (formats-tie-sky.md A.6, formats-shrub.md 1.10)
    };
    std::vector<std::array<double, 3>> positions;  // class space, game axes, world units
    std::vector<std::array<double, 2>> uvs;        // per position, (s, t) with t downward as the game stores it
    std::vector<Triangle> triangles;
};

}  // namespace gcfs::formats
