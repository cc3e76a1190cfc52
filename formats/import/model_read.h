// A model file of any format assimp reads (OBJ, glTF/GLB, FBX, COLLADA,
// ...) as one mesh, for the edits that build the disc's geometry from a
// modeller's file. The format is found from the bytes, not a name; the
// scene's transforms are applied and identical corners joined; faces keep
// their corners in the file's order and polygons are not triangulated (the
// collision block keeps quads); each face names its material and its
// object (the scene node holding it, in the file's node order: an OBJ's
// `o` lines). Positions are in the file's own frame: y up, as gcfs's OBJs
// and glTFs write them (formats/export/axes.h). An OBJ whose `v` lines carry
// colours on some vertices only gives the others white (assimp 5.2 would
// put the colours on the wrong vertices; model_read.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/common/error.h"

namespace gcfs::formats {

struct ModelMesh {
    struct Face {
        std::vector<uint32_t> corners;  // into positions
        uint32_t material = 0;          // into materials
        uint32_t object = 0;            // into objects
    };
    std::vector<std::array<double, 3>> positions;
    // Parallel to positions, each empty when no mesh of the file has it:
    // the first texture coordinate set (u, v as the file stores them, v up
    // from the image's bottom) and the first colour set (r, g, b in 0..1).
    // A mesh without them in a file where another has them gives (0, 0)
    // and white, and says so in the flags below.
    std::vector<std::array<double, 2>> uvs;
    std::vector<std::array<double, 3>> colours;
    bool some_without_uvs = false, some_without_colours = false;
    std::vector<Face> faces;
    std::vector<std::string> materials;  // by the file's names ("" where it gives none)
    // Parallel to materials: the diffuse (glTF: base colour) image, as the
    // file names it ("" for none) and, when the file embeds it (a .glb, a
    // glTF data URI), its image file's bytes as stored (PNG, JPEG, ...). An
    // image outside the file is not read: the model is read from its bytes
    // alone.
    struct Image {
        std::string path;
        Bytes embedded;
    };
    std::vector<Image> material_images;
    std::vector<std::string> objects;    // nodes with meshes, in the file's order, by their names
};

// Fails with assimp's own reason when it cannot read the bytes, or when the
// file holds no face.
Result<ModelMesh> read_model(ByteSpan bytes);

}  // namespace gcfs::formats
