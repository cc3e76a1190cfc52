// An edit of a level's tfrag/terrain.obj (any model file assimp reads,
// saved over that name): the level's tfrags compiled anew from the file's
// faces (formats/tfrag/tfrag_compile.h), each face's texture from its
// material as terrain.mtl names them (tfrag_000 …, the level's tfrag
// texture table), vertex colours from the file's colours, else the old
// terrain's at the same position, else the PS2's neutral 0x80 (a texture
// drawn as it is). The block is written over the tfrag region of core_data
// with zeros after it; a larger one grows the core (formats/core/core_growth.h).
//
// Occlusion (formats.md 8.1, formats-gameplay.md 3.17): the old masks were
// computed for the old patches, so they cannot speak for the new ones.
// Where the level maps its tfrags to visibility bits, every new patch maps
// to one bit (the lowest the old tfrag mappings used), set in every mask;
// the other old tfrag bits no mapping names any more are cleared. So no
// new patch is culled where the grid has a mask. And every octant a camera
// over the new ground can be in (in each column its triangles touch, from
// the lowest ground to 16 world units over the highest) that had no mask
// names a new one with every bit set, so
// nothing is culled there: the old masks cannot speak for that ground.
#pragma once

#include <string>

#include "edit/level_parts.h"
#include "formats/common/bytes.h"
#include "tree/disc_scan.h"

namespace gcfs::edit {

// The file's path in a level folder.
inline constexpr const char* kTerrainFile = "tfrag/terrain.obj";

// Returns the edit's status; throws EditRefused with the reason.
std::string apply_terrain(LevelParts& parts, const tree::LevelScan& level, formats::ByteSpan content);

}  // namespace gcfs::edit
