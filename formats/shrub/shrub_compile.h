// A triangle mesh compiled into a shrub class (formats-shrub.md) for the
// class import: the class scale chosen from the mesh's bounds so its largest
// coordinate maps to 32766 (§1.6, as Wrench's compute_optimal_scale does;
// positions rounded to the nearest step where Wrench truncates, so each
// lies within half a step), UVs in 4.12 fixed point, each vertex's normal
// the nearest of the class's 24 directions to the mean of its faces' normals
// (§1.9: the reader turns each triangle to face its vertices' normals,
// §1.8), each texture's faces ordered into strips by meshoptimizer and cut
// to 50 vertices (a strip alone within §1.7's 168 GS and 118 VU qwords),
// strips packed into packets as long as the writer takes them. A triangle
// that repeats a corner has no area and is dropped; a UV outside [-8, 8)
// is refused with its value.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "formats/common/error.h"
#include "formats/import/class_mesh_in.h"
#include "formats/shrub/shrub.h"

namespace gcfs::formats::shrub {

struct ShrubCompileOptions {
    int16_t o_class = 0;
    int texture_count = 1;  // class texture slots a triangle may name
    float mip_distance = 30;  // §1.2, kept from the class replaced
    std::optional<Billboard> billboard;  // §1.11, kept from the class replaced
    std::array<std::array<int16_t, 3>, kNormalCount> normals = standard_normals();  // §1.9, kept from the class replaced
};

Result<ClassSpec> compile_shrub_class(const ClassMeshIn& mesh, const ShrubCompileOptions& options);

}  // namespace gcfs::formats::shrub
