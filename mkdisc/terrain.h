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
    // The surface the patches sample: height (y) in world units at world x, z.
    // The level's collision mesh is cut from the same surface.
    std::function<double(double x, double z)> height;
    double extent = 0;  // world units the patch grid spans along x and along z
};

Terrain make_terrain(const TerrainSpec& spec, Random& random);

}  // namespace gcfs::mkdisc
