// The core regions a level's textures read their texels and bank palettes
// from (issue 43: a small read costs a small decode). The level's texture
// tables and the particle and fx banks lie far apart in the core (at full
// scale the tables' texels start near 3 MB, the banks near its end, 25 MB
// further), so one region from the first texel to the last would make every
// texture decode most of the core. Ranges closer than kJoinGap share a
// region instead: one window decode serves all of a cluster's textures, and
// a lone texture costs its own bytes plus the walk from a restart point.
// Whether a texture reads still depends only on where the stream is damaged
// (StreamRegion's rule), never on what was read first.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "tree/node/sources.h"

namespace gcfs::tree {

class TexelRegions {
public:
    // Joining two ranges decodes the gap between them; keeping them apart
    // costs a walk from a restart point (up to RestartPoints::kSpacing) for
    // the second. Half the spacing is where the first costs less on average.
    static constexpr uint64_t kJoinGap = RestartPoints::kSpacing / 2;

    // `ranges`: core_data byte ranges [from, to), each read whole by one
    // file (a texture's texels, a bank's textures and palettes together).
    TexelRegions(const std::shared_ptr<const WadStream>& core, const Image& image, cache::LruCache& cache, const CoreStream& stream,
                 std::vector<std::pair<uint64_t, uint64_t>> ranges);

    // The region holding all of [from, to), or null when no range given
    // to the constructor covered it.
    std::shared_ptr<const StreamRegion> covering(uint64_t from, uint64_t to) const;

private:
    std::vector<std::shared_ptr<const StreamRegion>> regions_;  // by offset, apart by kJoinGap or more
};

}  // namespace gcfs::tree
