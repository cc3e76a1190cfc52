// Closed meshes for the four volume kinds (formats-gameplay.md §3.7). The
// reference says only that each matrix maps the unit cube [-1, 1]^3 to world;
// how a sphere, cylinder or pill sits inside it is not stated. gcfs draws:
// cuboid = the cube; sphere = the unit sphere; cylinder = radius 1 about
// local z, z in [-1, 1]; pill = a cylinder for z in [-0.5, 0.5] capped by
// half-ellipsoids reaching z = ±1. Faces wind counter-clockwise seen from outside.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace gcfs::formats::gameplay {

constexpr std::array<const char*, 4> kVolumeKindNames = {"cuboid", "sphere", "cylinder", "pill"};

struct VolumeMesh {
    std::vector<std::array<float, 3>> positions;
    std::vector<std::array<uint32_t, 3>> faces;  // 0-based
};

// `kind` 0..3 as kVolumeKindNames; `matrix` column-major, column 3 = translation.
VolumeMesh volume_mesh(int kind, std::span<const float, 16> matrix);

}  // namespace gcfs::formats::gameplay
