#include "edit/tie_class_edit.h"

#include <fmt/format.h>

#include <charconv>
#include <map>
#include <vector>

#include "edit/core_region.h"
#include "edit/edit_refused.h"
#include "edit/texture_import.h"
#include "formats/core/level_core.h"
#include "formats/import/model_read.h"
#include "formats/tie/tie.h"
#include "formats/tie/tie_compile.h"

namespace gcfs::edit {
namespace {

constexpr size_t kMostClassSlots = 15;  // formats-moby.md 1.1: the packer allows 15; 0xFF ends the list
constexpr uint64_t kTieClassTable = 1;  // LevelScan::classes: moby, tie, shrub

// "tie_007" -> 7, as ties.mtl names the tie texture table's rows.
std::optional<int> tie_row(const std::string& material, size_t rows) {
    int value = 0;
    if (material.size() < 5 || !material.starts_with("tie_")) return std::nullopt;
    const char* end = material.data() + material.size();
    const auto [at, ec] = std::from_chars(material.data() + 4, end, value);
    if (ec != std::errc() || at != end || value < 0 || static_cast<size_t>(value) >= rows || fmt::format("tie_{:03d}", value) != material)
        return std::nullopt;
    return value;
}

// A.2: the unknown header fields that are scalars, kept from the old class: {offset, size}.
constexpr std::pair<uint64_t, uint64_t> kKeptHeaderFields[] = {{0x20, 4}, {0x3c, 2}, {0x3e, 2}, {0x46, 2}, {0x48, 4}, {0x4c, 4}};

}  // namespace

std::optional<int32_t> tie_class_file(const std::string& inside) {
    constexpr std::string_view kPrefix = "ties/tie_", kSuffix = ".obj";
    if (!inside.starts_with(kPrefix) || !inside.ends_with(kSuffix) || inside.size() <= kPrefix.size() + kSuffix.size()) return std::nullopt;
    int32_t value = 0;
    const char* begin = inside.data() + kPrefix.size();
    const char* end = inside.data() + inside.size() - kSuffix.size();
    const auto [at, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || at != end || fmt::format("{}", value) != std::string_view(begin, end)) return std::nullopt;
    return value;
}

std::string apply_tie_class(LevelParts& parts, const tree::LevelScan& level, int32_t o_class, formats::ByteSpan content) {
    const auto& entries = level.classes[kTieClassTable];
    size_t entry = entries.size();
    for (size_t i = 0; i < entries.size() && entry == entries.size(); ++i)
        if (entries[i].o_class == o_class) entry = i;
    if (entry == entries.size()) throw EditRefused(fmt::format("the level's tie table has no class {}", o_class));
    if (!level.core) throw EditRefused("the level's core header does not read");
    formats::Bytes core = level_part(parts, "core_data");
    const formats::CoreRegion extent = formats::class_extent(level.boundaries, entries[entry].offset_in_asset_wad, core.size(), "tie class");
    if (extent.size == 0) throw EditRefused(fmt::format("tie class {} has no model data to replace (formats.md 6.3: offset 0)", o_class));
    const auto old = formats::tie::read_tie_class(formats::ByteSpan(core).subspan(extent.offset, extent.size));
    if (!old.ok()) throw EditRefused(fmt::format("tie class {} does not read ({}), so its distances and LOD ratios cannot be kept", o_class, old.error().describe()));
    const auto model = formats::read_model(content);
    if (!model.ok()) throw EditRefused(model.error().message);

    // Materials to table rows, rows to the class's slots in the order the faces first name them.
    const size_t rows = level.texture_table("tie").size();
    TableImages images(parts, formats::TextureTable::tie, "tie");
    std::map<uint32_t, int> slot_of;  // by material
    std::vector<int> slot_rows;
    formats::tie::TieMeshIn mesh;
    for (const auto& p : model->positions) mesh.positions.push_back({p[0], 0.0 - p[2], p[1]});  // y up -> the game's z up (formats/export/axes.h)
    for (size_t v = 0; v < model->positions.size(); ++v)
        mesh.uvs.push_back(model->uvs.empty() ? std::array<double, 2>{0, 0} : std::array<double, 2>{model->uvs[v][0], 1.0 - model->uvs[v][1]});
    for (size_t n = 0; n < model->faces.size(); ++n) {
        const auto& face = model->faces[n];
        auto found = slot_of.find(face.material);
        if (found == slot_of.end()) {
            const std::string& material = model->materials.at(face.material);
            const auto& image = model->material_images.at(face.material);
            std::optional<int> row = tie_row(material, rows);
            if (!row && image.path.empty())
                throw EditRefused(fmt::format("face {} has the material \"{}\", which names no tie texture (ties.mtl's tie_000 … do; a tie face "
                                              "must name one, formats-tie-sky.md A.6) and has no image", n + 1, material));
            if (!row) row = static_cast<int>(images.row_for(image, material));
            int slot = static_cast<int>(std::find(slot_rows.begin(), slot_rows.end(), *row) - slot_rows.begin());
            if (slot == static_cast<int>(slot_rows.size())) {
                if (slot_rows.size() == kMostClassSlots)
                    throw EditRefused(fmt::format("the model names more than {} textures (material \"{}\"), the most a class's slots hold", kMostClassSlots, material));
                slot_rows.push_back(*row);
            }
            found = slot_of.emplace(face.material, slot).first;
        }
        for (size_t k = 1; k + 1 < face.corners.size(); ++k)  // polygons as fans
            mesh.triangles.push_back({{face.corners[0], face.corners[k], face.corners[k + 1]}, found->second});
    }

    formats::tie::TieCompileOptions options;
    options.o_class = old->header.o_class;
    options.texture_count = static_cast<int>(slot_rows.size());
    options.near_dist = old->header.near_dist, options.mid_dist = old->header.mid_dist, options.far_dist = old->header.far_dist;
    const double full = old->lods[0].triangles();
    if (full > 0) options.lod1_ratio = old->lods[1].triangles() / full, options.lod2_ratio = old->lods[2].triangles() / full;
    const auto spec = formats::tie::compile_tie_class(mesh, options);
    if (!spec.ok()) throw EditRefused(spec.error().message);
    formats::Bytes block = formats::tie::write_tie_class(*spec);
    for (const auto& [at, size] : kKeptHeaderFields) std::copy_n(core.begin() + static_cast<int64_t>(extent.offset + at), size, block.begin() + static_cast<int64_t>(at));

    // New rows first: their texels go before the classes (formats.md 6.2), so the class's offset is read again after.
    images.commit();
    formats::Bytes index = level_part(parts, "core_index");
    const uint64_t field = static_cast<uint64_t>(level.core->tie_classes.offset) + entry * formats::kClassEntrySize;
    const uint64_t offset = static_cast<uint64_t>(formats::s32_at(index, field));
    core = level_part(parts, "core_data");
    const uint64_t growth = write_core_region(parts, core, offset, extent.size, block, fmt::format("tie class {}", o_class));
    parts.replace("core_data", std::move(core));
    index = level_part(parts, "core_index");
    for (size_t s = 0; s < 16; ++s) index[field + 0x10 + s] = s < slot_rows.size() ? static_cast<uint8_t>(slot_rows[s]) : 0xFF;  // §6.3 textures[16]
    parts.replace("core_index", std::move(index));

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
