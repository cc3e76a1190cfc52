// Synthetic moby classes (formats-moby.md §15, §17): a one-joint crate, a
// three-joint worm over two packets with two- and three-way blends and
// duplicates reaching into the earlier packet, a pyramid in the R&C1 vertex
// layout, and a pickup with a low LOD and a chrome (metal) packet.
#pragma once

#include <vector>

#include "formats/moby/moby.h"
#include "mkdisc/random.h"
#include "mkdisc/ties.h"

namespace gcfs::mkdisc {

constexpr int kMobyTextureCount = 5;  // rows of the moby texture table the classes use
constexpr int kStashedMobyRow = 4;    // the pyramids' own texture, kept in GS RAM (formats-moby.md §10.2)
constexpr int kStashedMobyDesign = 2; // the pyramid: its classes are on the stash list

// Design `design % 4` (crate, worm, pyramid, pickup) `size` units across, at
// `scale` (0: the smallest 1/64 step that holds it, as level classes are
// written); the ARMOR WAD's mesh-only classes use it at their fixed scales.
formats::moby::ClassSpec moby_design(int design, double size, float scale = 0);

// Class `o_class` of design `design % 4`, its size varied by `random`.
ClassBlob make_moby(int32_t o_class, int design, Random& random);

}  // namespace gcfs::mkdisc
