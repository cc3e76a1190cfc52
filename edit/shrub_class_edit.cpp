#include "edit/shrub_class_edit.h"

#include <fmt/format.h>

#include "edit/class_import.h"
#include "edit/edit_refused.h"
#include "formats/shrub/shrub.h"
#include "formats/shrub/shrub_compile.h"

namespace gcfs::edit {
namespace {

constexpr size_t kShrubClassTable = 2;  // LevelScan::classes: moby, tie, shrub

}  // namespace

std::optional<int32_t> shrub_class_file(const std::string& inside) { return class_file(inside, "shrubs/", "shrub"); }

std::string apply_shrub_class(LevelParts& parts, const tree::LevelScan& level, int32_t o_class, formats::ByteSpan content) {
    const formats::Bytes core = level_part(parts, "core_data");
    const ClassPlace place = find_class(level, kShrubClassTable, o_class, core.size(), "shrub");
    const auto old = formats::shrub::read_shrub_class(formats::ByteSpan(core).subspan(place.extent.offset, place.extent.size));
    if (!old.ok())
        throw EditRefused(fmt::format("shrub class {} does not read ({}), so its billboard and normals cannot be kept", o_class, old.error().describe()));
    TableImages images(parts, formats::TextureTable::shrub, "shrub");
    const ClassFaces faces = class_faces(content, "shrub", level.texture_table("shrub").size(), images);

    formats::shrub::ShrubCompileOptions options;
    options.o_class = old->header.o_class;
    options.texture_count = static_cast<int>(faces.slot_rows.size());
    options.mip_distance = old->header.mip_distance;
    options.billboard = old->billboard;
    options.normals = old->normals;
    const auto spec = formats::shrub::compile_shrub_class(faces.mesh, options);
    if (!spec.ok()) throw EditRefused(spec.error().message);
    const formats::Bytes block = formats::shrub::write_shrub_class(*spec);
    const uint64_t growth = write_class(parts, kShrubClassTable, place, block, faces.slot_rows, images, fmt::format("shrub class {}", o_class));

    uint64_t triangles = 0;
    for (const auto& packet : spec->packets)
        for (const auto& strip : packet.strips) triangles += strip.vertices.size() - 2;
    std::string status = fmt::format("{} triangles in {} packets, scale {:.6g}, {} texture slots, the billboard and normals kept; {} of the class's {} bytes{}",
                                     triangles, spec->packets.size(), spec->scale, faces.slot_rows.size(), block.size(), place.extent.size + growth,
                                     growth ? fmt::format(" (grown by {}, the core's later blocks moved)", growth) : std::string());
    if (const std::string said = images.status(); !said.empty()) status += "; " + said;
    return status;
}

}  // namespace gcfs::edit
