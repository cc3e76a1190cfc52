// paths.csv read back (formats-gameplay.md §3.6): one line a point, in path
// order. A line added to a path adds a point, a line taken out removes one,
// a path number not yet used starts a new path, and a path whose lines are
// all gone is removed. What links paths by index follows: the area links
// (§3.14, their bounding spheres recomputed for a moved path) and the
// level's ship path (§3.5); a removed path something still links is refused.
// Grind paths keep their fields, their spheres recomputed (§3.6).
#pragma once

#include <array>
#include <string_view>
#include <vector>

#include "formats/gameplay/instance_edit.h"

namespace gcfs::formats::gameplay {

// Per kind (paths, grind paths), each path's old index after the edit (-1: new).
using PathOrigins = std::array<std::vector<int64_t>, 2>;
PathOrigins import_paths(const Gameplay& g, std::string_view text, BlockBytes& blocks);

}  // namespace gcfs::formats::gameplay
