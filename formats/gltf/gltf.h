// A glTF 2.0 scene and its binary container (.glb), written with
// nlohmann-json for the JSON chunk and our own chunking (glTF 2.0 §4.4).
// The JSON depends on counts, bounds and image sizes alone, so the file's
// size is known from a scene whose image bytes have not been made yet.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/common/bytes.h"
#include "formats/common/error.h"

namespace gcfs::formats::gltf {

using Json = nlohmann::ordered_json;
using Matrix = std::array<float, 16>;  // column-major, as glTF stores node.matrix

enum class Mode : int { lines = 1, line_strip = 3, triangles = 4 };

struct Primitive {
    int material = -1;              // -1: glTF's default material
    Mode mode = Mode::triangles;
    std::vector<uint32_t> indices;  // empty: draw the vertices in order (paths)
};

struct Mesh {
    std::string name;
    std::vector<std::array<float, 3>> positions;
    std::vector<std::array<float, 2>> uvs;        // empty, or one per position (TEXCOORD_0)
    std::vector<std::array<uint8_t, 4>> colours;  // empty, or one per position (COLOR_0, normalised)
    // A skinned mesh: both empty, or one per position (JOINTS_0 into its
    // node's skin, WEIGHTS_0 summing to 1; §3.7.3.3).
    std::vector<std::array<uint8_t, 4>> joints;
    std::vector<std::array<float, 4>> weights;
    std::vector<Primitive> primitives;
};

// A skin (§3.7.3): joint nodes and, per joint, its inverse bind matrix.
struct Skin {
    std::string name;
    std::vector<int> joints;
    std::vector<Matrix> inverse_bind;
    int skeleton = -1;  // the joints' common root node
};

struct Material {
    enum class Alpha { opaque, mask, blend };
    std::string name;
    int image = -1;                              // -1: untextured
    std::array<float, 4> colour = {1, 1, 1, 1};  // baseColorFactor
    Alpha alpha = Alpha::opaque;
    bool double_sided = false;
    bool unlit = false;                          // KHR_materials_unlit
};

// A PNG embedded through a buffer view; its bytes are asked for when the
// file is written, so the scene holds only its size.
struct Image {
    std::string name;
    uint64_t size = 0;  // PNG bytes in the BIN chunk
    // Or, when set, a relative URI the image is read from instead (§3.8.4.2:
    // a PNG beside the file; no bytes in the BIN chunk, size unused).
    std::string uri;
};

struct Camera {
    std::string name;
    float yfov = 1.0f, znear = 0.1f;  // radians; infinite projection (no zfar)
};

// KHR_lights_punctual: a point light or a directional light.
struct Light {
    std::string name;
    bool directional = false;
    std::array<float, 3> colour = {1, 1, 1};  // each 0..1
    float intensity = 1;
    std::optional<float> range;               // point lights
};

struct Node {
    std::string name;
    int mesh = -1, camera = -1, light = -1, skin = -1;
    std::optional<Matrix> matrix;
    std::vector<int> children;
    Json extras;  // null: none
};

struct Scene {
    std::string name;
    std::vector<Mesh> meshes;
    std::vector<Material> materials;
    std::vector<Image> images;
    std::vector<Camera> cameras;
    std::vector<Light> lights;
    std::vector<Skin> skins;
    std::vector<Node> nodes;
    std::vector<int> roots;
    Json extras;  // on the scene object
};

// Where each accessor's data sits in the BIN chunk, and the JSON that says so.
std::string scene_json(const Scene& scene);
uint64_t glb_size(const Scene& scene);

// The .glb file; `image_bytes(i)` gives image i's PNG, which must be exactly
// images[i].size bytes. Checks every index against its mesh, every count
// against its neighbours, and that the result has the size glb_size() said.
using ImageBytes = std::function<Result<Bytes>(size_t image)>;
Result<Bytes> write_glb(const Scene& scene, const ImageBytes& image_bytes);

// Why write_glb would refuse this mesh ("" when it would not): no vertices,
// per-vertex arrays of other lengths, a position, uv or weight not finite, an
// index past the vertices, a primitive that draws no whole triangle or line.
std::string mesh_problem(const Mesh& mesh);

// A node's matrix is one glTF accepts (§5.25): finite, the bottom row 0 0 0 1,
// and its 3x3 part a rotation times a non-zero scale per axis (no shear).
bool trs_decomposable(const Matrix& m);

}  // namespace gcfs::formats::gltf
