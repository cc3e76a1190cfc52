// A triangle mesh compiled into tfrag patches (formats.md §7) for the
// terrain import: the mesh cut into patches as large as a patch may be,
// each with three LODs (meshoptimizer's simplifier, the border of each
// patch and of each texture's faces kept, so neighbours still meet), its
// faces ordered into strips (meshoptimizer's stripifier), positions in the
// tiers §7.7 names and the parent indices §7.5 names. What a patch cannot
// hold is found by the writer itself (formats/tfrag/tfrag_write.cpp: u8
// counts, VU memory to 0x148, u16 list offsets); a piece that does not fit
// is halved until it does, and a single triangle that does not is refused
// with the number that does not fit.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "formats/common/error.h"
#include "formats/tfrag/tfrag.h"

namespace gcfs::formats {

struct TerrainMeshIn {
    struct Triangle {
        std::array<uint32_t, 3> corners{};            // into positions, counter-clockwise seen from outside
        std::array<std::array<double, 2>, 3> st{};    // §7.6 texture coordinates (s, t as fractions of the texture)
        int32_t texture = 0;                          // tfrag texture index (§7.5 TEX0.data_lo)
    };
    std::vector<std::array<double, 3>> positions;     // game axes, world units
    std::vector<TfragRgba> colours;                   // per position
    std::vector<std::optional<TfragLight>> lights;    // per position: a record to keep; empty ones get the face normal
    std::vector<Triangle> triangles;
};

struct TerrainCompileOptions {
    double lod1_ratio = 0.5;   // LOD-1 triangles per LOD-0 triangle the simplifier aims at
    double lod2_ratio = 0.25;  // LOD-2 likewise
    uint16_t mip_dist = 0;     // §7.2 0x3E, copied to every patch
};

struct CompiledTerrain {
    std::vector<TfragPatch> patches;  // occl_index numbered 0, 1, ... as Wrench renumbers them (§7.2 0x3A)
    uint64_t dropped_triangles = 0;   // corners that fall on one quantum (1/1024, §7.6)
};

// §7.6 quantisation: 1/1024 of a world unit; s and t in 1/4096 above zero
// and 1/8192 below, so each lies in [-4, 8).
Result<CompiledTerrain> compile_terrain(const TerrainMeshIn& mesh, const TerrainCompileOptions& options);

}  // namespace gcfs::formats
