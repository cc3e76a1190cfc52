// The camera-collision grid as Wrench's writer builds it (formats-gameplay.md
// 3.16), shared by the disc builder and the volumes edit.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "formats/gameplay/gameplay.h"

namespace gcfs::formats::gameplay {

// A volume flagged for camera collision: its kind (0..3 as
// kVolumeKindNames), its index in that block, its matrix (column-major,
// §3.7) and the parameters its primitives carry (§3.16: flags, i_value,
// f_value; they live only in the grid).
struct CamCollVolume {
    int kind = 0;
    int32_t index = 0;
    std::array<float, 16> matrix{};
    int32_t flags = 0, i_value = 0;
    float f_value = 0;
};

// §3.16: a primitive per volume in every 16-unit cell its unit-cube corners'
// x, y span touches, volumes visited in the order given (Wrench: cuboids,
// spheres, cylinders, pills, each in index order); the non-empty cells in
// cell order.
std::vector<CamCollCell> cam_coll_cells(std::span<const CamCollVolume> volumes);

// The volumes a grid names, each once with the parameters of its first
// primitive, in Wrench's visiting order.
std::vector<CamCollVolume> cam_coll_volumes(const CamCollGrid& grid);

// §3.16's primitive type of a volume kind: 3 cuboid, 5 sphere, 6 cylinder, 7 pill.
constexpr std::array<int32_t, 4> kCamCollTypes = {3, 5, 6, 7};

}  // namespace gcfs::formats::gameplay
