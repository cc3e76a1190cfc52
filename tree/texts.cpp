#include "tree/texts.h"

#include "formats/disc/level_names.h"
#include "tree/catalogue.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace gcfs::tree {
namespace {

using Json = nlohmann::ordered_json;

Json range_json(formats::SectorRange r) {
    return {{"offset_sectors", r.offset}, {"size_sectors", r.size}, {"offset_bytes", r.byte_offset()}, {"size_bytes", r.byte_size()}};
}

std::string utc(std::time_t t) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                       tm.tm_hour, tm.tm_min, tm.tm_sec);
}

Json occlusion_fields(const formats::OcclusionSummary& o) {
    return {{"masks_offset", o.masks_offset}, {"z_coord", o.z_coord}, {"z_count", o.z_count}, {"z_nodes", o.z_nodes},
            {"y_nodes", o.y_nodes}, {"octants", o.octants}, {"empty_octants", o.empty_octants}, {"masks", o.masks}};
}

Json sky_fields(const formats::Sky& sky) {
    const auto& h = sky.header;
    Json shells = Json::array();
    for (size_t i = 0; i < sky.shells.size(); ++i) {
        const auto& shell = sky.shells[i];
        shells.push_back({{"offset", h.shells[i]}, {"clusters", shell.cluster_count}, {"flags", shell.flags},
                          {"vertices", shell.vertices()}, {"triangles", shell.triangles()}});
    }
    return {{"rgba", {h.rgba[0], h.rgba[1], h.rgba[2], h.rgba[3]}}, {"clear_screen", h.clear_screen},
            {"shell_count", h.shell_count}, {"sprite_count", h.sprite_count}, {"maximum_sprite_count", h.maximum_sprite_count},
            {"texture_count", h.texture_count}, {"fx_count", h.fx_count}, {"texture_defs", h.texture_defs},
            {"texture_data", h.texture_data}, {"fx_list", h.fx_list}, {"sprites", h.sprites}, {"vertices", sky.vertices()},
            {"triangles", sky.triangles()}, {"shells", shells}};
}

Json collision_fields(const formats::CollisionSummary& c) {
    return {{"mesh_offset", c.mesh_offset}, {"hero_groups_offset", c.hero_groups_offset}, {"octants", c.octants},
            {"stored_vertices", c.stored_vertices}, {"stored_faces", c.stored_faces}, {"vertices", c.vertices},
            {"quads", c.quads}, {"triangles", c.triangles}, {"surface_types", c.surface_types},
            {"hero_groups", c.hero_groups}, {"hero_vertices", c.hero_vertices}, {"hero_triangles", c.hero_triangles}};
}

// One section: {"ok": true, fields...} when it parsed, {"ok": false, "error"} otherwise.
Json section(const Json& fields, const std::string& error) {
    if (!error.empty()) return {{"ok", false}, {"error", error}};
    Json out = {{"ok", true}};
    out.update(fields);
    return out;
}

// The occlusion, sky and collision sections (§8), with whether each parsed.
void geometry_json(Json& out, const GeometryIndex& g, bool& ok) {
    auto add = [&](const char* name, const auto& value, const std::string& error, auto fields) {
        if (!value && error.empty()) return;  // the core has no such region
        ok = ok && error.empty();
        out[name] = section(error.empty() ? fields(*value) : Json::object(), error);
    };
    add("occlusion", g.occlusion, g.occlusion_error, occlusion_fields);
    add("sky", g.sky, g.sky_error, sky_fields);
    add("collision", g.collision, g.collision_error, collision_fields);
}

// Every gameplay block (formats-gameplay.md §2.2 order): where, how long,
// how many records, and its error.
Json gameplay_json(const GameplayIndex& g, bool& ok) {
    if (!g.error.empty()) {
        ok = false;
        return section({}, g.error);
    }
    Json blocks = Json::object();
    bool all_ok = true;
    for (const auto& [name, s] : g.blocks) {
        if (!s.present) {
            blocks[name] = {{"present", false}};
            continue;
        }
        all_ok = all_ok && s.error.empty();
        blocks[name] = section({{"offset", s.offset}, {"length", s.length}, {"records", s.records}}, s.error);
    }
    ok = ok && all_ok;
    return {{"ok", all_ok}, {"blocks", blocks}};
}

// ties/ or shrubs/: each class's extent, from the class table alone; the
// status of each is in ties.csv / shrubs.csv and verify, which decode the
// classes (info.json is read by ls -l and must not decode the core for them).
Json class_models_json(const LevelClassModels& models) {
    Json classes = Json::array();
    for (const auto& extent : models.extents())
        classes.push_back({{"name", extent.name}, {"offset", extent.offset}, {"extent", extent.size}});
    return {{"classes", classes}, {"status", fmt::format("{0}/{0}.csv", models.folder())}};
}

}  // namespace

std::string iso_damage_text(const std::vector<IsoDamage>& damage) {
    std::string out = fmt::format(
        "Part of the ISO9660 directory tree could not be read ({} problems). The game reaches every WAD through the\n"
        "table of contents (formats.md 2.3), so global/ and the level folders do not depend on it; disc/ shows\n"
        "what could be read. Each line: folder, the directory's LBA, the image byte, what is wrong.\n\n",
        damage.size());
    for (const auto& d : damage) out += fmt::format("{}\tLBA {}\tbyte {}\t{}\n", d.folder, d.lba, d.byte, d.what);
    return out;
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
        "Every name the mount shows. <N>, <NN>, <NNN>, <NNNN> and <nn> are decimal numbers, <path> any path\n"
        "below, any other <word> part of a name; a name that two records of one folder claim shows the\n"
        "second time with ~2 added, the third with ~3. OBJ files are y-up: the game's (x, y, z) written\n"
        "(x, z, -y), the frame level.glb puts the level in; CSV and JSON files keep the game's axes.\n"
        "\n"
        "{}"
        "\n"
        "Mounting reads only the table of contents; a level's headers are read, and its folder made, when\n"
        "the folder is first opened (by-id/ reads every level's headers). A level folder's link count is 1.\n"
        "Extents have the sizes their headers declare; OBJ and CSV sizes come from small per-level\n"
        "indexes: tfrag/, ties/ and shrubs/ are indexed when first listed; info.json, collision.obj, sky/ and gameplay/ when\n"
        "the level folder is (the head of the core and the gameplay stream are decoded once for them).\n"
        "Everything else is decoded lazily, on first read, through a byte-budgeted cache. A damaged\n"
        "file reads as EIO and is listed in .gcfs/stats; getfattr -d FILE shows where any file comes\n"
        "from (user.gcfs.* attributes).\n"
        "Where the numbers come from: docs/formats.md of the gcfs sources.\n"
        "\n"
        "Mounted with -o edits=DIR, these files can be written (each file is encoded again on close, and\n"
        "applied whole or refused with the reason; the image itself is only read). Many programs ignore a\n"
        "refusal's close error: it is also the last line of .gcfs/edits and the file's user.gcfs.edit\n"
        "attribute (getfattr -n user.gcfs.edit FILE). A file made under a new name is kept in DIR/drafts:\n"
        "  LEVEL<nn>/core_data.bin, gameplay.bin, hud_bank_<N>.bin, transition_textures.bin  up to 4x as long\n"
        "  LEVEL<nn>/textures/<table>_<NNN>.png   any PNG of the same width and height\n"
        "  LEVEL<nn>/gameplay/mobies.csv, ties.csv, shrubs.csv, cameras.csv, sounds.csv, env_samples.csv,\n"
        "  paths.csv, env_transitions.csv,\n"
        "  lights.csv                              rows changed, added (an empty index), copied (an index\n"
        "                                          twice) and removed; groups, pvars, links and visibility follow\n"
        "  groups.csv                              groups changed, added and removed: each lists its\n"
        "                                          members by row; a moby's group field follows\n"
        "  areas.csv                               areas changed, added and removed: each is its links;\n"
        "                                          counts, offsets and bounding sphere computed from them\n"
        "  volumes.csv                             volumes changed, added and removed; inverses, areas,\n"
        "                                          ship camera and camera-collision grid follow\n"
        "  settings.json                           the same keys and planes, any values\n"
        "  help/<language>.txt                     messages changed, added and removed (all languages follow)\n"
        "  pvars/moby_<uid>.bin                    the moby's pvar bytes, the size of its class's\n"
        "  LEVEL<nn>/level.glb                     a glTF scene saved from Blender or three.js: tie, shrub,\n"
        "                                          moby, camera, sound and volume nodes moved, turned,\n"
        "                                          duplicated (.001) or deleted, saved as the tables' edits\n"
        "  LEVEL<nn>/audio/*.wav, .vag, global/audio/.../*.wav, .vag  any WAV up to 48 kHz, or a VAG\n"
        "  global/mpeg/<NN>.<lang>.srt              cues changed, added and removed; ASCII and Windows-1252\n"
        "  global/bonus/<field>/<NN>.png, misc/debug_font.png, hud/.../*.png,\n"
        "  global/armor/textures/*.png              any PNG of the same size\n"
        "  global/hud/vendor_audio/*.wav            any WAV up to 48 kHz\n"
        "Everything derived follows the edit; edited.iso is the image with the edits applied.\n"
        "Mounted with -o mods=A:B, the edits folders A, B, ... are stacked in order (read-only; an -o edits=DIR\n"
        "goes on top): tables merge by cell, help texts by message, settings by key, subtitles by cue; where two\n"
        "folders changed the same part, or the same other file, the later wins and .gcfs/edits lists the conflict.\n"
        "\n",
        image_path, disc.volume.volume_id, disc.volume.system_id, utc(disc.volume.creation), disc.levels.size(), catalogue_text());
    // From the table of contents alone: a level's own headers are read when
    // its folder is first opened, and its checks are in its info.json.
    // The name from the TOC's header copy's id (§2.3), read with the table.
    for (const auto& level : disc.levels)
        out += fmt::format("{}  LBA {:>7}  {:>7} sectors  {}\n", level.folder, level.part.file_lba, level.part.size_sectors,
                           level.toc_header ? formats::gc_level_name(level.toc_header->id) : "");
    return out;
}

namespace {

// formats-globals.md §13 and formats-moby.md §10.2: which of the core's
// optional blocks the header names, and what each held (or why not).
Json core_blocks_json(const LevelScan& level) {
    const formats::LevelCoreHeader& h = *level.core;
    auto check = [&](const char* name) -> Json {
        for (const auto& c : level.checks)
            if (c.name == name) return {{"ok", c.ok}, {"detail", c.detail}};
        return nullptr;
    };
    Json blocks = Json::object();
    Json particles = {{"found", h.part_defs_offset != 0}, {"offset", h.part_defs_offset}, {"check", check("particle definitions")}};
    if (level.particle_defs)
        particles.update({{"slots", level.particle_defs->particle_count}, {"particles", level.particle_defs->particles.size()},
                          {"unknown_4", level.particle_defs->unknown_4}, {"bytes", level.particle_defs->size}});
    blocks["particle_definitions"] = particles;
    Json remap = {{"found", h.sound_remap_offset != 0}, {"offset", h.sound_remap_offset}, {"check", check("sound remap")}};
    if (level.sound_remap)
        remap.update({{"second_part_ofs", level.sound_remap->second_part_ofs}, {"second_part_size", level.sound_remap->second_part_size},
                      {"third_part_ofs", level.sound_remap->third_part_ofs}, {"third_part_count", level.sound_remap->third_part_count},
                      {"elements", level.sound_remap->elements.size()}, {"bytes", level.sound_remap->size}});
    blocks["sound_remap"] = remap;
    Json seqs = Json::array();
    for (const auto& seq : level.ratchet_seqs) seqs.push_back({{"slot", seq.slot}, {"offset", seq.extent.offset}, {"bytes", seq.extent.size}});
    blocks["ratchet_seqs"] = {{"found", h.ratchet_seqs != 0}, {"offset", h.ratchet_seqs}, {"check", check("ratchet sequences")}, {"sequences", seqs}};
    Json stashed = Json::array();
    for (int32_t c : level.stashed_moby_classes) stashed.push_back(c);
    blocks["moby_gs_stash"] = {{"found", h.moby_gs_stash_list != 0}, {"offset", h.moby_gs_stash_list}, {"count", h.moby_gs_stash_count},
                               {"classes", stashed}, {"check", check("moby stash")}};
    if (level.moby_stash_address) blocks["moby_gs_stash"]["gs_ram_address"] = *level.moby_stash_address;
    blocks["part_textures"] = {{"count", level.particle_textures.size()}, {"bank_offset", h.part_bank_offset}};
    blocks["fx_textures"] = {{"count", level.fx_textures.size()}, {"bank_offset", h.fx_bank_offset}};
    return blocks;
}

}  // namespace

std::string level_info_json(const LevelScan& level, const GeometryIndex* geometry, const GameplayIndex* gameplay,
                            const std::array<const LevelClassModels*, 3>& class_models) {
    Json out = {{"folder", level.folder}, {"table_index", level.index}};
    out["container"] = {{"lba", level.part.file_lba}, {"size_sectors", level.part.size_sectors},
                        {"offset_bytes", level.file_offset}, {"size_bytes", level.file_size}};
    if (level.header) {
        const auto& h = *level.header;
        Json extents = Json::object();
        for (const auto& e : formats::level_extents(h)) extents[e.name] = range_json(e.range);
        out["header"] = {{"header_size", h.header_size}, {"sector", h.sector}, {"id", h.id}, {"reverb", h.reverb},
                         {"extents", extents}};
        out["name"] = formats::gc_level_name(h.id);  // formats.md 2.4; "" for an id the references name no level for
    }
    if (level.lump) {
        Json sections = Json::object();
        for (const auto& s : formats::data_lump_sections(*level.lump))
            sections[s.name] = {{"offset_bytes", s.range.offset}, {"size_bytes", s.range.size}, {"compressed", s.compressed}};
        out["data_lump"] = sections;
    }
    if (level.core) {
        Json regions = Json::object();
        for (const auto& r : level.regions) regions[r.name] = {{"offset_bytes", r.offset}, {"size_bytes", r.size}};
        Json header = Json::object();
        for (const auto& field : formats::core_header_fields(*level.core)) header[field.name] = field.value;
        out["core"] = {{"compressed_size", level.core->assets_compressed_size},
                       {"decompressed_size", level.core->assets_decompressed_size}, {"regions", regions},
                       {"header", header}, {"blocks", core_blocks_json(level)}};
    }
    bool decoded_ok = true;
    if (geometry) geometry_json(out, *geometry, decoded_ok);
    if (gameplay) out["gameplay"] = gameplay_json(*gameplay, decoded_ok);
    for (const LevelClassModels* models : class_models)
        if (models) out[models->folder()] = class_models_json(*models);
    Json checks = Json::array();
    for (const auto& c : level.checks) checks.push_back({{"name", c.name}, {"ok", c.ok}, {"detail", c.detail}});
    out["checks"] = checks;
    // A file's decode can still fail when read; those failures are in
    // .gcfs/stats, so this file's size never changes after a stat.
    out["read_errors"] = "listed in .gcfs/stats as they happen";
    out["ok"] = level.ok() && decoded_ok;
    // Disc bytes are not UTF-8 (help text, names): replace what does not decode rather than throw.
    return out.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace gcfs::tree
