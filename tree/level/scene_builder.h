// Assembles a level's glTF scene from its decoders: what goes where, named
// how, with which material. A part that cannot be decoded is left out and
// named in the scene's extras.notes; an instance whose class cannot be drawn
// is an empty node whose extras.error says why. Image bytes are not read
// here: the scene lists each image's size and the Source that makes it.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "formats/gltf/gltf.h"
#include "tree/level/class_models.h"
#include "tree/level/core_geometry.h"
#include "tree/node/sources.h"
#include "tree/level/terrain.h"

namespace gcfs::tree {

struct SceneSources {
    std::string level;  // "LEVEL03"
    std::shared_ptr<const LevelTerrain> terrain;
    std::shared_ptr<const LevelGeometry> geometry;
    std::shared_ptr<const WadStream> gameplay;
    std::shared_ptr<const LevelClassModels> ties, shrubs, mobies;
    // textures/ by file name ("tie_003.png"), as the textures part listed them.
    std::map<std::string, std::shared_ptr<const Source>> textures;
    // The level's failed header checks: a part they leave without a decoder
    // is absent from the scene, and these say why.
    std::vector<std::string> failed_checks;
};

// What the scene holds, for verify and the tests.
struct SceneCounts {
    uint64_t ties = 0, shrubs = 0, mobies = 0;  // instance nodes, with a mesh or empty
    uint64_t empty = 0;                        // instance nodes without a mesh (extras.error says why)
    uint64_t paths = 0, volumes = 0, cameras = 0, lights = 0, sounds = 0;
    uint64_t meshes = 0, images = 0;
    uint64_t triangles = 0;  // drawn: each instance counts its class's triangles
};

struct BuiltScene {
    formats::gltf::Scene scene;
    std::vector<std::shared_ptr<const Source>> images;  // by scene image
    SceneCounts counts;
};

// level.glb holds everything but the collision, which collision.glb holds
// alone in the same frame: viewers that draw every node (Blender, three.js)
// would show it over the terrain.
enum class SceneKind { level, collision };
BuiltScene build_level_scene(const SceneSources& sources, SceneKind kind);

}  // namespace gcfs::tree
