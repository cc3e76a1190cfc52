#include "formats/import/model_read.h"

#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <memory>
#include <string>

#include "formats/common/late_library.h"
#include "formats/import/obj_colours.h"

namespace gcfs::formats {
namespace {

// assimp's C interface, opened when a user's model is first read (Debian 12's libassimp5): only edits need it.
struct Libassimp {
    LateLibrary library{"libassimp.so.5"};
    GCFS_LATE_FUNCTION(import_from_memory, aiImportFileFromMemoryWithProperties);
    GCFS_LATE_FUNCTION(release_import, aiReleaseImport);
    GCFS_LATE_FUNCTION(error_string, aiGetErrorString);
    GCFS_LATE_FUNCTION(create_properties, aiCreatePropertyStore);
    GCFS_LATE_FUNCTION(release_properties, aiReleasePropertyStore);
    GCFS_LATE_FUNCTION(set_integer, aiSetImportPropertyInteger);
    GCFS_LATE_FUNCTION(material_string, aiGetMaterialString);
    GCFS_LATE_FUNCTION(material_texture, aiGetMaterialTexture);
};

struct ReleaseScene {
    void operator()(const aiScene* scene) const { late_table<Libassimp>().release_import(scene); }
};
struct ReleaseProperties {
    void operator()(aiPropertyStore* store) const { late_table<Libassimp>().release_properties(store); }
};

// The first UV and colour sets, kept parallel to the positions; a set one
// mesh has and an earlier one lacked is filled in for the earlier ones.
void add_attributes(const aiMesh& mesh, size_t first, ModelMesh& out) {
    const bool uvs = mesh.mTextureCoords[0] != nullptr, colours = mesh.mColors[0] != nullptr;
    if (uvs && out.uvs.empty() && first > 0) {
        out.uvs.assign(first, {0, 0});
        out.some_without_uvs = true;
    }
    if (colours && out.colours.empty() && first > 0) {
        out.colours.assign(first, {1, 1, 1});
        out.some_without_colours = true;
    }
    if (!out.uvs.empty() || uvs) {
        out.some_without_uvs |= !uvs;
        for (unsigned v = 0; v < mesh.mNumVertices; ++v)
            out.uvs.push_back(uvs ? std::array<double, 2>{mesh.mTextureCoords[0][v].x, mesh.mTextureCoords[0][v].y} : std::array<double, 2>{0, 0});
    }
    if (!out.colours.empty() || colours) {
        out.some_without_colours |= !colours;
        for (unsigned v = 0; v < mesh.mNumVertices; ++v)
            out.colours.push_back(colours ? std::array<double, 3>{mesh.mColors[0][v].r, mesh.mColors[0][v].g, mesh.mColors[0][v].b}
                                          : std::array<double, 3>{1, 1, 1});
    }
}

// A node's transformation: assimp's row-major 4x4 (a1..a4 the first row), applied to column vectors.
using Matrix = std::array<std::array<double, 4>, 4>;
constexpr Matrix kIdentity{{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}};
constexpr unsigned kMaxNodeDepth = 256;  // a file's node tree deeper than this is refused, not recursed into

Matrix product(const Matrix& a, const aiMatrix4x4& m) {
    const Matrix b{{{m.a1, m.a2, m.a3, m.a4}, {m.b1, m.b2, m.b3, m.b4}, {m.c1, m.c2, m.c3, m.c4}, {m.d1, m.d2, m.d3, m.d4}}};
    Matrix out{};
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            for (int k = 0; k < 4; ++k) out[r][c] += a[r][k] * b[k][c];
    return out;
}

// One mesh placed by `world`: its vertices transformed, its faces named for `object`.
void add_mesh(const aiMesh& mesh, unsigned index, const Matrix& world, uint32_t object, ModelMesh& out) {
    if (mesh.mMaterialIndex >= out.materials.size()) fail(Errc::bad_value, 0, fmt::format("mesh {} names material {} of {}", index, mesh.mMaterialIndex, out.materials.size()));
    const auto first = static_cast<uint32_t>(out.positions.size());
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
        const double p[4] = {mesh.mVertices[v].x, mesh.mVertices[v].y, mesh.mVertices[v].z, 1};
        std::array<double, 3> q{};
        for (int r = 0; r < 3; ++r) q[r] = world[r][0] * p[0] + world[r][1] * p[1] + world[r][2] * p[2] + world[r][3];
        out.positions.push_back(q);
    }
    add_attributes(mesh, first, out);
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        const aiFace& face = mesh.mFaces[f];
        if (face.mNumIndices < 3) continue;  // a point or line a reader left
        ModelMesh::Face kept;
        kept.material = mesh.mMaterialIndex;
        kept.object = object;
        for (unsigned k = 0; k < face.mNumIndices; ++k) {
            if (face.mIndices[k] >= mesh.mNumVertices) fail(Errc::bad_value, 0, fmt::format("mesh {} face {} names vertex {} of {}", index, f, face.mIndices[k], mesh.mNumVertices));
            kept.corners.push_back(first + face.mIndices[k]);
        }
        out.faces.push_back(std::move(kept));
    }
}

// A material's diffuse image: its path, and its bytes when the scene embeds
// it as a file ("*N" names scene texture N; assimp also keeps an embedded
// image's own file name). An embedded image stored as raw texels (mHeight
// > 0) is not a file, and keeps only its path.
ModelMesh::Image material_image(const aiScene& scene, const aiMaterial& material) {
    const Libassimp& api = late_table<Libassimp>();
    ModelMesh::Image image;
    aiString path;
    if (api.material_texture(&material, aiTextureType_DIFFUSE, 0, &path, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr) != aiReturn_SUCCESS)
        return image;
    image.path = path.C_Str();
    const aiTexture* texture = nullptr;
    if (image.path.size() > 1 && image.path[0] == '*') {
        unsigned n = 0;
        const auto [end, ec] = std::from_chars(image.path.data() + 1, image.path.data() + image.path.size(), n);
        if (ec == std::errc() && end == image.path.data() + image.path.size() && n < scene.mNumTextures) texture = scene.mTextures[n];
    } else {
        for (unsigned t = 0; t < scene.mNumTextures && !texture; ++t)
            if (scene.mTextures[t] && image.path == scene.mTextures[t]->mFilename.C_Str()) texture = scene.mTextures[t];
    }
    if (texture && texture->mHeight == 0 && texture->pcData) {
        const auto* bytes = reinterpret_cast<const uint8_t*>(texture->pcData);
        image.embedded.assign(bytes, bytes + texture->mWidth);  // mWidth counts the file's bytes when mHeight is 0 (assimp's aiTexture)
    }
    return image;
}

// The node tree depth first, in the file's order: a node with meshes is an object.
void add_node(const aiScene& scene, const aiNode& node, const Matrix& parent, unsigned depth, ModelMesh& out) {
    if (depth > kMaxNodeDepth) fail(Errc::too_large, 0, fmt::format("the file's nodes nest deeper than {}", kMaxNodeDepth));
    const Matrix world = product(parent, node.mTransformation);
    if (node.mNumMeshes > 0) {
        const auto object = static_cast<uint32_t>(out.objects.size());
        out.objects.emplace_back(node.mName.C_Str());
        for (unsigned i = 0; i < node.mNumMeshes; ++i) {
            if (node.mMeshes[i] >= scene.mNumMeshes) fail(Errc::bad_value, 0, fmt::format("node {} names mesh {} of {}", node.mName.C_Str(), node.mMeshes[i], scene.mNumMeshes));
            add_mesh(*scene.mMeshes[node.mMeshes[i]], node.mMeshes[i], world, object, out);
        }
    }
    for (unsigned c = 0; c < node.mNumChildren; ++c) add_node(scene, *node.mChildren[c], world, depth + 1, out);
}

}  // namespace

Result<ModelMesh> read_model(ByteSpan bytes) {
    const Libassimp& api = late_table<Libassimp>();
    if (!api.library.error().empty()) return FormatError{Errc::unavailable, 0, "model files cannot be read: " + api.library.error()};
    return capture([&] {
        if (bytes.empty()) fail(Errc::truncated, 0, "the file is empty");
        if (bytes.size() > UINT32_MAX) fail(Errc::too_large, 0, "the file is larger than assimp reads");
        // Points and lines are dropped: a collision or a model is faces.
        const std::unique_ptr<aiPropertyStore, ReleaseProperties> properties(api.create_properties());
        api.set_integer(properties.get(), AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
        const std::string padded = obj_colours_on_every_vertex(bytes);
        if (!padded.empty()) bytes = ByteSpan(reinterpret_cast<const uint8_t*>(padded.data()), padded.size());
        if (bytes.size() > UINT32_MAX) fail(Errc::too_large, 0, "the file is larger than assimp reads");
        // assimp tries each reader on the bytes themselves, but its glTF 2
        // reader takes a nameless file as JSON text: a binary glTF, known by
        // its magic (glTF 2.0 spec, "GLB File Format Specification"), is named for it.
        const bool binary_gltf = bytes.size() >= 4 && std::equal(bytes.begin(), bytes.begin() + 4, "glTF");
        const std::unique_ptr<const aiScene, ReleaseScene> scene(
            api.import_from_memory(reinterpret_cast<const char*>(bytes.data()), static_cast<unsigned>(bytes.size()),
                                   aiProcess_JoinIdenticalVertices | aiProcess_SortByPType, binary_gltf ? "glb" : "", properties.get()));
        if (!scene) fail(Errc::bad_value, 0, fmt::format("no model reader takes the file: {}", api.error_string()));
        ModelMesh out;
        for (unsigned m = 0; m < scene->mNumMaterials; ++m) {
            aiString name;
            if (api.material_string(scene->mMaterials[m], AI_MATKEY_NAME, &name) != aiReturn_SUCCESS) name.Set("");
            out.materials.emplace_back(name.C_Str());
            out.material_images.push_back(material_image(*scene, *scene->mMaterials[m]));
        }
        if (scene->mRootNode) add_node(*scene, *scene->mRootNode, kIdentity, 0, out);
        if (out.faces.empty()) fail(Errc::bad_value, 0, "the file holds no face");
        return out;
    });
}

}  // namespace gcfs::formats
