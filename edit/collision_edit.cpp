#include "edit/collision_edit.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>

#include "edit/core_region.h"
#include "edit/edit_refused.h"
#include "edit/level_parts.h"
#include "formats/collision/collision_compile.h"
#include "formats/collision/collision_export.h"
#include "formats/import/model_read.h"

namespace gcfs::edit {
namespace {

constexpr const char* kHeroMaterial = "hero";  // collision.obj's hero groups (formats/collision/collision_export.cpp)

// "col_1f" -> 0x1f, as collision_material_name writes it.
std::optional<uint8_t> surface_type(const std::string& material) {
    unsigned value = 0;
    if (material.size() != 6 || !material.starts_with("col_")) return std::nullopt;
    const auto [end, ec] = std::from_chars(material.data() + 4, material.data() + 6, value, 16);
    if (ec != std::errc() || end != material.data() + 6 || formats::collision_material_name(static_cast<uint8_t>(value)) != material)
        return std::nullopt;
    return static_cast<uint8_t>(value);
}

// The file's faces in the game's axes: a y-up file's (x, y, z) is the game's (x, -z, y), the inverse of formats/export/axes.h.
formats::CollisionMeshIn collision_mesh(const formats::ModelMesh& model, uint64_t& hero_faces) {
    formats::CollisionMeshIn mesh;
    for (const auto& p : model.positions) mesh.positions.push_back({p[0], 0.0 - p[2], p[1]});
    for (size_t n = 0; n < model.faces.size(); ++n) {
        const auto& face = model.faces[n];
        const std::string& material = model.materials.at(face.material);
        if (material == kHeroMaterial) {
            ++hero_faces;
            continue;
        }
        const auto type = surface_type(material);
        if (!type)
            throw EditRefused(fmt::format("face {} has the material \"{}\", which names no surface type: collision.mtl's col_00 … col_ff do", n + 1,
                                          material));
        if (face.corners.size() > 4)
            throw EditRefused(fmt::format("face {} has {} corners: the collision block holds triangles and quads (formats.md 8.3); triangulate "
                                          "it first", n + 1, face.corners.size()));
        formats::CollisionMeshIn::Face f;
        f.corners = static_cast<uint8_t>(face.corners.size());
        f.type = *type;
        std::copy(face.corners.begin(), face.corners.end(), f.v.begin());
        mesh.faces.push_back(f);
    }
    return mesh;
}

}  // namespace

std::string apply_collision(LevelParts& parts, const tree::LevelScan& level, formats::ByteSpan content) {
    const formats::CoreRegion* region = level.region("collision");
    if (!region) throw EditRefused("the level's core has no collision region (formats.md 6.1 0x14)");
    const auto model = formats::read_model(content);
    if (!model.ok()) throw EditRefused(model.error().message);
    uint64_t hero_faces = 0;
    const formats::CollisionMeshIn mesh = collision_mesh(*model, hero_faces);
    if (mesh.faces.empty()) throw EditRefused("the file has no face with a surface type (col_00 … col_ff)");

    formats::Bytes core = level_part(parts, "core_data");
    if (region->offset + region->size > core.size()) throw EditRefused("the level's collision region lies past its core_data");
    const auto old = formats::parse_collision(formats::ByteSpan(core).subspan(region->offset, region->size));
    if (!old.ok()) throw EditRefused(fmt::format("the level's collision block does not read ({}), so its hero groups cannot be kept", old.error().describe()));
    auto octants = formats::compile_collision(mesh);
    if (!octants.ok()) throw EditRefused(octants.error().message);

    formats::Collision collision;
    collision.octants = std::move(*octants);
    collision.hero_groups = old->hero_groups;
    formats::Bytes block;
    try {
        block = formats::write_collision(collision);
    } catch (const std::invalid_argument& e) {
        throw EditRefused(fmt::format("the collision block cannot be written: {}", e.what()));
    }
    const uint64_t growth = write_core_region(parts, core, region->offset, region->size, block, "collision");
    const uint64_t room = region->size + growth;
    parts.replace("core_data", std::move(core));
    return fmt::format("{} faces in {} octants, {} of the collision region's {} bytes{}; the level's {} hero groups kept as they were{}",
                       mesh.faces.size(), collision.octants.size(), block.size(), room,
                       growth ? fmt::format(" (grown by {}, the core's later blocks moved)", growth) : std::string(), collision.hero_groups.size(),
                       hero_faces ? fmt::format(" ({} faces under usemtl hero not read)", hero_faces) : std::string());
}

}  // namespace gcfs::edit
