// Synthetic tfrag terrain: a height field cut into grid patches whose LOD
// tiers, strips and vertex infos exercise every case formats.md §7 names.
#pragma once

#include <vector>

#include "formats/tfrag.h"
#include "mkdisc/random.h"

namespace gcfs::mkdisc {

struct TerrainSpec {
    int patches = 16;
    int texture_count = 4;  // size of the level's tfrag texture table
};

std::vector<formats::TfragPatch> make_terrain(const TerrainSpec& spec, Random& random);

}  // namespace gcfs::mkdisc
