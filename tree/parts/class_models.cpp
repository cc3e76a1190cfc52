#include <fmt/format.h>

#include "tree/level/class_models.h"
#include "tree/parts/parts.h"
#include "tree/node/safe_name.h"

namespace gcfs::tree::parts {
namespace {

// ties/, shrubs/ or mobies/: a model per class of the core's table, named at
// mount from the table alone; the class index is built on the first stat inside.
void class_models(LevelFolder& f, ClassKind kind) {
    const LevelScan& level = f.level;
    const int table = kind == ClassKind::moby ? 0 : kind == ClassKind::tie ? 1 : 2;  // LevelScan::classes: moby, tie, shrub
    if (!f.core || !level.core || level.classes[table].empty()) return;
    const char* prefix = kind == ClassKind::moby ? "moby" : kind == ClassKind::tie ? "tie" : "shrub";
    const auto dat_size = static_cast<uint64_t>(level.core->assets_decompressed_size);
    auto& window = f.decoders().class_window;
    if (!window) window = std::make_shared<const ClassWindow>(class_window(level.classes, level.boundaries, dat_size));
    LevelClassModels::Source source{level.folder, f.core_stream, level.classes[table], level.boundaries, dat_size,
                                    level.texture_table(prefix).size(), f.gs_ram, {}, window};
    if (kind == ClassKind::moby) source.textures = texture_files(f);  // a .glb embeds its PNGs
    auto models = std::make_shared<LevelClassModels>(f.image(), f.cache(), kind, std::move(source));
    (kind == ClassKind::moby ? f.decoders().mobies : kind == ClassKind::tie ? f.decoders().ties : f.decoders().shrubs) = models;
    if (models->listed().empty()) return;
    const uint64_t dir = f.directory(f.dir, models->folder());
    const char* reference = kind == ClassKind::moby ? "formats-moby.md" : kind == ClassKind::tie ? "formats-tie-sky.md A" : "formats-shrub.md";
    auto origin = [&](const std::string& output, const std::string& what) {
        return f.decoded(f.core_stream.offset, f.core_stream.available, LevelFolder::kWadLz + std::string(", then ") + output,
                         fmt::format("{} ({})", what, reference));
    };
    using Kind = ClassModelFile::Kind;
    f.file(dir, fmt::format("{}.csv", models->folder()), std::make_shared<ClassModelFile>(models, Kind::csv), origin("CSV", "every class's counts"));
    f.file(dir, fmt::format("{}.mtl", models->folder()), std::make_shared<ClassModelFile>(models, Kind::mtl),
           f.decoded(f.core_index_offset, f.core_index_length, fmt::format("MTL written from the {} texture table's row count", prefix),
                     fmt::format("a material per {} texture, mapped to ../textures/ (core_index.bin, formats.md 6.3; {})", prefix, reference)));
    // LOD 0 (ties), the high LOD (mobies) here, named from the table; ties' lod1/ and lod2/
    // and mobies' low/ list the classes whose LOD has triangles, known once the index is built.
    FolderNames names;
    for (size_t c = 0; c < models->listed().size(); ++c)
        f.file(dir, names.claim(safe_name(fmt::format("{}_{}.obj", prefix, models->listed()[c]))), std::make_shared<ClassModelFile>(models, Kind::obj, c, 0),
               origin("OBJ", fmt::format("class {}, LOD 0", models->listed()[c])));
    using What = ClassFileRun::What;
    const std::vector<std::pair<const char*, int>> lower = kind == ClassKind::tie ? std::vector<std::pair<const char*, int>>{{"lod1", 1}, {"lod2", 2}}
                                                          : kind == ClassKind::moby ? std::vector<std::pair<const char*, int>>{{"low", 1}}
                                                                                    : std::vector<std::pair<const char*, int>>{};
    const auto rigged = [&](const char* lod) {
        return *origin("glTF 2.0 binary", fmt::format("the {} and its bangles skinned to the skeleton (8.7, 11, 12), textures embedded", lod));
    };
    for (const auto& [folder, lod] : lower)
        f.tree.add_file_run(f.directory(dir, folder), std::make_shared<ClassFileRun>(models, What::lod, lod, *origin("OBJ", fmt::format("LOD {}", lod)),
                                                                                     kind == ClassKind::moby ? rigged("low LOD") : Provenance{}));
    if (kind == ClassKind::moby)
        f.tree.add_file_run(dir, std::make_shared<ClassFileRun>(models, What::rigs, 0, *origin("JSON", "the skeleton (11)"), rigged("high LOD")));
    if (kind != ClassKind::shrub) return;
    const auto& entries = level.classes[table];
    size_t c = 0;
    for (const auto& entry : entries) {
        if (entry.offset_in_asset_wad == 0) continue;
        if (entry.billboard[0] != 0) {  // §1.11 (b): width 0 means no image
            // Its palette and texels in gs_ram.bin, in units of 0x100 (§1.11 (b)).
            const auto field = [&](int k) { return static_cast<uint64_t>(static_cast<uint16_t>(entry.billboard[k])); };
            const uint64_t palette = field(3) * formats::kPaletteUnit, texels = field(4) * formats::kPaletteUnit;
            f.file(dir, names.claim(safe_name(fmt::format("shrub_{}_billboard.png", entry.o_class))),
                   std::make_shared<ClassModelFile>(models, Kind::billboard, c),
                   f.from_gs_ram(std::min(palette, texels), std::max(palette + formats::kPaletteBytes, texels + field(0) * field(1)),
                                 "8-bit indexed PNG", fmt::format("billboard of shrub class {}: gs_ram.bin (formats-shrub.md 1.11)", entry.o_class)));
        }
        ++c;
    }
}

}  // namespace

void mobies(LevelFolder& f) { class_models(f, ClassKind::moby); }
void ties(LevelFolder& f) { class_models(f, ClassKind::tie); }
void shrubs(LevelFolder& f) { class_models(f, ClassKind::shrub); }

}  // namespace gcfs::tree::parts
