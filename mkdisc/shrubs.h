// Synthetic shrub classes (formats-shrub.md §4): a crossed-card plant and a
// two-texture bush over several packets, both with billboards.
#pragma once

#include <vector>

#include "mkdisc/random.h"
#include "mkdisc/ties.h"

namespace gcfs::mkdisc {

struct ShrubBlob {
    ClassBlob blob;
    int billboard_edge = 0;  // the billboard image's width and height (§1.11 (b)); 0 for none
};

constexpr int kShrubTextureCount = 3;
std::vector<ShrubBlob> make_shrubs(Random& random, int billboard_edge);

}  // namespace gcfs::mkdisc
