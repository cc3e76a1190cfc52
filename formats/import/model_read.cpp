#include "formats/import/model_read.h"

#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <fmt/format.h>

#include <memory>

#include "formats/common/late_library.h"

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
        // No hint: assimp tries each reader on the bytes themselves.
        const std::unique_ptr<const aiScene, ReleaseScene> scene(
            api.import_from_memory(reinterpret_cast<const char*>(bytes.data()), static_cast<unsigned>(bytes.size()),
                                   aiProcess_PreTransformVertices | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType, "", properties.get()));
        if (!scene) fail(Errc::bad_value, 0, fmt::format("no model reader takes the file: {}", api.error_string()));
        ModelMesh out;
        for (unsigned m = 0; m < scene->mNumMaterials; ++m) {
            aiString name;
            if (api.material_string(scene->mMaterials[m], AI_MATKEY_NAME, &name) != aiReturn_SUCCESS) name.Set("");
            out.materials.emplace_back(name.C_Str());
        }
        for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
            const aiMesh& mesh = *scene->mMeshes[m];
            if (mesh.mMaterialIndex >= out.materials.size()) fail(Errc::bad_value, 0, fmt::format("mesh {} names material {} of {}", m, mesh.mMaterialIndex, out.materials.size()));
            const auto first = static_cast<uint32_t>(out.positions.size());
            for (unsigned v = 0; v < mesh.mNumVertices; ++v)
                out.positions.push_back({mesh.mVertices[v].x, mesh.mVertices[v].y, mesh.mVertices[v].z});
            add_attributes(mesh, first, out);
            for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
                const aiFace& face = mesh.mFaces[f];
                if (face.mNumIndices < 3) continue;  // a point or line a reader left
                ModelMesh::Face kept;
                kept.material = mesh.mMaterialIndex;
                for (unsigned k = 0; k < face.mNumIndices; ++k) {
                    if (face.mIndices[k] >= mesh.mNumVertices) fail(Errc::bad_value, 0, fmt::format("mesh {} face {} names vertex {} of {}", m, f, face.mIndices[k], mesh.mNumVertices));
                    kept.corners.push_back(first + face.mIndices[k]);
                }
                out.faces.push_back(std::move(kept));
            }
        }
        if (out.faces.empty()) fail(Errc::bad_value, 0, "the file holds no face");
        return out;
    });
}

}  // namespace gcfs::formats
