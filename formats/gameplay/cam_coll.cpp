#include "formats/gameplay/cam_coll.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace gcfs::formats::gameplay {

std::vector<CamCollCell> cam_coll_cells(std::span<const CamCollVolume> volumes) {
    std::map<int, RecordTable> cells;
    for (const CamCollVolume& v : volumes) {
        const auto corners = unit_cube_corners(v.matrix);
        Vec4 s = bounding_sphere(corners);
        s.z = 0;  // §3.16: z forced to 0
        int lo[2] = {64, 64}, hi[2] = {0, 0};
        for (const Vec4& c : corners) {
            const float xy[2] = {c.x, c.y};
            for (int a = 0; a < 2; ++a) {
                lo[a] = std::clamp(std::min(lo[a], static_cast<int>(std::trunc(xy[a] / 16))), 0, 64);
                hi[a] = std::clamp(std::max(hi[a], static_cast<int>(std::ceil(xy[a] / 16))), 0, 64);
            }
        }
        for (int y = lo[1]; y < hi[1]; ++y)
            for (int x = lo[0]; x < hi[0]; ++x) {
                auto& t = cells.try_emplace(y * 64 + x, RecordTable{&kCamCollPrimSchema, {}, {}}).first->second;
                RecordBuilder(kCamCollPrimSchema)
                    .f32(0, s.x).f32(4, s.y).f32(8, s.z).f32(0xc, s.w)
                    .s32(0x10, kCamCollTypes[static_cast<size_t>(v.kind)]).s32(0x14, v.index)
                    .s32(0x18, v.flags).s32(0x1c, v.i_value).f32(0x20, v.f_value).s32(0x24, -1)  // pad {-1, 0, 0}
                    .append_to(t);
            }
    }
    std::vector<CamCollCell> out;
    for (auto& [cell, prims] : cells) out.push_back({cell, 0, std::move(prims)});
    return out;
}

std::vector<CamCollVolume> cam_coll_volumes(const CamCollGrid& grid) {
    std::map<std::pair<int, int32_t>, CamCollVolume> found;
    for (const CamCollCell& cell : grid.cells)
        for (size_t i = 0; i < cell.prims.count(); ++i) {
            const auto type = std::find(kCamCollTypes.begin(), kCamCollTypes.end(), cell.prims.s32(i, 0x10));
            if (type == kCamCollTypes.end()) continue;
            const int kind = static_cast<int>(type - kCamCollTypes.begin());
            const int32_t index = cell.prims.s32(i, 0x14);
            found.try_emplace({kind, index}, CamCollVolume{kind, index, {}, cell.prims.s32(i, 0x18), cell.prims.s32(i, 0x1c), cell.prims.f32(i, 0x20)});
        }
    std::vector<CamCollVolume> out;
    for (auto& [key, v] : found) out.push_back(v);
    return out;
}

}  // namespace gcfs::formats::gameplay
