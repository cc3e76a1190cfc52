#include "tree/texts.h"

#include <fmt/format.h>

namespace gcfs::tree {
namespace {

std::string range_json(formats::SectorRange r) {
    return fmt::format("{{\"offset_sectors\": {}, \"size_sectors\": {}, \"offset_bytes\": {}, \"size_bytes\": {}}}",
                       r.offset, r.size, r.byte_offset(), r.byte_size());
}

std::string utc(std::time_t t) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                       tm.tm_hour, tm.tm_min, tm.tm_sec);
}

// One region's section: its fields when it parsed, its error otherwise.
std::string region_json(const char* name, const std::string& fields, const std::string& error) {
    if (!error.empty()) return fmt::format("  \"{}\": {{\"ok\": false, \"error\": {}}},\n", name, json_string(error));
    return fmt::format("  \"{}\": {{\"ok\": true, {}}},\n", name, fields);
}

std::string occlusion_fields(const formats::OcclusionSummary& o) {
    return fmt::format("\"masks_offset\": {}, \"z_coord\": {}, \"z_count\": {}, \"z_nodes\": {}, \"y_nodes\": {}, "
                       "\"octants\": {}, \"empty_octants\": {}, \"masks\": {}",
                       o.masks_offset, o.z_coord, o.z_count, o.z_nodes, o.y_nodes, o.octants, o.empty_octants, o.masks);
}

std::string sky_fields(const formats::Sky& sky) {
    const auto& h = sky.header;
    std::string shells;
    for (size_t i = 0; i < sky.shells.size(); ++i) {
        const auto& shell = sky.shells[i];
        shells += fmt::format("{}{{\"offset\": {}, \"clusters\": {}, \"flags\": {}, \"vertices\": {}, \"triangles\": {}}}",
                              i ? ", " : "", h.shells[i], shell.cluster_count, shell.flags, shell.vertices(), shell.triangles());
    }
    return fmt::format("\"rgba\": [{}, {}, {}, {}], \"clear_screen\": {}, \"shell_count\": {}, \"sprite_count\": {}, "
                       "\"maximum_sprite_count\": {}, \"texture_count\": {}, \"fx_count\": {}, \"texture_defs\": {}, "
                       "\"texture_data\": {}, \"fx_list\": {}, \"sprites\": {}, \"vertices\": {}, \"triangles\": {}, "
                       "\"shells\": [{}]",
                       h.rgba[0], h.rgba[1], h.rgba[2], h.rgba[3], h.clear_screen, h.shell_count, h.sprite_count,
                       h.maximum_sprite_count, h.texture_count, h.fx_count, h.texture_defs, h.texture_data, h.fx_list,
                       h.sprites, sky.vertices(), sky.triangles(), shells);
}

std::string collision_fields(const formats::CollisionSummary& c) {
    return fmt::format("\"mesh_offset\": {}, \"hero_groups_offset\": {}, \"octants\": {}, \"stored_vertices\": {}, "
                       "\"stored_faces\": {}, \"vertices\": {}, \"quads\": {}, \"triangles\": {}, \"surface_types\": {}, "
                       "\"hero_groups\": {}, \"hero_vertices\": {}, \"hero_triangles\": {}",
                       c.mesh_offset, c.hero_groups_offset, c.octants, c.stored_vertices, c.stored_faces, c.vertices, c.quads,
                       c.triangles, c.surface_types, c.hero_groups, c.hero_vertices, c.hero_triangles);
}

// The occlusion, sky and collision sections (§8), with whether each parsed.
std::string geometry_json(const GeometryIndex& g, bool& ok) {
    std::string out;
    auto section = [&](const char* name, const auto& value, const std::string& error, auto fields) {
        if (!value && error.empty()) return;  // the core has no such region
        ok = ok && error.empty();
        out += region_json(name, error.empty() ? fields(*value) : std::string(), error);
    };
    section("occlusion", g.occlusion, g.occlusion_error, occlusion_fields);
    section("sky", g.sky, g.sky_error, sky_fields);
    section("collision", g.collision, g.collision_error, collision_fields);
    return out;
}

}  // namespace

std::string json_string(const std::string& text) {
    std::string out = "\"";
    for (unsigned char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) out += fmt::format("\\u{:04x}", c);
                else out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

std::string readme_text(const DiscScan& disc, const std::string& image_path) {
    std::string out = fmt::format(
        "gcfs: Ratchet & Clank 2: Going Commando disc, mounted read-only\n"
        "\n"
        "image       {}\n"
        "volume      {} (system {})\n"
        "created     {}\n"
        "levels      {} level containers in the table of contents (RC2.HDR, LBA 1001)\n"
        "\n"
        "disc/        the ISO9660 files exactly as recorded on the disc\n"
        "global/      the global WADs the table of contents lists, raw\n"
        "LEVELnn/     one folder per level container, numbered by table position (not by level id)\n"
        "  header.bin       the container's 0x60-byte header, raw\n"
        "  info.json        the parsed header, extent sizes, occlusion/sky/collision summaries, every check\n"
        "  data.bin sound_bank.bin gameplay.wad occlusion.bin   extents of the container (sector ranges)\n"
        "  gameplay.bin     gameplay.wad decompressed (WAD LZ, 16-byte header)\n"
        "  core_index.bin   the level-core header and index tables\n"
        "  core_data.wad    the level core, WAD-LZ compressed\n"
        "  core_data.bin    the level core, decompressed on first read\n"
        "  core/            regions of core_data.bin (tfrag, occlusion, sky, collision, textures)\n"
        "  preview.png      the level's terrain seen from above, height-shaded\n"
        "  collision.obj    the collision mesh (copies merged, a material per surface type), collision.mtl\n"
        "  tfrag/           terrain patches as Wavefront OBJ (LOD 0; lod1/ lod2/), terrain.obj, patches.csv\n"
        "  classes/         moby, tie, shrub class tables and the texture tables, as CSV\n"
        "  textures/        the tfrag textures as PNG (8-bit indexed, palette from gs_ram.bin)\n"
        "  audio.wad scene.wad   the level's AUDIO and SCENE WADs, raw\n"
        "by-id/NN     symlinks from the level id each header reports to its folder\n"
        ".gcfs/stats  cache size, hits, misses, bytes decoded, and every read error so far\n"
        "\n"
        "Extents have the sizes their headers declare; OBJ and CSV sizes come from small per-level\n"
        "indexes: tfrag/ is indexed when first listed, info.json and collision.obj when the level folder\n"
        "is (the head of the core is decoded once for them). Everything else is decoded lazily, on first\n"
        "read, through a byte-budgeted cache. A damaged file reads as EIO and is listed in .gcfs/stats;\n"
        "getfattr -d FILE shows where any file comes from (user.gcfs.* attributes).\n"
        "Where the numbers come from: docs/formats.md of the gcfs sources.\n"
        "\n",
        image_path, disc.volume.volume_id, disc.volume.system_id, utc(disc.volume.creation), disc.levels.size());
    for (const auto& level : disc.levels) {
        out += fmt::format("{}  id {:>3}  {}\n", level.folder, level.header ? std::to_string(level.header->id) : "?",
                           level.ok() ? "all checks pass" : "CHECK FAILED: see info.json");
    }
    return out;
}

std::string level_info_json(const LevelScan& level, const GeometryIndex* geometry,
                            const std::map<std::string, std::string>& read_errors) {
    std::string out = "{\n";
    out += fmt::format("  \"folder\": {},\n  \"table_index\": {},\n", json_string(level.folder), level.index);
    out += fmt::format("  \"container\": {{\"lba\": {}, \"size_sectors\": {}, \"offset_bytes\": {}, \"size_bytes\": {}}},\n",
                       level.part.file_lba, level.part.size_sectors, level.file_offset, level.file_size);
    if (level.header) {
        const auto& h = *level.header;
        out += fmt::format("  \"header\": {{\n    \"header_size\": {},\n    \"sector\": {},\n    \"id\": {},\n    \"reverb\": {},\n",
                           h.header_size, h.sector, h.id, h.reverb);
        out += "    \"extents\": {";
        bool first = true;
        for (const auto& e : formats::level_extents(h)) {
            out += fmt::format("{}\n      {}: {}", first ? "" : ",", json_string(e.name), range_json(e.range));
            first = false;
        }
        out += "\n    }\n  },\n";
    }
    if (level.lump) {
        out += "  \"data_lump\": {";
        bool first = true;
        for (const auto& s : formats::data_lump_sections(*level.lump)) {
            out += fmt::format("{}\n    {}: {{\"offset_bytes\": {}, \"size_bytes\": {}, \"compressed\": {}}}",
                               first ? "" : ",", json_string(s.name), s.range.offset, s.range.size,
                               s.compressed ? "true" : "false");
            first = false;
        }
        out += "\n  },\n";
    }
    if (level.core) {
        out += fmt::format("  \"core\": {{\"compressed_size\": {}, \"decompressed_size\": {}, \"regions\": {{",
                           level.core->assets_compressed_size, level.core->assets_decompressed_size);
        bool first = true;
        for (const auto& r : level.regions) {
            out += fmt::format("{}\n    {}: {{\"offset_bytes\": {}, \"size_bytes\": {}}}", first ? "" : ",",
                               json_string(r.name), r.offset, r.size);
            first = false;
        }
        out += "\n  }},\n";
    }
    bool geometry_ok = true;
    if (geometry) out += geometry_json(*geometry, geometry_ok);
    out += "  \"checks\": [";
    bool first = true;
    for (const auto& c : level.checks) {
        out += fmt::format("{}\n    {{\"name\": {}, \"ok\": {}, \"detail\": {}}}", first ? "" : ",", json_string(c.name),
                           c.ok ? "true" : "false", json_string(c.detail));
        first = false;
    }
    out += "\n  ],\n  \"read_errors\": {";
    first = true;
    for (const auto& [path, error] : read_errors) {
        out += fmt::format("{}\n    {}: {}", first ? "" : ",", json_string(path), json_string(error));
        first = false;
    }
    out += fmt::format("{}}},\n  \"ok\": {}\n}}\n", read_errors.empty() ? "" : "\n  ",
                       level.ok() && geometry_ok && read_errors.empty() ? "true" : "false");
    return out;
}

}  // namespace gcfs::tree
