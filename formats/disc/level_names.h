// The GC level names by level id (formats.md §2.4: data/underlay/gc_levels.asset
// lists 27 ids, 0-20, 22-26 and 30; there is no id 21).
#pragma once

#include <cstdint>

namespace gcfs::formats {

// The name of level `id`, or "" when the references give none.
const char* gc_level_name(int32_t id);

}  // namespace gcfs::formats
