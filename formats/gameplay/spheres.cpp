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

std::vector<std::vector<Vec4>> path_points(const Gameplay& g) {
    std::vector<std::vector<Vec4>> out;
    if (g.paths.ok())
        for (const auto& spline : g.paths.value->splines) out.push_back(spline.vertices);
    return out;
}

std::array<const RecordTable*, 3> area_volumes(const Gameplay& g) {
    return {g.cuboids.ok() ? &*g.cuboids.value : nullptr, g.spheres.ok() ? &*g.spheres.value : nullptr,
            g.cylinders.ok() ? &*g.cylinders.value : nullptr};
}

std::array<float, 16> affine_inverse(std::span<const float, 16> m) {
    const double a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], i = m[10];
    const double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    const double inv[3][3] = {{(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det},
                              {(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det},
                              {(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det}};
    std::array<float, 16> out{};
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col) out[4 * col + row] = static_cast<float>(inv[row][col]);
    for (int row = 0; row < 3; ++row)
        out[12 + row] = static_cast<float>(-(inv[row][0] * m[12] + inv[row][1] * m[13] + inv[row][2] * m[14]));
    out[15] = 1;
    return out;
}

Vec4 transition_sphere(std::span<const float, 16> inverse_matrix) {
    const auto volume = affine_inverse(inverse_matrix);
    const auto corners = unit_cube_corners(volume);
    return bounding_sphere(corners);
}

}  // namespace gcfs::formats::gameplay
