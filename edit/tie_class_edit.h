// An edit of a level's ties/tie_<class>.obj (any model file assimp reads,
// saved over that name): the tie class compiled anew from the file's faces
// (formats/tie/tie_compile.h), in class space (the instances' matrices
// untouched), y up as the shown file is. Each face's texture is its
// material, tie_NNN as ties.mtl names the level's tie table, or the image
// the file packs for it (edit/texture_import.h: the same pixels reuse a row,
// a new picture is added to the table); the rows used become the class's
// texture slots in its class-table entry, in the order the faces first name
// them, at most 15 (formats-moby.md 1.1: the packer's limit for a class's
// slots, which 0xFF ends). LOD 1 and 2 are made at the class's own ratios;
// its near, mid and far distances are kept, and of A.2's unknown header
// fields the scalars (instance_index, mode_bits, instance_count, t_class,
// mip_dist, glow_rgba); those A.2 names as offsets or sizes of tables inside
// the class (cache_sizes … ambient_size, glow_remap_ofs) are 0, as A.9's
// class has them, since the new class has no such tables. The class is
// written over its extent (A.1) with zeros after it, or grows the core.
#pragma once

#include <optional>
#include <string>

#include "edit/level_parts.h"
#include "formats/common/bytes.h"
#include "tree/disc_scan.h"

namespace gcfs::edit {

// "ties/tie_12.obj" -> 12; nullopt for any other name.
std::optional<int32_t> tie_class_file(const std::string& inside);

// Returns the edit's status; throws EditRefused with the reason.
std::string apply_tie_class(LevelParts& parts, const tree::LevelScan& level, int32_t o_class, formats::ByteSpan content);

}  // namespace gcfs::edit
