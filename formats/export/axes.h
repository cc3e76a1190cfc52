// The one conversion every OBJ gcfs writes makes. The game's axes are z-up
// (the gameplay grids span x and y, formats-gameplay.md §0; docs/formats.md
// "Up axis"); OBJ importers (Blender's, assimp's) take y as up. So an OBJ
// vertex is the game's (x, y, z) written as (x, z, -y): a rotation, so faces
// keep their winding, and the same one level.glb applies at its root node.
// CSV and JSON files keep the game's own axes.
#pragma once

#include <array>
#include <string_view>

namespace gcfs::formats {

template <class T>
std::array<T, 3> obj_axes(const std::array<T, 3>& game) {
    return {game[0], game[2], T(0) - game[1]};  // 0 - y: no "-0" where y is 0
}

// The first line of every OBJ gcfs writes.
inline constexpr std::string_view kObjAxesLine = "# y up: the game's (x, y, z) is written (x, z, -y), as level.glb places it; the CSVs keep the game's axes\n";

}  // namespace gcfs::formats
