// env_transitions.csv read back (formats-gameplay.md §3.15): rows changed,
// added (an empty or unknown index, empty cells 0 but the inverse matrix's
// col3.w, 1), copied (an index twice) and removed. Nothing else names a
// transition. The bounding sphere before each record is the writer's to
// compute, as Wrench's writer does, from the volume the inverse matrix
// inverts: computed for a new or changed matrix, a changed sphere cell refused.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "formats/gameplay/instance_edit.h"

namespace gcfs::formats::gameplay {

// Returns each row's old index (-1: new).
std::vector<int64_t> import_transitions(const Gameplay& g, std::string_view text, BlockBytes& blocks);

}  // namespace gcfs::formats::gameplay
