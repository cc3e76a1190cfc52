#include "formats/export/preview.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace gcfs::formats {
namespace {

// Index 0 is the transparent background; 1..kGround run from low to high
// ground; the last three are the marks' colours.
constexpr int kGround = 252;
constexpr std::array<uint8_t, 3> kMarkIndex = {253, 254, 255};  // tie, shrub, moby

std::array<png::Rgba, 256> height_palette() {
    std::array<png::Rgba, 256> palette{};
    const std::array<std::array<double, 3>, 5> stops = {{{30, 60, 140}, {40, 140, 80}, {170, 160, 80}, {130, 100, 80}, {245, 245, 245}}};
    for (int i = 1; i <= kGround; ++i) {
        const double t = (i - 1) / (kGround - 1.0) * (stops.size() - 1);
        const size_t k = std::min<size_t>(static_cast<size_t>(t), stops.size() - 2);
        const double f = t - k;
        auto mix = [&](int c) { return static_cast<uint8_t>(std::lround(stops[k][c] * (1 - f) + stops[k + 1][c] * f)); };
        palette[i] = {mix(0), mix(1), mix(2), 255};
    }
    palette[kMarkIndex[0]] = {255, 140, 0, 255};
    palette[kMarkIndex[1]] = {60, 220, 60, 255};
    palette[kMarkIndex[2]] = {230, 20, 40, 255};
    return palette;
}

// Fills the convex polygon `x`, `y` (picture units) with `index`: pixel
// centres on the inner side of every edge, either winding.
void fill_convex(Bytes& pixels, const std::vector<double>& x, const std::vector<double>& y, uint8_t index) {
    const size_t n = x.size();
    if (n < 3) return;
    double area = 0;
    for (size_t i = 0; i < n; ++i) area += x[i] * y[(i + 1) % n] - x[(i + 1) % n] * y[i];
    if (std::abs(area) < 1e-9) return;
    const double sign = area > 0 ? 1 : -1;
    const int x0 = std::max(0, static_cast<int>(std::floor(*std::min_element(x.begin(), x.end()))));
    const int x1 = std::min<int>(kPreviewEdge - 1, static_cast<int>(std::ceil(*std::max_element(x.begin(), x.end()))));
    const int y0 = std::max(0, static_cast<int>(std::floor(*std::min_element(y.begin(), y.end()))));
    const int y1 = std::min<int>(kPreviewEdge - 1, static_cast<int>(std::ceil(*std::max_element(y.begin(), y.end()))));
    for (int py = y0; py <= y1; ++py)
        for (int px = x0; px <= x1; ++px) {
            const double cx = px + 0.5, cy = py + 0.5;
            bool inside = true;
            for (size_t i = 0; i < n && inside; ++i) {
                const size_t j = (i + 1) % n;
                inside = sign * ((x[j] - x[i]) * (cy - y[i]) - (y[j] - y[i]) * (cx - x[i])) >= 0;
            }
            if (inside) pixels[static_cast<size_t>(kPreviewEdge - 1 - py) * kPreviewEdge + static_cast<size_t>(px)] = index;
        }
}

}  // namespace

uint64_t terrain_preview_png_size() { return png::indexed_size(kPreviewEdge, kPreviewEdge); }

Bytes terrain_preview_png(const std::vector<TfragMesh>& meshes, const std::vector<PreviewMark>& marks) {
    constexpr double kNone = -std::numeric_limits<double>::infinity();
    std::array<double, 3> low{}, high{};
    low.fill(std::numeric_limits<double>::infinity());
    high.fill(-std::numeric_limits<double>::infinity());
    for (const auto& m : meshes)
        for (const auto& p : m.positions)
            for (int a = 0; a < 3; ++a) low[a] = std::min(low[a], p[a]), high[a] = std::max(high[a], p[a]);
    Bytes pixels(static_cast<size_t>(kPreviewEdge) * kPreviewEdge, 0);
    if (low[0] > high[0]) return png::write_indexed(kPreviewEdge, kPreviewEdge, height_palette(), pixels);

    int up = 0;
    for (int a = 1; a < 3; ++a)
        if (high[a] - low[a] < high[up] - low[up]) up = a;
    const int u = up == 0 ? 1 : 0, v = up == 2 ? 1 : 2;
    // One scale for both picture axes keeps the level's proportions.
    const double span = std::max({high[u] - low[u], high[v] - low[v], 1e-9});
    const double scale = (kPreviewEdge - 1) / span;
    const double rise = std::max(high[up] - low[up], 1e-9);
    std::vector<double> top(pixels.size(), kNone);

    for (const auto& m : meshes)
        for (const auto& t : m.triangles) {
            double x[3], y[3], h[3];
            for (int i = 0; i < 3; ++i) {
                x[i] = (m.positions[t[i]][u] - low[u]) * scale;
                y[i] = (m.positions[t[i]][v] - low[v]) * scale;
                h[i] = m.positions[t[i]][up];
            }
            const double area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
            if (std::abs(area) < 1e-12) continue;  // seen edge-on from above
            const int x0 = std::max(0, static_cast<int>(std::floor(std::min({x[0], x[1], x[2]}))));
            const int x1 = std::min<int>(kPreviewEdge - 1, static_cast<int>(std::ceil(std::max({x[0], x[1], x[2]}))));
            const int y0 = std::max(0, static_cast<int>(std::floor(std::min({y[0], y[1], y[2]}))));
            const int y1 = std::min<int>(kPreviewEdge - 1, static_cast<int>(std::ceil(std::max({y[0], y[1], y[2]}))));
            for (int py = y0; py <= y1; ++py)
                for (int px = x0; px <= x1; ++px) {
                    // Barycentric weights of the pixel centre; inside when all are >= 0.
                    const double cx = px + 0.5, cy = py + 0.5;
                    const double w0 = ((x[1] - cx) * (y[2] - cy) - (x[2] - cx) * (y[1] - cy)) / area;
                    const double w1 = ((x[2] - cx) * (y[0] - cy) - (x[0] - cx) * (y[2] - cy)) / area;
                    const double w2 = 1 - w0 - w1;
                    if (w0 < 0 || w1 < 0 || w2 < 0) continue;
                    const double height = w0 * h[0] + w1 * h[1] + w2 * h[2];
                    // North up: the picture's rows run against v.
                    const size_t at = static_cast<size_t>(kPreviewEdge - 1 - py) * kPreviewEdge + static_cast<size_t>(px);
                    top[at] = std::max(top[at], height);
                }
        }
    for (size_t i = 0; i < pixels.size(); ++i)
        if (top[i] != kNone)
            pixels[i] = static_cast<uint8_t>(1 + std::lround(std::clamp((top[i] - low[up]) / rise, 0.0, 1.0) * (kGround - 1)));
    // Marks in the terrain's picture axes; a footprint smaller than a pixel
    // still shows as one, a moby as a diamond 5 pixels across.
    for (const auto kind : {PreviewMark::Kind::shrub, PreviewMark::Kind::tie, PreviewMark::Kind::moby})
        for (const PreviewMark& mark : marks) {
            if (mark.kind != kind || mark.points.empty()) continue;
            std::vector<double> x, y;
            for (const auto& p : mark.points) {
                x.push_back((p[u] - low[u]) * scale);
                y.push_back((p[v] - low[v]) * scale);
            }
            const double cx = std::accumulate(x.begin(), x.end(), 0.0) / x.size(), cy = std::accumulate(y.begin(), y.end(), 0.0) / y.size();
            const double reach = kind == PreviewMark::Kind::moby ? 2.5 : 0.75;
            const double extent = std::max(*std::max_element(x.begin(), x.end()) - *std::min_element(x.begin(), x.end()),
                                           *std::max_element(y.begin(), y.end()) - *std::min_element(y.begin(), y.end()));
            if (kind == PreviewMark::Kind::moby || extent < 1.5)
                x = {cx + reach, cx, cx - reach, cx}, y = {cy, cy + reach, cy, cy - reach};
            fill_convex(pixels, x, y, kMarkIndex[static_cast<size_t>(kind)]);
        }
    return png::write_indexed(kPreviewEdge, kPreviewEdge, height_palette(), pixels);
}

}  // namespace gcfs::formats
