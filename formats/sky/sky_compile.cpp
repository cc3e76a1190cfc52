#include "formats/sky/sky_compile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

namespace gcfs::formats {
namespace {

constexpr size_t kMaxClusterVertices = 127;    // B.5: Wrench's writer splits there (u8 indices would allow 256)
constexpr size_t kMaxClusterFaces = 32766;     // B.7
constexpr double kMiddleBand = 20.0, kCap = 65.0;  // degrees of elevation, B.7
constexpr int kSectors = 12;

// B.7: the sector a triangle falls in by the direction of the sum of its corners.
int sector_of(const std::array<double, 3>& d) {
    const double length = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (length == 0) return 0;
    const double elevation = std::asin(std::clamp(d[2] / length, -1.0, 1.0)) * 180.0 / std::numbers::pi;
    if (elevation > kCap) return 3 * kSectors;
    if (elevation < -kCap) return 3 * kSectors + 1;
    const int band = elevation > kMiddleBand ? 0 : elevation < -kMiddleBand ? 2 : 1;
    double turns = std::atan2(d[1], d[0]) / (2 * std::numbers::pi) + (band == 1 ? 0.5 / kSectors : 0.0);
    turns -= std::floor(turns);
    return band * kSectors + std::min(kSectors - 1, static_cast<int>(turns * kSectors));
}

int16_t to_s16(double value, double scale, size_t shell, const char* what) {
    const double q = std::round(value * scale);
    if (!std::isfinite(q) || q < -32768 || q > 32767)
        fail(Errc::out_of_range, shell, fmt::format("shell {}: the {} {} is past the s16 that holds it (x {})", shell, what, value, scale));
    return static_cast<int16_t>(q);
}

std::vector<SkyClusterContent> shell_clusters(const SkyShellIn& shell, size_t s) {
    std::map<int, std::vector<size_t>> sectors;  // sector -> faces, in file order
    for (size_t f = 0; f < shell.faces.size(); ++f) {
        std::array<double, 3> sum{};
        for (uint32_t c : shell.faces[f].corners) {
            if (c >= shell.positions.size()) fail(Errc::out_of_range, s, fmt::format("shell {} face {} names vertex {} of {}", s, f + 1, c + 1, shell.positions.size()));
            for (int a = 0; a < 3; ++a) sum[a] += shell.positions[c][a];
        }
        sectors[sector_of(sum)].push_back(f);
    }
    std::vector<SkyClusterContent> clusters;
    for (const auto& [sector, faces] : sectors) {
        SkyClusterContent cluster;
        std::map<uint32_t, uint8_t> local;
        for (size_t f : faces) {
            const auto& face = shell.faces[f];
            size_t fresh = 0;
            for (uint32_t c : face.corners) fresh += !local.count(c);
            if (local.size() + fresh > kMaxClusterVertices || cluster.faces.size() == kMaxClusterFaces) {
                clusters.push_back(std::move(cluster));
                cluster = {};
                local.clear();
            }
            std::array<uint8_t, 3> index{};
            for (int k = 0; k < 3; ++k) {
                const uint32_t c = face.corners[k];
                auto [it, made] = local.emplace(c, static_cast<uint8_t>(local.size()));
                if (made) {
                    const auto& p = shell.positions[c];
                    const uint8_t a = shell.alpha.at(c);
                    // B.7: 0x80 for opaque, else a / 2 (read back x 2).
                    cluster.vertices.push_back({to_s16(p[0], 1024, s, "coordinate"), to_s16(p[1], 1024, s, "coordinate"), to_s16(p[2], 1024, s, "coordinate"),
                                                static_cast<int16_t>(a == 255 ? 0x80 : (a + 1) / 2 > 0x7f ? 0x7f : (a + 1) / 2)});
                    const auto& uv = shell.uvs.at(c);
                    cluster.texcoords.push_back(shell.textured ? std::array<int16_t, 2>{to_s16(uv[0], 4096, s, "texture coordinate"),
                                                                                        to_s16(uv[1], 4096, s, "texture coordinate")}
                                                               : std::array<int16_t, 2>{0, 0});
                }
                index[k] = it->second;
            }
            cluster.faces.push_back({index[2], index[1], index[0], face.texture});  // B.4: stored reversed
        }
        clusters.push_back(std::move(cluster));
    }
    for (auto& cluster : clusters) cluster.bsphere = sky_cluster_bsphere(cluster);
    return clusters;
}

}  // namespace

std::array<float, 4> sky_cluster_bsphere(const SkyClusterContent& cluster) {
    if (cluster.vertices.empty()) return {};
    std::array<double, 3> low{INFINITY, INFINITY, INFINITY}, high{-INFINITY, -INFINITY, -INFINITY};
    for (const auto& v : cluster.vertices)
        for (int a = 0; a < 3; ++a) low[a] = std::min(low[a], v[a] / 1024.0), high[a] = std::max(high[a], v[a] / 1024.0);
    const std::array<double, 3> centre{(low[0] + high[0]) / 2, (low[1] + high[1]) / 2, (low[2] + high[2]) / 2};
    double radius = 0;
    for (const auto& v : cluster.vertices) {
        const double dx = v[0] / 1024.0 - centre[0], dy = v[1] / 1024.0 - centre[1], dz = v[2] / 1024.0 - centre[2];
        radius = std::max(radius, std::sqrt(dx * dx + dy * dy + dz * dz));
    }
    return {static_cast<float>(centre[0]), static_cast<float>(centre[1]), static_cast<float>(centre[2]), static_cast<float>(radius)};
}

Result<std::vector<std::vector<SkyClusterContent>>> compile_sky_shells(const std::vector<SkyShellIn>& shells) {
    return capture([&] {
        if (shells.size() > static_cast<size_t>(kMaxSkyShells))
            fail(Errc::too_large, 0, fmt::format("{} shells; the sky holds {} (formats.md 8.2)", shells.size(), kMaxSkyShells));
        std::vector<std::vector<SkyClusterContent>> out;
        for (size_t s = 0; s < shells.size(); ++s) {
            if (shells[s].alpha.size() != shells[s].positions.size() || shells[s].uvs.size() != shells[s].positions.size())
                fail(Errc::bad_value, s, fmt::format("shell {}: an alpha and a texture coordinate are needed per position", s));
            out.push_back(shell_clusters(shells[s], s));
        }
        return out;
    });
}

}  // namespace gcfs::formats
