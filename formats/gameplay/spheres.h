// The bounding spheres Wrench's writer recomputes rather than stores
// (formats-gameplay.md §3.6, §3.14): a writer that moves what they bound
// writes them again by the same rule.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "formats/gameplay/gameplay.h"

namespace gcfs::formats::gameplay {

// §3.14: an area's sphere bounds its member paths' points and its member
// cuboids', spheres' and cylinders' unit-cube corners (the negative cuboids
// are left out), with §3.6's algorithm. `volumes`: cuboids, spheres,
// cylinders. Links out of range are skipped (the reader rejects them).
Vec4 area_sphere(std::span<const std::vector<Vec4>> paths, const std::array<const RecordTable*, 3>& volumes,
                 const std::array<std::vector<int32_t>, kAreaParts>& links);

// What area_sphere() bounds, as `g` holds it: each path's points, and the
// cuboid, sphere and cylinder tables (null where a block did not decode).
std::vector<std::vector<Vec4>> path_points(const Gameplay& g);
std::array<const RecordTable*, 3> area_volumes(const Gameplay& g);

// The inverse of an affine column-major matrix, its column 3's w taken as 1
// (§0; volumes, sounds and env transitions store both, §3.7, 3.9, 3.15).
std::array<float, 16> affine_inverse(std::span<const float, 16> m);

// §3.15: an env transition's sphere bounds the unit-cube corners of its
// volume, the inverse of the inverse matrix it stores, by §3.6's algorithm.
Vec4 transition_sphere(std::span<const float, 16> inverse_matrix);

// The four floats of a sphere, for RecordBuilder::floats.
inline std::array<float, 4> sphere_floats(const Vec4& s) { return {s.x, s.y, s.z, s.w}; }

}  // namespace gcfs::formats::gameplay
