// volumes.csv read back (formats-gameplay.md 3.7): cuboids, spheres,
// cylinders and pills changed, added (an empty or unknown index; col3_w
// 0.01, the rest 0 until given), copied (an index twice) and removed, each
// kind numbered in line order. The inverse matrix is the writer's, computed
// from a new or changed matrix; a changed inverse cell is refused. What names
// a volume by index follows: the areas' links (their spheres computed again
// over a moved volume, §3.14), the level settings' ship camera cuboids
// (§3.5), and the camera-collision grid, built again by §3.16's rule when one
// of its volumes moved, was renumbered or went. Removing a volume an area or
// the ship camera names is refused. The grid's parameters are not in the
// table: a copy of a camera-collision volume is not one.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "formats/gameplay/instance_edit.h"

namespace gcfs::formats::gameplay {

// Per kind (kVolumeKindNames' order), each row's old index (-1: new).
using VolumeOrigins = std::array<std::vector<int64_t>, 4>;
VolumeOrigins import_volumes(const Gameplay& g, std::string_view text, BlockBytes& blocks);

}  // namespace gcfs::formats::gameplay
