// areas.csv read back (formats-gameplay.md 3.14): areas changed, added (an
// empty or unknown index), copied (an index twice) and removed. An area is
// its five link cells, the paths, cuboids, spheres, cylinders and negative
// cuboids it names by index (blank-separated); its counts and offsets are the
// writer's, from the links, and so is its bounding sphere, computed again by
// §3.14's rule when its links change. `last_update_time` is kept as written.
// Nothing in the references names an area by index.
#pragma once

#include <string_view>

#include "formats/gameplay/instance_edit.h"

namespace gcfs::formats::gameplay {

void import_areas(const Gameplay& g, std::string_view text, BlockBytes& blocks);

}  // namespace gcfs::formats::gameplay
