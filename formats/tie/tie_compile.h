// A triangle mesh compiled into a tie class (formats-tie-sky.md Part A) for
// the class import: the class scale chosen from the mesh's bounds so its
// largest coordinate fits an s16 (A.5: position = s16 × scale / 1024), UVs
// in 4.12 fixed point, LOD 1 and 2 made by meshoptimizer's simplifier at the
// class's own ratios (each texture's faces apart, their borders kept), each
// LOD's faces ordered into strips by meshoptimizer's stripifier and cut to
// what a packet holds, strips packed into packets as long as the writer
// takes them (formats/tie/tie_write.cpp: 255 GS slots, 4 materials, the
// u8 region offsets), the bounding sphere the middle of the bounds and its
// farthest vertex. A triangle that repeats a corner has no area and is
// dropped (the stripifier drops it). What cannot be held is refused with the number: a UV
// outside [-8, 8), more than 255 packets or 32,767 vertices in a LOD (A.2's
// u8 packet count and s16 totals).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "formats/common/error.h"
#include "formats/import/class_mesh_in.h"
#include "formats/tie/tie.h"

namespace gcfs::formats::tie {

struct TieCompileOptions {
    int16_t o_class = 0;
    int texture_count = 1;           // class texture slots (A.2 0x13)
    double lod1_ratio = 0.5, lod2_ratio = 0.25;
    float near_dist = 0, mid_dist = 0, far_dist = 0;  // A.2, kept from the class replaced
};

Result<ClassSpec> compile_tie_class(const ClassMeshIn& mesh, const TieCompileOptions& options);

}  // namespace gcfs::formats::tie
