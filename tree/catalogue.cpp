#include "tree/catalogue.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace gcfs::tree {
namespace {

constexpr std::string_view kDamaged = "a part it comes from cannot be read: it reads as EIO and info.json says why";

// In tree order. Section numbers are of formats.md and its companions.
constexpr std::array kEntries = std::to_array<CatalogueEntry>({
    {"README.txt", "this file: the disc, its levels, and what every name of the mount is"},
    {"disc/", "the ISO9660 file tree exactly as recorded"},
    {"disc/<path>", "a file or folder of the disc as recorded; a name that could be more than one path step is escaped (%2F), "
                    "one past 255 bytes cut and ended with ~h and a hash"},
    {"disc/.damaged", "what of the ISO9660 tree cannot be read: each problem's folder, LBA and image byte",
     "part of the ISO9660 tree cannot be read"},
    {"global/", "the global WADs the table of contents lists, raw, and a folder for each one gcfs opens"},
    {"global/<wad>.wad", "a global WAD as recorded (armor audio bonus gadget hud misc mpeg scene space); space, scene and "
                         "gadget have no published layout and stay raw (formats-globals.md 10)"},
    {"global/audio/", "the vendor's lines and the spoken help (formats-globals.md 2)"},
    {"global/audio/vendor/", "the vendor's lines"},
    {"global/audio/vendor/<NNN>.vag", "a line's VAG as stored"},
    {"global/audio/vendor/<NNN>.wav", "the same decoded: 16-bit PCM WAV, a loop as a smpl chunk"},
    {"global/audio/help/", "the spoken help, a folder per language"},
    {"global/audio/help/<language>/", "one language's help lines (english french german spanish italian)"},
    {"global/audio/help/<language>/<NNN>.vag", "a help line's VAG as stored"},
    {"global/audio/help/<language>/<NNN>.wav", "the same decoded to WAV"},
    {"global/audio/audio.csv", "every slot of the six tables with its VAG's header and frames"},
    {"global/audio/info.json", "the WAD's header, every slot and every failure"},
    {"global/mpeg/", "the cutscenes (formats-globals.md 4)"},
    {"global/mpeg/<NN>.pss", "a cutscene as recorded: an MPEG-2 program stream"},
    {"global/mpeg/<NN>.wav", "its sound track (private stream 1: SShd, SSbd, PS-ADPCM), 16-bit PCM; for a cutscene that has one"},
    {"global/mpeg/<NN>.mpg", "the cutscene with that sound as DVD LPCM, which every player plays; where LPCM can carry its rate"},
    {"global/mpeg/<NN>.<lang>.srt", "its subtitles in one language (en fr de es it), SubRip in UTF-8; the game's bytes >= 0x80 "
                                    "read as Windows-1252"},
    {"global/mpeg/subtitles.csv", "every subtitle of every cutscene, times in seconds"},
    {"global/mpeg/info.json", "the WAD's header, every slot and every failure"},
    {"global/armor/", "Ratchet's armor sets and wrenches (formats-globals.md 6)"},
    {"global/armor/armor_<N>.obj", "an armor set's high LOD, textured, y-up"},
    {"global/armor/wrench_<N>.obj", "a wrench's high LOD, textured, y-up"},
    {"global/armor/armor_<N>.glb", "the armor set's high LOD as glTF 2.0, one armature, its textures embedded"},
    {"global/armor/wrench_<N>.glb", "the wrench's high LOD as glTF 2.0, one armature, its textures embedded"},
    {"global/armor/low/", "the low LODs, of the models that have one"},
    {"global/armor/low/armor_<N>.obj", "an armor set's low LOD"},
    {"global/armor/low/wrench_<N>.obj", "a wrench's low LOD"},
    {"global/armor/low/armor_<N>.glb", "an armor set's low LOD as glTF 2.0, as armor_<N>.glb is"},
    {"global/armor/low/wrench_<N>.glb", "a wrench's low LOD as glTF 2.0, as wrench_<N>.glb is"},
    {"global/armor/textures/", "the models' textures"},
    {"global/armor/textures/<model>_<N>.png", "texture N of a model's texture list (8-bit PIF)"},
    {"global/armor/armor.mtl", "a material per texture of every model"},
    {"global/armor/armor.csv", "every model: packets, vertices, triangles, textures"},
    {"global/armor/info.json", "the WAD's header, every model and every failure"},
    {"global/bonus/", "the bonus gallery (formats-globals.md 7)"},
    {"global/bonus/<table>/", "an image table of the BONUS header (goodies_images, sketchbook, credits_images, ...)"},
    {"global/bonus/<table>/<NN>.png", "one of its images (a PIF, or an RGBA image for credits_images)"},
    {"global/bonus/credits_text_<N>.bin", "a part of credits_text as recorded"},
    {"global/bonus/credits_text.bin", "credits_text, whose part offsets cannot be read", kDamaged},
    {"global/bonus/bonus.csv", "every present range of the BONUS header with its image's header"},
    {"global/bonus/info.json", "the WAD's header, every range and every failure"},
    {"global/misc/", "the debug font, the IOP modules and the front end (formats-globals.md 8)"},
    {"global/misc/debug_font.png", "the debug font (an 8-bit PIF)"},
    {"global/misc/irx/", "the IRX table's items, decompressed"},
    {"global/misc/irx/<module>.irx", "an IOP module"},
    {"global/misc/irx/image.png", "the IRX table's RGBA image"},
    {"global/misc/irx/table.bin", "the IRX table, which cannot be read", kDamaged},
    {"global/misc/save_game.bin", "the save_game range, raw"},
    {"global/misc/frontend.bin", "the frontend range, raw"},
    {"global/misc/exit.bin", "the exit range, raw"},
    {"global/misc/frontbin.bin", "the front end's ratchet executable as recorded"},
    {"global/misc/frontbin.elf", "the same rebuilt as an ELF: a section per block"},
    {"global/misc/frontbin_net.bin", "frontbin_net decompressed"},
    {"global/misc/info.json", "the WAD's header, every item and every failure"},
    {"global/hud/", "the HUD WAD's ranges, named by their header field (formats-globals.md 9)"},
    {"global/hud/<field>.bin", "a one-range field as recorded (hud_header, vendor, all_text, hudw3d)"},
    {"global/hud/<field>/", "a field of several ranges (hud_banks, mission_ss, vendor_audio, ...)"},
    {"global/hud/<field>/<NN>.bin", "one of its ranges as recorded: its index, two digits or more (vendor_audio/276.bin)"},
    {"global/hud/<path>.decoded.bin", "beside a range whose first bytes are a WAD-LZ stream: decompressed; no layout confirms it"},
    {"global/hud/<path>.png", "beside a range (or its decoded stream) whose first bytes are a PIF: the picture; found by its bytes"},
    {"global/hud/<path>.wav", "beside a range whose first bytes are a VAG: decoded; found by its bytes"},
    {"global/hud/info.json", "the WAD's header, every range, what its bytes prove, every failure"},
    {"LEVEL<nn>/", "one level container, numbered by its table-of-contents position (not by level id)"},
    {"LEVEL<nn>/header.bin", "the container's header, raw (formats.md 3.1)"},
    {"LEVEL<nn>/info.json", "the parsed headers, extents, data-lump sections, core regions, occlusion, sky, collision and "
                            "gameplay summaries, every check, and every read failure met since mounting"},
    {"LEVEL<nn>/data.bin", "the data extent (sector range of the container)"},
    {"LEVEL<nn>/sound_bank.bin", "the sound bank extent"},
    {"LEVEL<nn>/occlusion.bin", "the occlusion extent"},
    {"LEVEL<nn>/gameplay.wad", "the gameplay extent, WAD-LZ compressed"},
    {"LEVEL<nn>/gameplay.bin", "gameplay.wad decompressed (formats.md 9)"},
    {"LEVEL<nn>/overlay.bin", "the data lump's overlay section, raw (formats.md 4.1)"},
    {"LEVEL<nn>/overlay.elf", "the level's code overlay, a ratchet executable rebuilt as an ELF: Wrench's section names for the "
                              "overlay's seven blocks, .block_<N> for any other shape (formats-globals.md 8)"},
    {"LEVEL<nn>/core_index.bin", "the level core's header and index tables (formats.md 6.1)"},
    {"LEVEL<nn>/gs_ram.bin", "the data lump's GS memory image: palettes and stashed textures"},
    {"LEVEL<nn>/hud_header.bin", "the data lump's HUD header, raw"},
    {"LEVEL<nn>/hud_bank_<N>.wad", "a HUD bank, WAD-LZ compressed"},
    {"LEVEL<nn>/hud_bank_<N>.bin", "the same decompressed"},
    {"LEVEL<nn>/core_data.wad", "the level core, WAD-LZ compressed"},
    {"LEVEL<nn>/core_data.bin", "the level core decompressed, on first read"},
    {"LEVEL<nn>/transition_textures.wad", "the loading screen's textures, WAD-LZ compressed"},
    {"LEVEL<nn>/transition_textures.bin", "the same decompressed"},
    {"LEVEL<nn>/transition/", "the transition textures: a texture list of PIFs (formats-globals.md 5)"},
    {"LEVEL<nn>/transition/<NN>.png", "one of them as PNG (mip level 0)"},
    {"LEVEL<nn>/transition/list.txt", "the texture list, which cannot be read", kDamaged},
    {"LEVEL<nn>/particles.csv", "per particle of the core's definitions: frames, side (the largest frame's), each frame's side, "
                                "its part_textures rows in playing order, status (formats-globals.md 13)"},
    {"LEVEL<nn>/particles/", "the particles: animations of part_textures entries"},
    {"LEVEL<nn>/particles/<NNN>.png", "a particle as an animated PNG (APNG), looped, 1/15 s a frame (gcfs's choice: the "
                                      "references give no rate); smaller frames sit top left on a transparent canvas"},
    {"LEVEL<nn>/particles/<NNN>/", "the particle's frames"},
    {"LEVEL<nn>/particles/<NNN>/frame_<NN>.png", "one frame, an 8-bit indexed PNG from the particle bank"},
    {"LEVEL<nn>/sound_remap.bin", "the level's sound remap, raw: its meaning is unknown (formats-globals.md 13, GC layout)"},
    {"LEVEL<nn>/sound_remap.csv", "its element table: offset and size in 4-byte words of each element"},
    {"LEVEL<nn>/ratchet_seqs/", "Ratchet's sequences, a block of core_data.bin per set slot of the 256 (formats-globals.md 13)"},
    {"LEVEL<nn>/ratchet_seqs/seq_<NNN>.bin", "one sequence, raw: its layout is unpublished"},
    {"LEVEL<nn>/audio.wad", "the level's AUDIO WAD, raw (formats-globals.md 3)"},
    {"LEVEL<nn>/scene.wad", "the level's SCENE WAD, raw (no published layout)"},
    {"LEVEL<nn>/core/", "regions of core_data.bin (formats.md 6.2)"},
    {"LEVEL<nn>/core/<region>.bin", "one region: tfrag, occlusion, sky, collision or textures"},
    {"LEVEL<nn>/preview.png", "the terrain from above, height-shaded, with the ties, shrubs and mobies placed on it"},
    {"LEVEL<nn>/level.glb", "the whole level as one glTF 2.0 scene: terrain, sky, placed ties, shrubs and mobies, paths, "
                            "volumes, cameras, lights, sounds"},
    {"LEVEL<nn>/collision.glb", "the collision mesh as glTF 2.0, in level.glb's frame: a material per surface type"},
    {"LEVEL<nn>/collision.obj", "the collision mesh: octant copies merged, quads kept, a material per surface type, an "
                                "object per hero group (formats.md 8.3); under -o edits, any model file saved over it is the new mesh"},
    {"LEVEL<nn>/collision.mtl", "a material per collision surface type"},
    {"LEVEL<nn>/sky/", "the sky (formats-tie-sky.md B)"},
    {"LEVEL<nn>/sky/sky.obj", "its shells: textured with vt, gradient with vertex colours, at their stored scale; under -o edits, any model file "
                              "saved over it is the new sky"},
    {"LEVEL<nn>/sky/sky.mtl", "a material per sky texture"},
    {"LEVEL<nn>/sky/sky_<NNN>.png", "a sky texture; writable under -o edits"},
    {"LEVEL<nn>/tfrag/", "the terrain (formats.md 7)"},
    {"LEVEL<nn>/tfrag/terrain.obj", "every patch at LOD 0 in one object, a group per patch; under -o edits, any model file saved over it is the "
                                    "new terrain"},
    {"LEVEL<nn>/tfrag/terrain.mtl", "a material per tfrag texture, mapped to ../textures/tfrag_NNN.png"},
    {"LEVEL<nn>/tfrag/patches.csv", "per patch: offsets, header counts, decoded counts, status, error"},
    {"LEVEL<nn>/tfrag/patch_<NNNN>.obj", "one patch at LOD 0"},
    {"LEVEL<nn>/tfrag/lod<N>/", "the patches at a lower level of detail (lod1, lod2)"},
    {"LEVEL<nn>/tfrag/lod<N>/patch_<NNNN>.obj", "one patch at that LOD"},
    {"LEVEL<nn>/gameplay/", "the level's layout decoded from gameplay.bin (formats-gameplay.md)"},
    {"LEVEL<nn>/gameplay/mobies.csv", "moby instances"},
    {"LEVEL<nn>/gameplay/ties.csv", "tie instances"},
    {"LEVEL<nn>/gameplay/shrubs.csv", "shrub instances"},
    {"LEVEL<nn>/gameplay/cameras.csv", "cameras"},
    {"LEVEL<nn>/gameplay/sounds.csv", "sound instances"},
    {"LEVEL<nn>/gameplay/lights.csv", "point and directional lights"},
    {"LEVEL<nn>/gameplay/volumes.csv", "cuboids, spheres, cylinders and pills"},
    {"LEVEL<nn>/gameplay/groups.csv", "moby, tie and shrub groups"},
    {"LEVEL<nn>/gameplay/areas.csv", "areas"},
    {"LEVEL<nn>/gameplay/paths.csv", "the points of every path and grind path"},
    {"LEVEL<nn>/gameplay/env_samples.csv", "environment sample points"},
    {"LEVEL<nn>/gameplay/env_transitions.csv", "environment transitions"},
    {"LEVEL<nn>/gameplay/settings.json", "the level settings block"},
    {"LEVEL<nn>/gameplay/paths.obj", "paths as OBJ lines, y-up"},
    {"LEVEL<nn>/gameplay/grind_paths.obj", "grind paths as OBJ lines, y-up"},
    {"LEVEL<nn>/gameplay/volumes.obj", "the volumes as OBJ meshes, y-up"},
    {"LEVEL<nn>/gameplay/help/", "the help messages, a file per language that has text"},
    {"LEVEL<nn>/gameplay/help/<language>.txt", "one language's messages as UTF-8, bytes read as Windows-1252 like the subtitles; control and undefined bytes as \\xNN"},
    {"LEVEL<nn>/gameplay/pvars/", "the mobies' pvars"},
    {"LEVEL<nn>/gameplay/pvars/moby_<uid>.bin", "one moby's pvar bytes, raw"},
    {"LEVEL<nn>/classes/", "the core's class and texture tables as CSV"},
    {"LEVEL<nn>/classes/mobies.csv", "the moby class table; gs_stash says whether the class is on the GS stash list (its "
                                     "textures stay in GS memory, formats-moby.md 10.2)"},
    {"LEVEL<nn>/classes/ties.csv", "the tie class table"},
    {"LEVEL<nn>/classes/shrubs.csv", "the shrub class table"},
    {"LEVEL<nn>/classes/textures.csv", "every texture table"},
    {"LEVEL<nn>/mobies/", "moby classes, the actors, in bind pose (formats-moby.md)"},
    {"LEVEL<nn>/mobies/moby_<class>.obj", "a class's high LOD, y-up; each bangle (an optional sub-mesh, formats-moby.md 12) a group "
                                          "bangle_<entry> of its own"},
    {"LEVEL<nn>/mobies/moby_<class>.skeleton.json", "its joints, for the classes that have them"},
    {"LEVEL<nn>/mobies/moby_<class>.glb", "the high LOD rigged, one armature: the mesh and each bangle (a mesh moby_<class>_bangle_<entry>_high_lod) "
                                           "on one skin of the class's joints, each vertex weighted as its blend record says; its textures embedded, "
                                           "so the file travels alone"},
    {"LEVEL<nn>/mobies/low/", "the low LODs"},
    {"LEVEL<nn>/mobies/low/moby_<class>.obj", "a class's low LOD, for the classes that have one, with its bangles' low LODs as groups"},
    {"LEVEL<nn>/mobies/low/moby_<class>.glb", "the low LOD rigged as moby_<class>.glb is, its bangles' low LODs on the same skin"},
    {"LEVEL<nn>/mobies/mobies.mtl", "a material per moby texture, mapped to ../textures/moby_NNN.png"},
    {"LEVEL<nn>/mobies/mobies.csv", "every class's counts, status and error: high_/low_ columns count the main mesh, high_bangle_/low_bangle_ columns the bangles; "
                                     "a class without a model has a row saying so"},
    {"LEVEL<nn>/ties/", "tie classes, the level's structures, in class space (formats-tie-sky.md A)"},
    {"LEVEL<nn>/ties/tie_<class>.obj", "a class at LOD 0, y-up; under -o edits, any model file saved over it is the new class"},
    {"LEVEL<nn>/ties/lod<N>/", "the classes at a lower LOD (lod1, lod2)"},
    {"LEVEL<nn>/ties/lod<N>/tie_<class>.obj", "a class at that LOD, where it has triangles"},
    {"LEVEL<nn>/ties/ties.mtl", "a material per tie texture, mapped to ../textures/tie_NNN.png"},
    {"LEVEL<nn>/ties/ties.csv", "every class's counts, status and error"},
    {"LEVEL<nn>/shrubs/", "shrub classes, plants and props (formats-shrub.md)"},
    {"LEVEL<nn>/shrubs/shrub_<class>.obj", "a class, y-up; under -o edits, any model file saved over it is the new class"},
    {"LEVEL<nn>/shrubs/shrub_<class>_billboard.png", "its far-distance billboard, from gs_ram.bin"},
    {"LEVEL<nn>/shrubs/shrubs.mtl", "a material per shrub texture, mapped to ../textures/shrub_NNN.png"},
    {"LEVEL<nn>/shrubs/shrubs.csv", "every class's counts (strips and triangle lists apart), billboard, status and error"},
    {"LEVEL<nn>/textures/", "every texture table as 8-bit indexed PNG"},
    {"LEVEL<nn>/textures/tfrag_<NNN>.png", "a terrain texture, its palette from gs_ram.bin"},
    {"LEVEL<nn>/textures/moby_<NNN>.png", "a moby texture (stashed ones from gs_ram.bin)"},
    {"LEVEL<nn>/textures/tie_<NNN>.png", "a tie texture"},
    {"LEVEL<nn>/textures/shrub_<NNN>.png", "a shrub texture"},
    {"LEVEL<nn>/textures/part_<NNN>.png", "a particle texture, from its bank in the core"},
    {"LEVEL<nn>/textures/fx_<NNN>.png", "an fx texture, from its bank in the core"},
    {"LEVEL<nn>/audio/", "the level's sound effects (formats-globals.md 3)"},
    {"LEVEL<nn>/audio/sfx_<NNN>.vag", "a sound effect's VAG as stored"},
    {"LEVEL<nn>/audio/sfx_<NNN>.wav", "the same decoded to WAV"},
    {"LEVEL<nn>/audio/upgrade_sample.vag", "the upgrade sample's VAG"},
    {"LEVEL<nn>/audio/upgrade_sample.wav", "the same decoded to WAV"},
    {"LEVEL<nn>/audio/thermanator_freeze.vag", "the Thermanator's freeze sound"},
    {"LEVEL<nn>/audio/thermanator_freeze.wav", "the same decoded to WAV"},
    {"LEVEL<nn>/audio/thermanator_thaw.vag", "the Thermanator's thaw sound"},
    {"LEVEL<nn>/audio/thermanator_thaw.wav", "the same decoded to WAV"},
    {"LEVEL<nn>/audio/audio.csv", "every present slot with its VAG's header and frames"},
    {"LEVEL<nn>/audio/info.json", "the WAD's slots and every failure"},
    {"by-id/", "the levels by the id each header reports (table order is not identity)"},
    {"by-id/<id>", "a symlink to the level folder reporting that id"},
    {"by-id/<id>-LEVEL<nn>", "a second container reporting an id another one reports", "two containers report one id"},
    {"by-name/", "the levels by the name of the id each header reports (formats.md 2.4)"},
    {"by-name/<name>", "a symlink to the level folder reporting that level's id; an id the references name no level for keeps its number"},
    {"by-name/<name>-LEVEL<nn>", "a second container reporting an id another one reports", "two containers report one id"},
    {".gcfs/", "the daemon's own files"},
    {".gcfs/log", "the program's last log lines (up to 500, oldest first): each EIO's line with the file and byte offset, whatever syslog keeps"},
    {".gcfs/stats", "cache budget, resident and live bytes, hits, misses, loads that waited for room, bytes decoded and walked past to reach a window, and every read error so far"},
    {"edited.iso", "the image with the containers of every applied edit re-encoded and every other sector as recorded; cmp finds it "
                   "equal to the image while there are no edits", "mounted with -o edits=DIR or -o mods=A:B"},
    {".gcfs/edits", "every edit: applied (how it was encoded) or refused (why), and the containers it changed with their new sizes; "
                    "under -o mods, the mod folders in order and every conflict between them",
     "mounted with -o edits=DIR or -o mods=A:B"},
});

bool is_digits_token(std::string_view token) {
    return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) { return c == 'n' || c == 'N'; });
}

// "~<N>" at the start of `s`, as FolderNames adds: its length, or 0.
size_t copy_suffix(std::string_view s) {
    if (s.size() < 2 || s[0] != '~' || !std::isdigit(static_cast<unsigned char>(s[1]))) return 0;
    size_t n = 1;
    while (n < s.size() && std::isdigit(static_cast<unsigned char>(s[n]))) ++n;
    return n;
}

bool match_from(std::string_view p, std::string_view s) {
    if (p.empty()) return s.empty() || copy_suffix(s) == s.size();
    if (p[0] == '<') {
        const size_t close = p.find('>');
        const std::string_view token = p.substr(1, close - 1), rest = p.substr(close + 1);
        const bool digits = is_digits_token(token), any = token == "path";
        for (size_t n = 1; n <= s.size(); ++n) {
            const char c = s[n - 1];
            if (digits && !std::isdigit(static_cast<unsigned char>(c))) break;
            if (!any && c == '/') break;
            if (match_from(rest, s.substr(n))) return true;
        }
        return false;
    }
    if (p[0] == '/' && !s.empty() && s[0] != '/') {  // a step's end: its copy suffix first
        const size_t suffix = copy_suffix(s);
        return suffix > 0 && suffix < s.size() && s[suffix] == '/' && match_from(p.substr(1), s.substr(suffix + 1));
    }
    return !s.empty() && s[0] == p[0] && match_from(p.substr(1), s.substr(1));
}

}  // namespace

std::span<const CatalogueEntry> catalogue() { return kEntries; }

bool matches(std::string_view pattern, std::string_view path) { return match_from(pattern, path); }

const CatalogueEntry* describe(std::string_view path) {
    for (const CatalogueEntry& e : kEntries)
        if (matches(e.pattern, path)) return &e;
    return nullptr;
}

std::string catalogue_text() {
    constexpr size_t kColumns = 118;  // descriptions wrap under themselves
    size_t width = 0;
    for (const CatalogueEntry& e : kEntries) width = std::max(width, e.pattern.size());
    const size_t indent = width + 2;
    std::string out;
    for (const CatalogueEntry& e : kEntries) {
        std::string what(e.what);
        if (!e.only_when.empty()) what += " (only where " + std::string(e.only_when) + ")";
        std::string line(e.pattern);
        line.append(indent - line.size(), ' ');
        size_t at = 0;
        while (at < what.size()) {
            size_t end = what.size();
            if (indent + (end - at) > kColumns) {
                end = what.rfind(' ', at + (kColumns - indent));
                if (end == std::string::npos || end <= at) end = what.find(' ', at + 1);  // a word longer than the column
                if (end == std::string::npos) end = what.size();
            }
            line += what.substr(at, end - at);
            out += line + '\n';
            line.assign(indent, ' ');
            at = end < what.size() ? end + 1 : end;
        }
    }
    return out;
}

}  // namespace gcfs::tree
