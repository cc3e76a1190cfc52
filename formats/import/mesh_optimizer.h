// The two meshoptimizer steps the geometry imports use, over one triangle
// list of vertex indices: the simplifier that makes the lower LODs and the
// stripifier that orders triangles into strips. The library (Debian 12's
// libmeshoptimizer2d) is opened on first use, as assimp is: only edits need it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "formats/common/error.h"

namespace gcfs::formats {

// `triangles` (three vertex indices each) reduced towards `target` triangles
// without moving any vertex on the mesh's open border (meshopt_SimplifyLockBorder:
// a patch's seams with its neighbours and between its materials stay where
// they are). The result names only the input's vertices; it can stop above
// the target where the border allows no more.
Result<std::vector<uint32_t>> simplify_triangles(const std::vector<uint32_t>& triangles, const std::vector<std::array<float, 3>>& positions,
                                                 size_t target);

// `triangles` as strips (ordered for a strip-like cache first,
// meshopt_optimizeVertexCacheStrip, then meshopt_stripify), each a run of vertex indices that
// forms a GS-style strip: triangle j is (s[j], s[j+1], s[j+2]) with every odd
// one wound the other way.
Result<std::vector<std::vector<uint32_t>>> triangle_strips(const std::vector<uint32_t>& triangles, size_t vertex_count);

}  // namespace gcfs::formats
