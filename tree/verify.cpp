#include "tree/verify.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace gcfs::tree {
namespace {

// 18102 -> "18,102", as the seed log writes its totals.
std::string grouped(uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

void stream_check(LevelVerdict& v, const char* name, const std::shared_ptr<const WadStream>& stream, const char* rule) {
    if (!stream) return;
    const cache::Loaded decoded = stream->decoded();
    v.checks.push_back({name, decoded.bytes != nullptr,
                        decoded.bytes ? fmt::format("{} bytes; {}", decoded.bytes->size(), rule) : decoded.error});
}

// A window decoded from the head of the stream (for tfrag/, info.json,
// collision.obj) must equal the same bytes of the fully decoded core.
void prefix_check(LevelVerdict& v, const char* name, const LevelDecoders& d, const cache::Loaded& window, uint64_t at) {
    if (!d.core_data || !window.bytes) return;
    const cache::Loaded core = d.core_data->decoded();
    if (!core.bytes) return;
    const bool same = at + window.bytes->size() <= core.bytes->size() &&
                      std::memcmp(core.bytes->data() + at, window.bytes->data(), window.bytes->size()) == 0;
    v.checks.push_back({name, same, fmt::format("{} bytes at core_data.bin 0x{:x}", window.bytes->size(), at)});
}

void terrain_checks(LevelVerdict& v, const LevelDecoders& d, const LevelScan& level) {
    const TerrainIndex& index = d.terrain->index();
    if (!index.error.empty()) {
        v.checks.push_back({"tfrag block decodes", false, index.error});
        return;
    }
    const auto& patches = index.summary.patches;
    v.patches = patches.size();
    v.vertices = index.summary.lod0_vertices();
    v.triangles = index.summary.lod0_triangles();
    v.rejected = v.patches - index.summary.good_patches();
    const auto first_bad = std::find_if(patches.begin(), patches.end(), [](const auto& p) { return !p.ok; });
    v.checks.push_back(
        {"tfrag patch counts", v.rejected == 0,
         first_bad == patches.end()
             ? fmt::format("{} patches: every vert_count and tri_count matches its lists, every index in range (§7.10)",
                           v.patches)
             : fmt::format("{} of {} patches rejected; first: patch {}: {}", v.rejected, v.patches, first_bad->index,
                           first_bad->error)});
    // §6.3/§7.5: each ad-gif's TEX0 names a texture of the tfrag table.
    const auto table = static_cast<int64_t>(level.texture_table("tfrag").size());
    const auto stray = std::find_if(patches.begin(), patches.end(), [&](const auto& p) {
        return p.ok && (p.lowest_texture < 0 || p.highest_texture >= table);
    });
    v.checks.push_back({"tfrag textures in the texture table", stray == patches.end(),
                        stray == patches.end()
                            ? fmt::format("every ad-gif names one of the {} tfrag textures", table)
                            : fmt::format("patch {} names textures {}..{}, the table has {}", stray->index,
                                          stray->lowest_texture, stray->highest_texture, table)});
    prefix_check(v, "tfrag prefix decode equals the core", d, d.terrain->block(), d.terrain->source().block_offset);
}

// §8: each region the core names parses with every declared range inside it.
void geometry_checks(LevelVerdict& v, const LevelDecoders& d, bool render) {
    const LevelGeometry& geometry = *d.geometry;
    const GeometryIndex& g = geometry.index();
    auto check = [&](const char* name, bool present, const std::string& error, auto detail) {
        if (!present && error.empty()) return;  // no such region
        v.checks.push_back({name, error.empty(), error.empty() ? detail() : error});
    };
    check("occlusion grid parses", g.occlusion.has_value(), g.occlusion_error, [&] {
        return fmt::format("{} octants naming {} masks; every node and mask inside the block (§8.1)", g.occlusion->octants,
                           g.occlusion->masks);
    });
    check("sky parses", g.sky.has_value(), g.sky_error, [&] {
        return fmt::format("{} shells, {} textures, {} vertices, {} triangles; every range inside the block (§8.2)",
                           g.sky->shells.size(), g.sky->textures.size(), g.sky->vertices(), g.sky->triangles());
    });
    check("collision parses", g.collision.has_value(), g.collision_error, [&] {
        return fmt::format("{} octants, each x entry's size equal to its counts; {} vertices, {} quads, {} triangles "
                           "after merging copies; {} hero groups (§8.3)",
                           g.collision->octants, g.collision->vertices, g.collision->quads, g.collision->triangles,
                           g.collision->hero_groups);
    });
    if (g.sky && render) {
        const cache::Loaded obj = geometry.sky_obj();
        v.checks.push_back({"sky.obj renders its listed size", obj.bytes != nullptr,
                            obj.bytes ? fmt::format("{} bytes; {} shells as meshes, every face texture a def or none as "
                                                    "its shell's flag says (formats-tie-sky.md B.4, B.5)",
                                                    obj.bytes->size(), g.sky->shells.size())
                                      : obj.error});
    }
    if (g.collision && render) {
        const cache::Loaded obj = geometry.collision_obj();
        v.checks.push_back({"collision.obj renders its listed size", obj.bytes != nullptr,
                            obj.bytes ? fmt::format("{} bytes", obj.bytes->size()) : obj.error});
    }
    prefix_check(v, "core head decode equals the core", d, geometry.head(), geometry.head_from());
}

// formats-gameplay.md: one line per present block (its records and bytes,
// or its error), then every gameplay/ file rendered at the size it lists.
void gameplay_checks(LevelVerdict& v, const LevelGameplay& gameplay) {
    const GameplayIndex& index = gameplay.index();
    if (!index.error.empty()) {
        v.checks.push_back({"gameplay blocks decode", false, index.error});
        return;
    }
    for (const auto& [name, s] : index.blocks) {
        if (!s.present) continue;
        v.checks.push_back({fmt::format("gameplay {}", name), s.error.empty(),
                            s.error.empty() ? fmt::format("{} records in {} bytes at gameplay.bin 0x{:x}; its counts fit "
                                                          "before the next block, its links resolve (§3, §6)",
                                                          s.records, s.length, s.offset)
                                            : s.error});
        if (std::string_view(name) == "moby instances") v.mobies = s.records;
        if (std::string_view(name) == "tie instances") v.ties = s.records;
        if (std::string_view(name) == "shrub instances") v.shrubs = s.records;
    }
    uint64_t listed = 0, failed = 0;
    for (const auto& f : index.files) {
        listed += f.size;
        failed += !f.error.empty();
    }
    const cache::Loaded all = gameplay.rendered();
    v.checks.push_back({"gameplay files render their listed sizes", all.bytes && all.bytes->size() == listed,
                        all.bytes ? fmt::format("{} files, {} bytes rendered, {} listed; {} unreadable for a damaged block",
                                                index.files.size(), all.bytes->size(), listed, failed)
                                  : all.error});
}

// formats-tie-sky.md A, formats-shrub.md: a line per class (its totals, or
// why it was rejected), each OBJ, billboard and moby .glb rendered at its listed size.
void class_model_checks(LevelVerdict& v, const LevelClassModels& models, bool render) {
    const ClassModelIndex& index = models.index();
    for (size_t c = 0; c < index.classes.size(); ++c) {
        const ClassModel& m = index.classes[c];
        if (!m.error.empty()) {
            v.checks.push_back({m.extent.name, false, m.error});
            continue;
        }
        std::vector<std::string> lods, failures;
        for (int lod = 0; lod < m.lods; ++lod) {
            lods.push_back(fmt::format("{} vertices {} triangles", m.counts[lod].vertices, m.counts[lod].triangles));
            if (!render) continue;
            const cache::Loaded obj = models.obj(c, lod);
            if (!obj.bytes) failures.push_back(obj.error);
        }
        if (render && m.billboard_width && !models.billboard_png(c).bytes) failures.push_back("billboard image does not render");
        for (int lod = 0; render && lod < 2; ++lod)  // the rigged .glb of each moby LOD, at its listed size
            if (models.kind() == ClassKind::moby && m.counts[lod].triangles > 0)
                if (const cache::Loaded glb = models.glb(c, lod); !glb.bytes) failures.push_back(glb.error);
        v.checks.push_back({m.extent.name, failures.empty(),
                            failures.empty() ? fmt::format("{} at core_data.bin 0x{:x}: {}; materials {}; {}{}", models.prefix(), m.extent.offset,
                                                           fmt::join(lods, ", then "), fmt::join(m.materials, " "),
                                                           m.notes.empty() ? "every declared count agrees" : fmt::format("{}", fmt::join(m.notes, "; ")),
                                                           m.billboard_width ? fmt::format("; billboard {}x{}", m.billboard_width, m.billboard_height) : "")
                                             : failures.front()});
    }
}

// level.glb: what the scene holds (the totals the Blender and validator
// tests compare); collision.glb: its meshes and triangles. Each renders at
// the size stat reported.
void scene_checks(LevelVerdict& v, const LevelScene& scene) {
    const SceneIndex& index = scene.index();
    const SceneCounts& c = index.counts;
    const cache::Loaded glb = scene.glb();
    const std::string totals =
        scene.file_name() == "level.glb"
            ? fmt::format("{} bytes: {} ties, {} shrubs, {} mobies ({} without a mesh), {} paths, {} volumes, {} cameras, {} lights, "
                          "{} sounds; {} meshes, {} images, {} triangles drawn",
                          index.size, c.ties, c.shrubs, c.mobies, c.empty, c.paths, c.volumes, c.cameras, c.lights, c.sounds, c.meshes,
                          c.images, c.triangles)
            : fmt::format("{} bytes: {} meshes, {} triangles drawn", index.size, c.meshes, c.triangles);
    v.checks.push_back({scene.file_name(), glb.bytes != nullptr, glb.bytes ? totals : glb.error});
}

// Every file under `folder`, read whole through its source: what a copy of
// the folder would meet (an open error, a read error, a length that is not
// the one stat gave).
void read_every_file(const Tree& tree, uint64_t folder, FolderVerdict& v, bool recurse = true) {
    std::vector<uint64_t> dirs = {folder};
    std::vector<uint8_t> buffer(1 << 20);
    while (!dirs.empty()) {
        const uint64_t dir = dirs.back();
        dirs.pop_back();
        std::vector<std::pair<std::string, uint64_t>> files;
        tree.for_each_child(dir, 0, [&](const std::string& name, uint64_t ino, NodeType type) {
            if (type == NodeType::directory && recurse) dirs.push_back(ino);
            if (type == NodeType::file) files.emplace_back(name, ino);
            return true;
        });
        for (const auto& [name, ino] : files) {
            const std::shared_ptr<const Source> held = tree.node(ino)->source;
            const Source& source = *held;
            const std::string path = tree.path_of(ino);
            std::string error = source.open_error();
            const uint64_t size = source.size();
            uint64_t at = 0;
            while (error.empty() && at < size) {
                const ReadOutcome got = source.read(at, buffer);
                if (!got.ok()) error = got.error;
                else if (got.bytes == 0) error = fmt::format("reads {} bytes, stat gives {}", at, size);
                at += got.bytes;
            }
            if (error.empty() && source.read(at, buffer).bytes != 0) error = fmt::format("reads past the {} bytes stat gives", size);
            ++v.files;
            v.bytes += at;
            if (!error.empty()) v.failures.push_back({path, false, error});
        }
    }
}

}  // namespace

bool LevelVerdict::ok() const {
    return std::all_of(checks.begin(), checks.end(), [](const Check& c) { return c.ok; });
}

bool DiscVerdict::ok() const {
    return std::all_of(levels.begin(), levels.end(), [](const LevelVerdict& l) { return l.ok(); }) &&
           std::all_of(globals.begin(), globals.end(), [](const FolderVerdict& g) { return g.ok(); });
}

LevelVerdict verify_level(const Disc& disc, size_t index, LevelDepth depth) {
    const LevelScan& level = disc.scan.levels.at(index);
    LevelVerdict v;
    v.folder = level.folder;
    v.id = level.header ? std::to_string(level.header->id) : "?";
    v.checks = level.checks;  // tiling, units, region order, sizes: checked when the folder was built
    decoder_checks(disc, index, depth, v);
    return v;
}

void decoder_checks(const Disc& disc, size_t index, LevelDepth depth, LevelVerdict& v) {
    const LevelScan& level = disc.scan.levels.at(index);
    if (const auto folder = disc.tree.resolve(level.folder)) (void)disc.tree.folder_error(*folder);  // builds it: its decoders are made
    const auto found = disc.decoders.find(level.folder);
    if (found != disc.decoders.end()) {
        const LevelDecoders& d = found->second;
        stream_check(v, kCoreDecodesCheck, d.core_data, "exactly the size core header 0x8C declares (§6.1)");
        stream_check(v, "gameplay decodes", d.gameplay, "the stream is consumed to its declared end (§9)");
        if (d.terrain) terrain_checks(v, d, level);
        const bool render = depth != LevelDepth::indexes;
        if (d.geometry) geometry_checks(v, d, render);
        if (d.gameplay_index) gameplay_checks(v, *d.gameplay_index);
        for (const auto& models : {d.mobies, d.ties, d.shrubs})
            if (models) class_model_checks(v, *models, render);
        if (d.scene && render) scene_checks(v, *d.scene);
        if (d.collision_scene && render) scene_checks(v, *d.collision_scene);
    }
    // Every file of the folder, as a copy would meet it: the extents
    // against the image's end, every stream and every texture bank decoded.
    if (const auto folder = disc.tree.resolve(level.folder); folder && depth == LevelDepth::every_file) {
        FolderVerdict files;
        read_every_file(disc.tree, *folder, files);
        v.checks.push_back({"every file reads", files.ok(),
                            files.ok() ? fmt::format("{} files, {} bytes, each at the size stat gives", files.files, files.bytes)
                                       : fmt::format("{} of {} files fail; first: {}: {}", files.failures.size(), files.files,
                                                     files.failures.front().name, files.failures.front().detail)});
    }
}

DiscVerdict verify_disc(const Disc& disc) {
    DiscVerdict verdict;
    disc.tree.build_all();  // every level's headers read and its decoders made
    for (size_t i = 0; i < disc.scan.levels.size(); ++i) verdict.levels.push_back(verify_level(disc, i, LevelDepth::every_file));
    // disc/ as recorded (and what of its ISO9660 tree could not be read),
    // global/'s raw WADs, then each global/ folder gcfs opens, file by file.
    if (const auto iso = disc.tree.resolve("disc")) {
        FolderVerdict d{"disc"};
        read_every_file(disc.tree, *iso, d);
        for (const auto& damage : disc.scan.iso_damage)
            d.failures.push_back({damage.folder, false, fmt::format("ISO9660 directory at LBA {}, image byte {}: {}", damage.lba,
                                                                   damage.byte, damage.what)});
        verdict.globals.push_back(std::move(d));
    }
    const auto global = disc.tree.resolve("global");
    if (global) {
        FolderVerdict raw{"global"};
        read_every_file(disc.tree, *global, raw, false);
        verdict.globals.push_back(std::move(raw));
        disc.tree.for_each_child(*global, 0, [&](const std::string& name, uint64_t ino, NodeType type) {
            if (type != NodeType::directory) return true;
            FolderVerdict g{"global/" + name};
            read_every_file(disc.tree, ino, g);
            verdict.globals.push_back(std::move(g));
            return true;
        });
    }
    return verdict;
}

std::string render_verdict(const DiscVerdict& verdict) {
    std::string out = fmt::format("{:<8} {:>4} {:>7} {:>8} {:>9} {:>10} {:>9} {:>7} {:>6} {:>7}  {}\n", "level", "id", "checks",
                                  "patches", "vertices", "triangles", "rejected", "mobies", "ties", "shrubs", "result");
    uint64_t patches = 0, vertices = 0, triangles = 0, rejected = 0, failed_checks = 0, mobies = 0, ties = 0, shrubs = 0;
    for (const auto& l : verdict.levels) {
        const auto passed = std::count_if(l.checks.begin(), l.checks.end(), [](const Check& c) { return c.ok; });
        out += fmt::format("{:<8} {:>4} {:>7} {:>8} {:>9} {:>10} {:>9} {:>7} {:>6} {:>7}  {}\n", l.folder, l.id,
                           fmt::format("{}/{}", passed, l.checks.size()), grouped(l.patches), grouped(l.vertices),
                           grouped(l.triangles), grouped(l.rejected), grouped(l.mobies), grouped(l.ties),
                           grouped(l.shrubs), l.ok() ? "ok" : "FAILED");
        mobies += l.mobies;
        ties += l.ties;
        shrubs += l.shrubs;
        patches += l.patches;
        vertices += l.vertices;
        triangles += l.triangles;
        rejected += l.rejected;
        failed_checks += l.checks.size() - static_cast<uint64_t>(passed);
    }
    out += fmt::format("{:<8} {:>4} {:>7} {:>8} {:>9} {:>10} {:>9} {:>7} {:>6} {:>7}\n", "total", "", "", grouped(patches),
                       grouped(vertices), grouped(triangles), grouped(rejected), grouped(mobies), grouped(ties),
                       grouped(shrubs));
    out += fmt::format("\n{} levels, {} patches, {} vertices, {} triangles, {}\n", verdict.levels.size(),
                       grouped(patches), grouped(vertices), grouped(triangles),
                       failed_checks == 0 ? std::string("zero mismatches")
                                          : fmt::format("{} failed check{}", grouped(failed_checks),
                                                        failed_checks == 1 ? "" : "s"));
    if (!verdict.globals.empty()) {
        out += fmt::format("\n{:<16} {:>7} {:>12}  {}\n", "global", "files", "bytes", "result");
        for (const auto& g : verdict.globals)
            out += fmt::format("{:<16} {:>7} {:>12}  {}\n", g.folder, grouped(g.files), grouped(g.bytes),
                               g.ok() ? "ok" : fmt::format("FAILED ({} files)", g.failures.size()));
    }
    for (const auto& l : verdict.levels)
        for (const auto& c : l.checks)
            if (!c.ok) out += fmt::format("FAILED {}: {}: {}\n", l.folder, c.name, c.detail);
    for (const auto& g : verdict.globals)
        for (const auto& c : g.failures) out += fmt::format("FAILED {}: {}\n", c.name, c.detail);
    return out;
}

std::string render_checks(const DiscVerdict& verdict) {
    std::string out;
    for (const auto& l : verdict.levels)
        for (const auto& c : l.checks)
            out += fmt::format("{:<8} {:<6} {}: {}\n", l.folder, c.ok ? "ok" : "FAILED", c.name, c.detail);
    for (const auto& g : verdict.globals) {
        out += fmt::format("{:<8} {:<6} every file reads at its stat size: {} files, {} bytes\n", g.folder, g.ok() ? "ok" : "FAILED",
                           g.files, g.bytes);
        for (const auto& c : g.failures) out += fmt::format("{:<8} FAILED {}: {}\n", g.folder, c.name, c.detail);
    }
    return out;
}

}  // namespace gcfs::tree
