// Synthetic tfrag terrain: a height field cut into grid patches whose LOD
// tiers, strips and vertex infos exercise every case formats.md §7 names.
#pragma once

#include <functional>
#include <vector>

#include "formats/tfrag/tfrag.h"
#include "mkdisc/random.h"

namespace gcfs::mkdisc {

struct TerrainSpec {
    int patches = 16;
    int texture_count = 4;  // size of the level's tfrag texture table
};

struct Terrain {
    std::vector<formats::TfragPatch> patches;
    // The surface the patches sample: height (z, up: formats-gameplay.md §0's
    // grids span x and y) in world units at world x, y. The level's collision
    // mesh is cut from the same surface and the gameplay instances stand on it.
    std::function<double(double x, double y)> height;
    double extent = 0;  // world units the patch grid spans along x and along y
};

Terrain make_terrain(const TerrainSpec& spec, Random& random);

}  // namespace gcfs::mkdisc
