// What a level's tfrag/ folder shows: a summary of every patch of a tfrags
// block (decoded counts, status), exact file sizes computed from it, and the
// OBJ / CSV texts. Pure functions over the block's bytes.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/tfrag/tfrag_mesh.h"
#include "formats/tfrag/tfrag_read.h"

namespace gcfs::formats {

struct TfragPatchSummary {
    uint32_t index = 0;
    uint64_t header_offset = 0;  // in the tfrag block
    uint64_t data_offset = 0;    // in the tfrag block (table_offset + data)
    uint8_t vert_count = 0;      // as the patch header declares (§7.2)
    uint8_t tri_count = 0;
    bool ok = false;
    std::string error;           // why the patch was rejected
    std::array<uint32_t, 3> vertices{};   // decoded, per LOD
    std::array<uint32_t, 3> triangles{};  // decoded, per LOD
    std::array<uint32_t, 3> uvs{};        // vertex infos, per LOD
    std::array<uint64_t, 3> material_bytes{};  // the OBJ's "usemtl" lines, per LOD
    uint32_t textures = 0;                // ad-gifs
    int32_t lowest_texture = 0, highest_texture = 0;  // tfrag texture indices the ad-gifs name
};

struct TfragBlockSummary {
    TfragsHeader header;
    std::vector<TfragPatchSummary> patches;
    uint64_t good_patches() const;
    uint64_t lod0_vertices() const;   // over good patches
    uint64_t lod0_triangles() const;  // over good patches
};

// Decodes every patch; a bad patch is recorded with its error, the others
// still decode. Fails only when the block header itself is unusable.
Result<TfragBlockSummary> summarize_tfrags(ByteSpan block);
// One patch of a block whose header parsed (its table is bounds-checked).
TfragPatchSummary summarize_tfrag_patch(ByteSpan block, const TfragsHeader& header, uint32_t index);

// Names the files in comments so that an OBJ says where it came from.
struct TfragSourceInfo {
    std::string level;     // "LEVEL03"
    int32_t level_id = 0;
    uint64_t block_offset = 0;  // the tfrag block's offset inside core_data.bin
};

std::string tfrag_patch_name(uint32_t index);        // "patch_0012"
std::string tfrag_material_name(int32_t texture);    // "tfrag_003": a texture of the tfrag table

// tfrag/terrain.mtl: a material per tfrag texture, its map the PNG in textures/.
std::string tfrag_materials_mtl(uint64_t texture_count);

// One patch at one LOD (0 = highest detail), textured: colours per vertex,
// "vt" per vertex info, faces grouped by their strip's texture. A rejected
// patch keeps the size its header's vert_count / tri_count imply; rendering it
// is an error.
uint64_t tfrag_patch_obj_size(const TfragSourceInfo& source, const TfragPatchSummary& patch, int lod);
Result<std::string> render_tfrag_patch_obj(ByteSpan block, const TfragsHeader& header, const TfragSourceInfo& source,
                                           const TfragPatchSummary& patch, int lod);

// Every good patch at LOD 0 as one object, a group per patch.
uint64_t tfrag_terrain_obj_size(const TfragSourceInfo& source, const TfragBlockSummary& summary);
Result<std::string> render_tfrag_terrain_obj(ByteSpan block, const TfragSourceInfo& source,
                                             const TfragBlockSummary& summary);

// The meshes of every good patch at one LOD (rejected patches are left out).
std::vector<TfragMesh> tfrag_level_meshes(ByteSpan block, const TfragBlockSummary& summary, int lod);

// index, offsets, declared and decoded counts, status, error.
std::string tfrag_patches_csv(const TfragSourceInfo& source, const TfragBlockSummary& summary);

}  // namespace gcfs::formats
