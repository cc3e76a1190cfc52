// assimp 5.2's OBJ reader numbers vertex colours by the `v` lines that carry
// them, not by vertex: where only some `v` lines have r g b (gcfs's own
// sky.obj gives them to gradient shells only), colours land on the wrong
// vertices. So in a text file with both kinds of `v` line, the lines
// without colours get white (1 1 1) before assimp reads it.
#pragma once

#include <string>

#include "formats/common/bytes.h"

namespace gcfs::formats {

// The file with " 1 1 1" after every `v` line of three numbers, when some
// other `v` line has six or seven; empty when nothing changes (a binary
// file, by a NUL in its first 4 KiB, never does).
std::string obj_colours_on_every_vertex(ByteSpan bytes);

}  // namespace gcfs::formats
