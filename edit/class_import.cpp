#include "edit/class_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

#include "edit/core_region.h"
#include "edit/edit_refused.h"
#include "formats/import/model_read.h"

namespace gcfs::edit {
namespace {

// "tie_007" -> 7, as the class MTLs name their table's rows.
std::optional<int> table_row(const std::string& material, const std::string& prefix, size_t rows) {
    int value = 0;
    if (material.size() <= prefix.size() + 1 || !material.starts_with(prefix + "_")) return std::nullopt;
    const char* end = material.data() + material.size();
    const auto [at, ec] = std::from_chars(material.data() + prefix.size() + 1, end, value);
    if (ec != std::errc() || at != end || value < 0 || static_cast<size_t>(value) >= rows || fmt::format("{}_{:03d}", prefix, value) != material)
        return std::nullopt;
    return value;
}

// §6.3: the class tables' offsets and entry sizes, by LevelScan::classes index.
std::pair<formats::ArrayRange, uint64_t> class_table(const formats::LevelCoreHeader& core, size_t table) {
    if (table == 0) return {core.moby_classes, formats::kClassEntrySize};
    if (table == 1) return {core.tie_classes, formats::kClassEntrySize};
    return {core.shrub_classes, formats::kShrubClassEntrySize};
}

}  // namespace

std::optional<int32_t> class_file(const std::string& inside, std::string_view folder, std::string_view prefix) {
    const std::string head = fmt::format("{}{}_", folder, prefix);
    constexpr std::string_view kSuffix = ".obj";
    if (!inside.starts_with(head) || !inside.ends_with(kSuffix) || inside.size() <= head.size() + kSuffix.size()) return std::nullopt;
    int32_t value = 0;
    const char* begin = inside.data() + head.size();
    const char* end = inside.data() + inside.size() - kSuffix.size();
    const auto [at, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || at != end || fmt::format("{}", value) != std::string_view(begin, end)) return std::nullopt;  // the name gcfs gives, no other spelling
    return value;
}

ClassFaces class_faces(formats::ByteSpan content, const std::string& prefix, size_t rows, TableImages& images) {
    const auto read = formats::read_model(content);
    if (!read.ok()) throw EditRefused(read.error().message);
    const formats::ModelMesh& model = *read;
    ClassFaces out;
    for (const auto& p : model.positions) out.mesh.positions.push_back({p[0], 0.0 - p[2], p[1]});  // y up -> the game's z up (formats/export/axes.h)
    for (size_t v = 0; v < model.positions.size(); ++v)
        out.mesh.uvs.push_back(model.uvs.empty() ? std::array<double, 2>{0, 0} : std::array<double, 2>{model.uvs[v][0], 1.0 - model.uvs[v][1]});
    std::map<uint32_t, int> slot_of;  // by material
    for (size_t n = 0; n < model.faces.size(); ++n) {
        const auto& face = model.faces[n];
        auto found = slot_of.find(face.material);
        if (found == slot_of.end()) {
            const std::string& material = model.materials.at(face.material);
            const auto& image = model.material_images.at(face.material);
            std::optional<int> row = table_row(material, prefix, rows);
            if (!row && image.path.empty())
                throw EditRefused(fmt::format("face {} has the material \"{}\", which names no {} texture ({}s.mtl's {}_000 … do) and has no image",
                                              n + 1, material, prefix, prefix, prefix));
            if (!row) row = static_cast<int>(images.row_for(image, material));
            auto slot = static_cast<int>(std::find(out.slot_rows.begin(), out.slot_rows.end(), *row) - out.slot_rows.begin());
            if (slot == static_cast<int>(out.slot_rows.size())) {
                if (out.slot_rows.size() == kMostClassSlots)
                    throw EditRefused(fmt::format("the model names more than {} textures (material \"{}\"), the most a class's slots hold", kMostClassSlots,
                                                  material));
                out.slot_rows.push_back(*row);
            }
            found = slot_of.emplace(face.material, slot).first;
        }
        for (size_t k = 1; k + 1 < face.corners.size(); ++k)  // polygons as fans
            out.mesh.triangles.push_back({{face.corners[0], face.corners[k], face.corners[k + 1]}, found->second});
    }
    return out;
}

ClassPlace find_class(const tree::LevelScan& level, size_t table, int32_t o_class, uint64_t core_size, const std::string& kind) {
    const auto& entries = level.classes.at(table);
    const auto it = std::find_if(entries.begin(), entries.end(), [&](const formats::ClassEntry& e) { return e.o_class == o_class; });
    if (it == entries.end()) throw EditRefused(fmt::format("the level's {} table has no class {}", kind, o_class));
    ClassPlace place{static_cast<size_t>(it - entries.begin()), formats::class_extent(level.boundaries, it->offset_in_asset_wad, core_size, kind)};
    if (place.extent.size == 0) throw EditRefused(fmt::format("{} class {} has no model data to replace (formats.md 6.3: offset 0)", kind, o_class));
    return place;
}

uint64_t write_class(LevelParts& parts, size_t table, const ClassPlace& place, formats::ByteSpan block,
                     const std::vector<int>& slot_rows, TableImages& images, const std::string& what) {
    images.commit();
    formats::Bytes index = level_part(parts, "core_index");
    const auto header = formats::parse_level_core_header(index);  // as the new rows left it
    if (!header.ok()) throw EditRefused("the level's core header does not read: " + header.error().describe());
    const auto [range, entry_size] = class_table(*header, table);
    const uint64_t field = static_cast<uint64_t>(range.offset) + place.entry * entry_size;
    if (field + entry_size > index.size()) throw EditRefused(fmt::format("the {} class table lies past core_index", what));
    const uint64_t offset = static_cast<uint64_t>(formats::s32_at(index, field));  // §6.3 offset_in_asset_wad, moved with the rows' texels
    formats::Bytes core = level_part(parts, "core_data");
    const uint64_t growth = write_core_region(parts, core, offset, place.extent.size, block, what);
    parts.replace("core_data", std::move(core));
    index = level_part(parts, "core_index");
    for (size_t s = 0; s < 16; ++s) index[field + 0x10 + s] = s < slot_rows.size() ? static_cast<uint8_t>(slot_rows[s]) : 0xFF;  // §6.3 textures[16]
    parts.replace("core_index", std::move(index));
    return growth;
}

}  // namespace gcfs::edit
