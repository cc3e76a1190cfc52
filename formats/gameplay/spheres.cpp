#include "formats/gameplay/spheres.h"

namespace gcfs::formats::gameplay {

Vec4 area_sphere(std::span<const std::vector<Vec4>> paths, const std::array<const RecordTable*, 3>& volumes,
                 const std::array<std::vector<int32_t>, kAreaParts>& links) {
    std::vector<Vec4> points;
    for (int32_t p : links[0])
        if (p >= 0 && static_cast<size_t>(p) < paths.size()) points.insert(points.end(), paths[p].begin(), paths[p].end());
    for (size_t kind = 0; kind < 3; ++kind) {
        const RecordTable* t = volumes[kind];
        for (int32_t v : links[1 + kind]) {
            if (!t || v < 0 || static_cast<size_t>(v) >= t->count()) continue;
            auto m = t->floats<16>(static_cast<size_t>(v), 0);
            m[15] = 1;  // §3.7: col3.w is stored 0.01 and read as 1
            const auto corners = unit_cube_corners(m);
            points.insert(points.end(), corners.begin(), corners.end());
        }
    }
    return bounding_sphere(points);
}

}  // namespace gcfs::formats::gameplay
