// What an instance edit asks of the level's occlusion data. The game culls
// a tie or moby by one bit of the visibility mask of the octant the camera
// is in (formats.md 8.1), the bit its occlusion mapping names
// (formats-gameplay.md 3.17); the masks were computed for the old layout.
// gcfs does not compute visibility again: a moved or added instance's bit
// is set in every mask, so it is never culled (nor is anything that shares
// its bit: the cost is drawing those where they were hidden), and a bit no
// mapping names any more is cleared.
#pragma once

#include <cstdint>
#include <optional>
#include <set>

#include "formats/gameplay/gameplay.h"

namespace gcfs::formats::gameplay {

constexpr int32_t kVisibilityBits = 128 * 8;  // formats.md 8.1: 128-byte masks

struct Visibility {
    // In: the level's occlusion copy (formats.md 3.1 0x28), used when
    // gameplay.bin has no mappings block. Out: the mappings after the edit.
    std::optional<OcclusionMappings> mappings;
    bool mappings_changed = false;
    std::set<int32_t> shown_everywhere;  // bits to set in every mask
    std::set<int32_t> freed;             // bits to clear in every mask
};

}  // namespace gcfs::formats::gameplay
