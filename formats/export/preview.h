// A level's terrain seen from above, as a small height-shaded picture: what a
// person browsing the mount in a file manager sees of the level at a glance.
#pragma once

#include <array>
#include <vector>

#include "formats/export/png.h"
#include "formats/tfrag/tfrag_mesh.h"

namespace gcfs::formats {

constexpr uint32_t kPreviewEdge = 256;  // pixels; the picture is square

// What gameplay places, drawn over the terrain: a tie's or shrub's
// footprint (its class's box at the instance's matrix, the world points of
// its base) filled, a moby as a small diamond at its position.
struct PreviewMark {
    enum class Kind { tie, shrub, moby };
    Kind kind = Kind::moby;
    std::vector<std::array<double, 3>> points;  // world; footprints: the base's corners in order
};

// Which axis is "up" is not stated by formats.md; terrain spreads wide and
// shallow, so the axis along which the vertices spread least is taken as up,
// and the other two as the picture's axes. Each pixel shows the highest
// surface over it, coloured from low (blue) to high (white); uncovered pixels
// are transparent; marks are drawn on top (ties orange, shrubs green, mobies
// red), shrubs first, then ties, then mobies. Always kPreviewEdge² pixels:
// its PNG size is known.
Bytes terrain_preview_png(const std::vector<TfragMesh>& meshes, const std::vector<PreviewMark>& marks = {});
uint64_t terrain_preview_png_size();

}  // namespace gcfs::formats
