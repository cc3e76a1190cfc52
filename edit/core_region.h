// A block written over one region of a level's core_data (formats.md 6.2):
// in place with zeros after it, or, when it is larger, into room the core
// makes for it (formats/core/core_growth.h: whole 0x100s inserted at the
// region's end, and everything that places what follows moved).
#pragma once

#include <cstdint>
#include <string_view>

#include "edit/level_parts.h"
#include "formats/common/bytes.h"

namespace gcfs::edit {

// Writes `block` at `offset` of `core` over a region of `size` bytes;
// replaces the level's core_index when the core grows. Returns the growth
// (0 when it fit). Throws EditRefused naming `what` and both sizes when the
// core cannot grow.
uint64_t write_core_region(LevelParts& parts, formats::Bytes& core, uint64_t offset, uint64_t size, formats::ByteSpan block, std::string_view what);

}  // namespace gcfs::edit
