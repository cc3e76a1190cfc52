// An edit of a level's sky/sky.obj (any model file assimp reads, saved over
// that name): the sky's shells compiled anew (formats/sky/sky_compile.h),
// one per object of the file in its order (at most 8, formats.md 8.2). An
// object whose faces name sky textures (sky_000 …, as sky.mtl names the
// level's texture defs) is a textured shell with the file's UVs; one whose
// faces name none (sky.obj's sky_gradient) is a gradient shell, its alpha
// per vertex from the file's colour over the header colour (sky.obj shows
// the header colour × alpha, B.4), opaque where the file has no colours.
// An object mixing the two is refused, as Wrench's packer refuses it. The
// header's colour, clear flag, textures, fx list and sprite room are kept;
// the block is written over the sky region, or grows the core.
#pragma once

#include <optional>
#include <string>

#include "edit/level_parts.h"
#include "formats/common/bytes.h"
#include "tree/disc_scan.h"

namespace gcfs::edit {

// The file's path in a level folder.
inline constexpr const char* kSkyFile = "sky/sky.obj";

// Returns the edit's status; throws EditRefused with the reason.
std::string apply_sky(LevelParts& parts, const tree::LevelScan& level, formats::ByteSpan content);

// An edit of sky/sky_NNN.png: a picture of the texture def's size written
// over its 8-bit texels and, where no other def shares it, its palette, in
// place (formats-tie-sky.md B.2: texels not swizzled on GC, the palette in
// the PS2's slot order with alpha halved), as textures/*.png are
// (formats/core/texture_encode.h). Returns the status; throws EditRefused.
std::optional<size_t> sky_texture_def(const std::string& inside);  // "sky/sky_003.png" -> 3
std::string apply_sky_texture(LevelParts& parts, const tree::LevelScan& level, size_t def, formats::ByteSpan content);

}  // namespace gcfs::edit
