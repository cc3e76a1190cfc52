#include "tree/level/level_preview.h"

#include <cmath>

#include "formats/export/preview.h"
#include "formats/gameplay/gameplay.h"
#include "formats/gltf/level_meshes.h"
#include "formats/tfrag/tfrag_export.h"

namespace gcfs::tree {

namespace gp = formats::gameplay;
namespace gltf = formats::gltf;

namespace {

// The base of a class's box (LOD 0, class space) at an instance's matrix.
std::vector<std::array<double, 3>> footprint(const std::array<double, 6>& box, const gltf::Matrix& m) {
    std::vector<std::array<double, 3>> out;
    for (auto [x, y] : {std::pair{box[0], box[1]}, std::pair{box[3], box[1]}, std::pair{box[3], box[4]}, std::pair{box[0], box[4]}})
        out.push_back({m[0] * x + m[4] * y + m[8] * box[2] + m[12], m[1] * x + m[5] * y + m[9] * box[2] + m[13],
                       m[2] * x + m[6] * y + m[10] * box[2] + m[14]});
    return out;
}

void add_footprints(std::vector<formats::PreviewMark>& marks, formats::PreviewMark::Kind kind, const gp::Decoded<gp::RecordTable>& block,
                    const std::shared_ptr<const LevelClassModels>& models) {
    if (!block.ok() || !models) return;
    const ClassModelIndex& index = models->index();
    for (size_t i = 0; i < block.value->count(); ++i) {
        // §3.2, §3.3: o_class 0x00, matrix 0x10; classes that cannot be drawn leave no footprint.
        const std::optional<size_t> cls = models->find(block.value->s32(i, 0x00));
        if (!cls || !index.classes[*cls].error.empty()) continue;
        const gltf::Matrix m = gltf::instance_matrix(block.value->floats<16>(i, 0x10));
        if (gltf::trs_decomposable(m)) marks.push_back({kind, footprint(index.classes[*cls].bbox, m)});
    }
}

}  // namespace

formats::Bytes level_preview_png(const SceneSources& s) {
    std::vector<formats::TfragMesh> terrain;
    if (s.terrain && s.terrain->index().error.empty())
        if (const cache::Loaded block = s.terrain->block(); block.bytes)
            terrain = formats::tfrag_level_meshes(block.bytes->bytes(), s.terrain->index().summary, 0);
    std::vector<formats::PreviewMark> marks;
    const cache::Loaded bytes = s.gameplay ? s.gameplay->decoded() : cache::Loaded{};
    if (bytes.bytes) {
        const gp::Gameplay g = gp::read_gameplay(bytes.bytes->bytes());
        add_footprints(marks, formats::PreviewMark::Kind::shrub, g.shrubs, s.shrubs);
        add_footprints(marks, formats::PreviewMark::Kind::tie, g.ties, s.ties);
        if (g.mobies.ok())
            for (size_t i = 0; i < g.mobies.value->count(); ++i) {  // §3.1: position 0x40
                const auto p = g.mobies.value->floats<3>(i, 0x40);
                if (std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]))
                    marks.push_back({formats::PreviewMark::Kind::moby, {{p[0], p[1], p[2]}}});
            }
    }
    return formats::terrain_preview_png(terrain, marks);
}

}  // namespace gcfs::tree
