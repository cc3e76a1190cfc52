// An edit of a level's collision.obj (any model file assimp reads, saved
// over that name): the main collision mesh compiled anew from the file's
// faces (formats/collision/collision_compile.h), each face's surface type
// from its material's name as collision.mtl names them (col_00 … col_ff),
// written over the collision region of core_data with zeros after it
// (formats.md §6.2: Wrench pads the collision so too, to the largest
// chunk's). A block larger than the region grows it by whole 0x100s and
// moves what follows (formats/core/core_growth.h), refused with both sizes
// where the core cannot grow. The level's hero groups are kept as they
// are; faces under the `hero` material, which collision.obj shows them
// with, are not read.
#pragma once

#include <string>

#include "edit/level_parts.h"
#include "formats/common/bytes.h"
#include "tree/disc_scan.h"

namespace gcfs::edit {

// The file's name in a level folder.
inline constexpr const char* kCollisionFile = "collision.obj";

// Returns the edit's status; throws EditRefused with the reason.
std::string apply_collision(LevelParts& parts, const tree::LevelScan& level, formats::ByteSpan content);

}  // namespace gcfs::edit
