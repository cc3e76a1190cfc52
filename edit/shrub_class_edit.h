// An edit of a level's shrubs/shrub_<class>.obj (any model file assimp
// reads, saved over that name): the shrub class compiled anew from the
// file's faces (formats/shrub/shrub_compile.h), in class space, y up as the
// shown file is; each face's texture as for ties (edit/class_import.h:
// shrub_NNN as shrubs.mtl names the level's shrub table, or the image the
// file packs for it). The class's mip distance, billboard record (§1.11)
// and normal table (§1.9) are kept; the class is written over its extent
// with zeros after it, or grows the core.
#pragma once

#include <optional>
#include <string>

#include "edit/level_parts.h"
#include "formats/common/bytes.h"
#include "tree/disc_scan.h"

namespace gcfs::edit {

// "shrubs/shrub_700.obj" -> 700; nullopt for any other name.
std::optional<int32_t> shrub_class_file(const std::string& inside);

// Returns the edit's status; throws EditRefused with the reason.
std::string apply_shrub_class(LevelParts& parts, const tree::LevelScan& level, int32_t o_class, formats::ByteSpan content);

}  // namespace gcfs::edit
