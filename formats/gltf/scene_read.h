// A glTF 2.0 scene a modder saved (level.glb written back from Blender,
// three.js or any exporter), read with TinyGLTF (Debian's libtinygltf-dev)
// down to what a level save needs: every node of the scene with its name,
// its extras and its matrix in the file's world. Binary .glb or text .gltf
// with embedded buffers; the bytes are untrusted, so no outside file is
// ever opened and embedded images are not decoded.
#pragma once

#include <array>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/common/bytes.h"
#include "formats/common/error.h"

namespace gcfs::formats::gltf {

using WorldMatrix = std::array<double, 16>;  // column-major, as glTF's node.matrix

struct SavedNode {
    std::string name;
    nlohmann::json extras;  // null when the node has none
    WorldMatrix world{};    // its ancestors' transforms times its own (glTF 2.0 §3.5.3)
    int parent = -1;        // its parent's place in SavedScene::nodes, -1 for a root
    bool mesh = false, camera = false, light = false;
};

struct SavedScene {
    std::vector<SavedNode> nodes;  // the scene's nodes, parents before children
    nlohmann::json extras;         // the scene object's, null when none
    std::string generator;         // asset.generator, "" when not given
};

// The default scene (or the first; with no scene, every node no other node
// lists as a child). Errors: not glTF, a buffer or image naming a file
// outside, a node transform that is not finite, a node reached twice.
Result<SavedScene> read_saved_scene(ByteSpan bytes);

}  // namespace gcfs::formats::gltf
