// The level-core blocks past the class and texture tables
// (formats-globals.md §13): particle definitions, the sound remap and
// Ratchet's sequence table, read from core_index when a level is scanned
// (IDX only: nothing of the core is decoded for them). Each block absent
// (header offset 0) is noted as such; one that fails its checks is a failed
// check of the level and its files are not shown, the rest intact.
#pragma once

#include "tree/disc_scan.h"

namespace gcfs::tree {

// Needs level.core, level.boundaries and level.particle_textures.
void scan_core_blocks(LevelScan& level);

}  // namespace gcfs::tree
