// Tfrag patches the reader and writer tests share.
#pragma once

#include <vector>

#include "formats/tfrag/tfrag.h"

namespace samples {

// formats.md §7.10: a 4-vertex quad, 1 texture, base (1000, 2000, 3000), one
// strip of 4 in each LOD, indices 0 1 2 3.
gcfs::formats::TfragPatch example_quad();

// The disc builder's terrain: every LOD tier, reversed vertex infos, parent
// arrays on some patches, both strip kinds.
std::vector<gcfs::formats::TfragPatch> terrain(int patches, uint64_t seed = 11);

// A tfrags block of that terrain with the exotic VIF codes in every LOD-1 list.
gcfs::formats::Bytes terrain_block(int patches, uint64_t seed = 11);

}  // namespace samples
