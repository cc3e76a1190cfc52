#include "edit/tie_class_edit.h"

#include <fmt/format.h>

#include <vector>

#include "edit/class_import.h"
#include "edit/edit_refused.h"
#include "formats/tie/tie.h"
#include "formats/tie/tie_compile.h"

namespace gcfs::edit {
namespace {

constexpr size_t kTieClassTable = 1;  // LevelScan::classes: moby, tie, shrub

// A.2: the unknown header fields that are scalars, kept from the old class: {offset, size}.
constexpr std::pair<uint64_t, uint64_t> kKeptHeaderFields[] = {{0x20, 4}, {0x3c, 2}, {0x3e, 2}, {0x46, 2}, {0x48, 4}, {0x4c, 4}};

}  // namespace

std::optional<int32_t> tie_class_file(const std::string& inside) { return class_file(inside, "ties/", "tie"); }

std::string apply_tie_class(LevelParts& parts, const tree::LevelScan& level, int32_t o_class, formats::ByteSpan content) {
    formats::Bytes core = level_part(parts, "core_data");
    const ClassPlace place = find_class(level, kTieClassTable, o_class, core.size(), "tie");
    const auto old = formats::tie::read_tie_class(formats::ByteSpan(core).subspan(place.extent.offset, place.extent.size));
    if (!old.ok()) throw EditRefused(fmt::format("tie class {} does not read ({}), so its distances and LOD ratios cannot be kept", o_class, old.error().describe()));
    TableImages images(parts, formats::TextureTable::tie, "tie");
    const ClassFaces faces = class_faces(content, "tie", level.texture_table("tie").size(), images);
    const std::vector<int>& slot_rows = faces.slot_rows;

    formats::tie::TieCompileOptions options;
    options.o_class = old->header.o_class;
    options.texture_count = static_cast<int>(slot_rows.size());
    options.near_dist = old->header.near_dist, options.mid_dist = old->header.mid_dist, options.far_dist = old->header.far_dist;
    const double full = old->lods[0].triangles();
    if (full > 0) options.lod1_ratio = old->lods[1].triangles() / full, options.lod2_ratio = old->lods[2].triangles() / full;
    const auto spec = formats::tie::compile_tie_class(faces.mesh, options);
    if (!spec.ok()) throw EditRefused(spec.error().message);
    formats::Bytes block = formats::tie::write_tie_class(*spec);
    for (const auto& [at, size] : kKeptHeaderFields)
        std::copy_n(core.begin() + static_cast<int64_t>(place.extent.offset + at), size, block.begin() + static_cast<int64_t>(at));

    const uint64_t growth = write_class(parts, kTieClassTable, place, block, slot_rows, images, fmt::format("tie class {}", o_class));
    const formats::CoreRegion& extent = place.extent;

    std::array<uint64_t, 3> triangles{};
    for (int lod = 0; lod < 3; ++lod)
        for (const auto& packet : spec->lods[static_cast<size_t>(lod)])
            for (const auto& strip : packet.strips) triangles[lod] += strip.vertices.size() - 2;
    std::string status = fmt::format("{} / {} / {} triangles in {} / {} / {} packets (LOD 0 / 1 / 2), scale {:.6g}, {} texture slots; {} of the class's "
                                     "{} bytes{}",
                                     triangles[0], triangles[1], triangles[2], spec->lods[0].size(), spec->lods[1].size(), spec->lods[2].size(),
                                     spec->scale, slot_rows.size(), block.size(), extent.size + growth,
                                     growth ? fmt::format(" (grown by {}, the core's later blocks moved)", growth) : std::string());
    if (const std::string said = images.status(); !said.empty()) status += "; " + said;
    return status;
}

}  // namespace gcfs::edit
