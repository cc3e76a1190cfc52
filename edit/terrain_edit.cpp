#include "edit/terrain_edit.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <utility>
#include <optional>
#include <set>

#include "edit/core_region.h"
#include "edit/edit_refused.h"
#include "edit/gameplay_edit.h"
#include "edit/texture_import.h"
#include "formats/occlusion/occlusion.h"
#include "formats/gameplay/block_readers.h"
#include "formats/gameplay/gameplay.h"
#include "formats/import/model_read.h"
#include "formats/tfrag/tfrag_compile.h"
#include "formats/tfrag/tfrag_export.h"
#include "formats/tfrag/tfrag_read.h"

namespace gcfs::edit {
namespace {

using Point = std::array<int64_t, 3>;
constexpr formats::TfragRgba kNeutral{0x80, 0x80, 0x80, 0x80};  // formats.md 7.3: 0x80 is the GS's 1.0, a texture as drawn

// "tfrag_012" -> 12, as tfrag_material_name writes it; a texture of the level's table.
std::optional<int32_t> tfrag_texture(const std::string& material, size_t table) {
    int32_t value = 0;
    if (!material.starts_with("tfrag_")) return std::nullopt;
    const char* end = material.data() + material.size();
    const auto [at, ec] = std::from_chars(material.data() + 6, end, value);
    if (ec != std::errc() || at != end || value < 0 || static_cast<size_t>(value) >= table || formats::tfrag_material_name(value) != material)
        return std::nullopt;
    return value;
}

// What the level's terrain gives the new one: its header's passed-through
// fields, its LOD ratios and mip distance, and the colour and light of
// each position, by position (1/1024 units). A patch that does not read
// gives nothing.
struct OldTerrain {
    formats::TfragWriteOptions header;
    formats::TerrainCompileOptions compile;
    std::map<Point, std::pair<formats::TfragRgba, formats::TfragLight>> at;
};

OldTerrain old_terrain(formats::ByteSpan block) {
    OldTerrain old;
    const auto header = formats::parse_tfrags_header(block);
    if (!header.ok()) return old;
    old.header.thingy = header->thingy;
    old.header.mysterious_second_thingy = header->mysterious_second_thingy;
    std::array<uint64_t, 3> triangles{};
    for (uint32_t i = 0; i < static_cast<uint32_t>(header->tfrag_count); ++i) {
        const auto patch = formats::read_tfrag_patch(block, *header, i);
        if (!patch.ok()) continue;
        for (int lod = 0; lod < 3; ++lod) triangles[lod] += formats::strip_triangle_count(patch->lods[lod].strips);
        old.compile.mip_dist = std::max(old.compile.mip_dist, patch->mip_dist);
        size_t n = 0;
        for (const auto& tier : patch->positions)
            for (const auto& p : tier) {
                const Point q{int64_t{patch->base[0]} + p.x, int64_t{patch->base[1]} + p.y, int64_t{patch->base[2]} + p.z};
                if (n < patch->rgba.size() && n < patch->lights.size()) old.at.emplace(q, std::make_pair(patch->rgba[n], patch->lights[n]));
                ++n;
            }
    }
    if (triangles[0] > 0) {
        old.compile.lod1_ratio = static_cast<double>(triangles[1]) / static_cast<double>(triangles[0]);
        old.compile.lod2_ratio = static_cast<double>(triangles[2]) / static_cast<double>(triangles[0]);
    }
    return old;
}

// The file's faces in the game's axes (a y-up file's (x, y, z) is the
// game's (x, -z, y), the inverse of formats/export/axes.h) and terrain.obj's
// texture coordinates (vt = (s, 1 - t), formats/tfrag/tfrag_export.cpp).
formats::TerrainMeshIn terrain_mesh(const formats::ModelMesh& model, size_t table, TableImages& images, const OldTerrain& old, uint64_t& kept_colours) {
    formats::TerrainMeshIn mesh;
    for (size_t i = 0; i < model.positions.size(); ++i) {
        const auto& p = model.positions[i];
        mesh.positions.push_back({p[0], 0.0 - p[2], p[1]});
        formats::TfragRgba colour = kNeutral;
        std::optional<formats::TfragLight> light;
        Point q{};
        for (int a = 0; a < 3; ++a) q[a] = std::llround(mesh.positions.back()[a] * 1024.0);
        if (const auto it = old.at.find(q); it != old.at.end()) {
            colour = it->second.first;
            light = it->second.second;
            ++kept_colours;
        }
        if (!model.colours.empty()) {
            const auto& c = model.colours[i];
            auto byte = [](double v) { return static_cast<uint8_t>(std::clamp(std::lround(v * 255.0), 0L, 255L)); };
            colour = {byte(c[0]), byte(c[1]), byte(c[2]), 0x80};
        }
        mesh.colours.push_back(colour);
        mesh.lights.push_back(light);
    }
    // Each material's texture: a row terrain.mtl names, else its image's row (edit/texture_import.h).
    std::map<uint32_t, int32_t> texture_of;
    for (size_t n = 0; n < model.faces.size(); ++n) {
        const auto& face = model.faces[n];
        auto found = texture_of.find(face.material);
        if (found == texture_of.end()) {
            const std::string& material = model.materials.at(face.material);
            const formats::ModelMesh::Image& image = model.material_images.at(face.material);
            std::optional<int32_t> texture = tfrag_texture(material, table);
            if (!texture && image.path.empty())
                throw EditRefused(fmt::format("face {} has the material \"{}\", which names no tfrag texture (terrain.mtl's tfrag_000 … {} do) and "
                                              "has no image",
                                              n + 1, material, table ? formats::tfrag_material_name(static_cast<int32_t>(table - 1)) : "(none)"));
            if (!texture) texture = static_cast<int32_t>(images.row_for(image, material));
            found = texture_of.emplace(face.material, *texture).first;
        }
        const int32_t texture = found->second;
        // A polygon as a fan from its first corner (assimp keeps the file's polygons, model_read.h).
        for (size_t k = 1; k + 1 < face.corners.size(); ++k) {
            formats::TerrainMeshIn::Triangle t;
            t.texture = texture;
            const std::array<uint32_t, 3> corners{face.corners[0], face.corners[k], face.corners[k + 1]};
            for (int c = 0; c < 3; ++c) {
                t.corners[c] = corners[c];
                if (!model.uvs.empty()) t.st[c] = {model.uvs[corners[c]][0], 1.0 - model.uvs[corners[c]][1]};
            }
            mesh.triangles.push_back(t);
        }
    }
    return mesh;
}

// formats-gameplay.md 3.17: the tfrag mappings name tfrag indices, which
// now name other patches. Every new patch takes the lowest bit the old
// tfrag mappings used; that bit is shown in every mask, the others they
// alone used are cleared (edit/terrain_edit.h).
std::string remap_tfrag_visibility(LevelParts& parts, const tree::LevelScan& level, uint32_t patches) {
    namespace gp = formats::gameplay;
    const formats::Bytes gameplay = level_part(parts, "gameplay");
    const gp::Gameplay g = gp::read_gameplay(gameplay);
    const bool has_copy = level.header && !level.header->occlusion.empty();
    std::optional<gp::OcclusionMappings> found;
    if (g.occlusion.present()) {
        if (!g.occlusion.ok()) throw EditRefused(fmt::format("gameplay.bin's occlusion mappings do not decode ({}), and the new patches need them", g.occlusion.error));
        found = *g.occlusion.value;
    } else if (has_copy) {
        const formats::Bytes copy = level_part(parts, "occlusion");
        auto read = formats::capture([&] {
            uint64_t length = 0;
            return gp::read_occlusion(copy, 0, length);
        });
        if (!read.ok()) throw EditRefused(fmt::format("the level's occlusion mappings (occlusion.bin) do not decode ({}), and the new patches need them", read.error().describe()));
        found = std::move(*read);
    }
    if (!found || found->kinds[0].empty()) return "the level maps no tfrag to a visibility bit, so none is culled by one";
    gp::OcclusionMappings after = *found;
    int32_t bit = found->kinds[0][0].bit_index;
    for (const auto& m : found->kinds[0]) bit = std::min(bit, m.bit_index);
    after.kinds[0].clear();
    for (uint32_t i = 0; i < patches; ++i) after.kinds[0].push_back({bit, static_cast<int32_t>(i)});
    gp::Visibility v;
    v.shown_everywhere = {bit};
    for (const auto& m : found->kinds[0]) {
        bool named = m.bit_index == bit;
        for (size_t kind = 1; kind < 3 && !named; ++kind)
            named = std::any_of(after.kinds[kind].begin(), after.kinds[kind].end(), [&](const auto& o) { return o.bit_index == m.bit_index; });
        if (!named) v.freed.insert(m.bit_index);
    }
    std::string status = fmt::format("the {} patches mapped to visibility bit {}", patches, bit);
    if (g.occlusion.present()) {
        auto blocks = gp::raw_blocks(g);
        blocks[static_cast<size_t>(gp::Block::occlusion)] = gp::encode_occlusion(after);
        parts.replace("gameplay", gp::assemble(blocks));
        status += " in gameplay.bin";
    }
    if (has_copy) {
        parts.replace("occlusion", gp::encode_occlusion(after));
        status += g.occlusion.present() ? " and occlusion.bin" : " in occlusion.bin";
    }
    return status + "; " + show_visibility_bits(parts, level, v);
}

// Octants (4×4×4 world units, formats/occlusion/occlusion.h) a camera
// over the new ground can be in: every one a triangle's bounds touch, and
// those up to kCameraClearance over it. The references give no camera
// height; 16 world units (four octants) is gcfs's choice. Octants whose
// coordinates a u16 cannot hold (below zero) are counted, not added.
constexpr double kCameraClearance = 16.0;
// §8.1's node offsets are u16 in units of 4 bytes: 256 KiB of nodes, each x entry 2 bytes.
constexpr size_t kMaxGridEntries = 131072;

std::set<formats::OcclusionGrid::Octant> ground_octants(const formats::TerrainMeshIn& mesh, uint64_t& outside) {
    // Per column of octants (x, y) the lowest and highest z any triangle over it reaches, then every octant between:
    // a camera under an overhang or between two layers of ground is over the new ground too.
    std::map<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>> columns;
    for (const auto& t : mesh.triangles) {
        std::array<double, 3> low{INFINITY, INFINITY, INFINITY}, high{-INFINITY, -INFINITY, -INFINITY};
        for (uint32_t c : t.corners)
            for (int a = 0; a < 3; ++a) low[a] = std::min(low[a], mesh.positions[c][a]), high[a] = std::max(high[a], mesh.positions[c][a]);
        high[2] += kCameraClearance;
        std::array<int64_t, 3> from{}, to{};
        for (int a = 0; a < 3; ++a) from[a] = static_cast<int64_t>(std::floor(low[a] / 4)), to[a] = static_cast<int64_t>(std::floor(high[a] / 4));
        for (int64_t x = from[0]; x <= to[0]; ++x)
            for (int64_t y = from[1]; y <= to[1]; ++y) {
                auto [it, fresh] = columns.try_emplace({x, y}, from[2], to[2]);
                if (!fresh) it->second = {std::min(it->second.first, from[2]), std::max(it->second.second, to[2])};
                if (columns.size() > kMaxGridEntries)
                    throw EditRefused(fmt::format("the new ground spans more than {} columns of octants; the occlusion grid's u16 node offsets "
                                                  "(formats.md 8.1) hold about that many entries", kMaxGridEntries));
            }
    }
    std::set<formats::OcclusionGrid::Octant> out;
    outside = 0;
    for (const auto& [xy, z] : columns)
        for (int64_t k = z.first; k <= z.second; ++k) {
            if (std::min({xy.first, xy.second, k}) < 0 || std::max({xy.first, xy.second, k}) > 0xFFFF) {
                ++outside;
                continue;
            }
            out.insert({static_cast<uint16_t>(xy.first), static_cast<uint16_t>(xy.second), static_cast<uint16_t>(k)});
            if (out.size() > kMaxGridEntries)
                throw EditRefused(fmt::format("the new ground needs more than {} octants; the occlusion grid's u16 node offsets (formats.md 8.1) "
                                              "hold about that many entries", kMaxGridEntries));
        }
    return out;
}

struct GridGrowth {
    std::string status;
    uint64_t at = 0, growth = 0;  // where the core grew, and by how much
};

// The grid extended over the new ground: each octant there that had no mask
// names one new mask with every bit set (everything drawn: the old masks
// cannot speak for this ground). Octants that had a mask keep it.
GridGrowth extend_grid(LevelParts& parts, const tree::LevelScan& level, const formats::TerrainMeshIn& mesh) {
    const formats::CoreRegion* region = level.region("occlusion");
    if (!region) return {"the level has no occlusion grid, so nothing is culled by one"};
    formats::Bytes core = level_part(parts, "core_data");
    if (region->offset + region->size > core.size()) throw EditRefused("the occlusion grid lies past core_data's end");
    auto grid = formats::read_occlusion_grid(formats::ByteSpan(core).subspan(region->offset, region->size));
    if (!grid.ok()) throw EditRefused("the occlusion grid (formats.md 8.1) does not read, and the new ground needs octants in it: " + grid.error().describe());
    uint64_t outside = 0, added = 0;
    const auto wanted = ground_octants(mesh, outside);
    const auto everything = static_cast<uint16_t>(grid->masks.size());
    for (const auto& octant : wanted) added += grid->octants.emplace(octant, everything).second;
    std::string status = fmt::format("{} octants over the new ground", wanted.size());
    if (outside) status += fmt::format(" ({} more below zero, which §8.1's u16 coordinates cannot name)", outside);
    if (added == 0) return {status + ", each with a mask already"};
    if (everything == 0xFFFF) throw EditRefused("the occlusion grid has 65,535 masks, and the new ground needs one more (formats.md 8.1: 0xFFFF is no mask)");
    grid->masks.emplace_back();
    grid->masks.back().fill(0xFF);
    auto bytes = formats::write_occlusion_grid(*grid);
    if (!bytes.ok()) throw EditRefused("the occlusion grid cannot hold the new ground's octants: " + bytes.error().message);
    const uint64_t growth = write_core_region(parts, core, region->offset, region->size, *bytes, "occlusion");
    parts.replace("core_data", std::move(core));
    return {fmt::format("{}, {} of them new, naming a new mask with every bit set{}", status, added,
                        growth ? fmt::format(" (the grid grew by {})", growth) : std::string()),
            region->offset + region->size, growth};
}

}  // namespace

std::string apply_terrain(LevelParts& parts, const tree::LevelScan& level, formats::ByteSpan content) {
    const formats::CoreRegion* region = level.region("tfrag");
    if (!region) throw EditRefused("the level's core has no tfrag region (formats.md 6.1 0x08)");
    const size_t table = level.texture_table("tfrag").size();
    const auto model = formats::read_model(content);
    if (!model.ok()) throw EditRefused(model.error().message);

    formats::Bytes core = level_part(parts, "core_data");
    if (region->offset + region->size > core.size()) throw EditRefused("the level's tfrag region lies past its core_data");
    const OldTerrain old = old_terrain(formats::ByteSpan(core).subspan(region->offset, region->size));
    uint64_t kept_colours = 0;
    TableImages images(parts, formats::TextureTable::tfrag, "tfrag");
    const formats::TerrainMeshIn mesh = terrain_mesh(*model, table, images, old, kept_colours);
    auto compiled = formats::compile_terrain(mesh, old.compile);
    if (!compiled.ok()) throw EditRefused(compiled.error().message);
    formats::Bytes block;
    try {
        block = formats::write_tfrags(compiled->patches, old.header);
    } catch (const std::invalid_argument& e) {
        throw EditRefused(fmt::format("the tfrag block cannot be written: {}", e.what()));
    }

    // The new texture rows first: their texels go at the end of the shared
    // textures, after every block this edit writes (formats.md 6.1), so no
    // offset the scan found for those blocks moves.
    images.commit();
    // The occlusion data next, while the grid is where the scan found it;
    // then the tfrag block, its offset moved if the grid grew before it.
    const std::string visibility = remap_tfrag_visibility(parts, level, static_cast<uint32_t>(compiled->patches.size()));
    const GridGrowth grid = extend_grid(parts, level, mesh);
    core = level_part(parts, "core_data");
    const uint64_t offset = region->offset + (grid.growth && region->offset >= grid.at ? grid.growth : 0);
    const uint64_t growth = write_core_region(parts, core, offset, region->size, block, "tfrag");
    parts.replace("core_data", std::move(core));

    uint64_t triangles = 0;
    for (const auto& p : compiled->patches) triangles += formats::strip_triangle_count(p.lods[0].strips);
    std::string status = fmt::format("{} triangles in {} patches (LOD ratios {:.2f} and {:.2f}), {} of the tfrag region's {} bytes{}", triangles,
                                     compiled->patches.size(), old.compile.lod1_ratio, old.compile.lod2_ratio, block.size(), region->size + growth,
                                     growth ? fmt::format(" (grown by {}, the core's later blocks moved)", growth) : std::string());
    if (compiled->dropped_triangles) status += fmt::format("; {} triangles within one quantum (1/1024) dropped", compiled->dropped_triangles);
    status += model->colours.empty() ? fmt::format("; colours: {} positions kept the old terrain's, the rest 0x80", kept_colours)
                                     : std::string("; colours from the file");
    if (const std::string said = images.status(); !said.empty()) status += "; " + said;
    return status + "; " + visibility + "; " + grid.status;
}

}  // namespace gcfs::edit
