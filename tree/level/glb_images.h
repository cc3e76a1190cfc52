// The PNGs a .glb embeds are files the tree already serves (textures/ and
// the like): a scene is sized with their sizes at stat, and written with
// their bytes on read, held to those sizes (level.glb, the moby .glb files).
#pragma once

#include <memory>
#include <vector>

#include "formats/gltf/gltf.h"
#include "tree/node/node.h"

namespace gcfs::tree {

// write_glb's image bytes for `scene`, whose image i is `files[i]` read whole.
formats::gltf::ImageBytes glb_images(const formats::gltf::Scene& scene, const std::vector<std::shared_ptr<const Source>>& files);

}  // namespace gcfs::tree
