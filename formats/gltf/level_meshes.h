// The level's decoded parts as glTF meshes and transforms, in the game's own
// axes and units (level.glb converts once, at its root node). Pure functions:
// the tree chooses materials and images, these turn geometry into vertices.
#pragma once

#include <array>
#include <functional>
#include <span>
#include <vector>

#include "formats/collision/collision_export.h"
#include "formats/export/class_mesh.h"
#include "formats/gameplay/gameplay.h"
#include "formats/gltf/gltf.h"
#include "formats/sky/sky_mesh.h"
#include "formats/tfrag/tfrag_mesh.h"

namespace gcfs::formats::gltf {

// The game's axes to glTF's, applied once at the scene's root: the rotation
// every OBJ applies to its vertices (formats/export/axes.h), as a matrix. The
// game's unit is not named anywhere (formats-gameplay.md §0: "Wrench never
// names the unit"); gcfs takes one unit as one metre, so no scale is applied.
Matrix game_to_gltf();

// The material of a triangle from its part-specific key (tfrag texture
// index, class texture slot, sky texture def, collision surface type); -1: none.
using MaterialOf = std::function<int(int key)>;

// Every good tfrag patch at one LOD as one mesh: a glTF vertex per distinct
// (position, texture coordinate) pair of a patch, its colour the position's
// (formats.md §7.3, r/255 as terrain.obj writes it), a primitive per texture.
Mesh terrain_mesh(const std::vector<TfragMesh>& patches, const MaterialOf& material);

// A tie, shrub or moby class (class space, formats-tie-sky.md A.5 and
// companions): positions and uvs as the class OBJ writes them, a primitive per
// texture slot. nullopt-free: an empty class mesh gives a mesh with no vertices.
Mesh class_mesh(const ClassMesh& mesh, std::string name, const MaterialOf& material);

// One sky shell (formats-tie-sky.md B.4): textured shells carry uvs and a
// white COLOR_0 with the vertex alpha; gradient shells the header colour with it.
Mesh sky_shell_mesh(const SkyShellMesh& shell, const SkyHeader& header, std::string name, const MaterialOf& material);

// collision.obj's main mesh (1/64 units, formats.md §8.3), quads split in two,
// a primitive per surface type; and the hero groups as one more mesh.
Mesh collision_main_mesh(const CollisionWorldMesh& mesh, const MaterialOf& material);
Mesh collision_hero_mesh(const std::vector<HeroGroup>& groups, int material);

// A volume (formats-gameplay.md §3.7) in world space, as volume_mesh draws it.
Mesh volume_world_mesh(int kind, std::span<const float, 16> matrix, std::string name, int material);
// A path's vertices (§3.6) as one LINE_STRIP; w is not a coordinate.
Mesh path_mesh(const std::vector<gameplay::Vec4>& vertices, std::string name, int material);

// §0: T(position) · S(scale) · Rz · Ry · Rx with column vectors, column-major.
Matrix euler_matrix(std::array<float, 3> position, std::array<float, 3> rotation, float scale);
// A stored Mat4 (§0) as a node matrix: col3.w is written 0.01 and read as 1
// (§3.2), and the other w's carry no meaning, so the bottom row becomes 0 0 0 1.
Matrix instance_matrix(std::span<const float, 16> stored);
// A node whose -z axis (a glTF light's direction, §KHR_lights_punctual)
// points along `direction`; nullopt for a zero or non-finite direction.
std::optional<Matrix> pointing_along(std::array<float, 3> direction);

}  // namespace gcfs::formats::gltf
