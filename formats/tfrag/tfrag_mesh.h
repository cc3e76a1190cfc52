// One LOD of a decoded tfrag patch as a triangle mesh in world units
// (formats.md §7.6-§7.8).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "formats/tfrag/tfrag.h"

namespace gcfs::formats {

struct TfragMesh {
    std::vector<std::array<double, 3>> positions;    // (origin + s16) / 1024, §7.6
    std::vector<TfragRgba> colours;                  // per position, as stored (§7.3); grey where absent
    std::vector<std::array<double, 2>> uvs;          // per vertex info of the LOD: s, t per §7.6
    std::vector<std::array<uint32_t, 3>> triangles;  // indices into positions, wound consistently
    std::vector<std::array<uint32_t, 3>> triangle_uvs;  // indices into uvs, corner for corner
    std::vector<int32_t> triangle_texture;           // tfrag texture index of each triangle's ad-gif (§7.5)
};

// §7.7: LOD 0 uses every tier, LOD 1 common ‖ LOD01, LOD 2 the common tier.
// Strips resolve through the LOD's vertex infos (index -> vertex_info ->
// vertex/2 -> position); a GS strip of n vertices makes n - 2 triangles of
// alternating winding, and odd triangles are flipped so that every face
// keeps the strip's orientation. Any index, vertex or ad-gif reference out of
// range is an error naming the strip record, never a dropped triangle.
Result<TfragMesh> tfrag_lod_mesh(const TfragPatch& patch, int lod);

// §7.6: s / 4096, halved when negative (the 0x45000000 STROW trick); same for t.
double tfrag_texture_coordinate(int16_t value);

// World coordinate of one position (§7.6).
std::array<double, 3> tfrag_world_position(const TfragPatch& patch, const TfragPosition& position);

}  // namespace gcfs::formats
