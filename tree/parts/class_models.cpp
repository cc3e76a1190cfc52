#include <fmt/format.h>

#include "tree/class_models.h"
#include "tree/parts/parts.h"
#include "tree/safe_name.h"

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
    auto models = std::make_shared<LevelClassModels>(
        f.image(), f.cache(), kind,
        LevelClassModels::Source{level.folder, f.core_stream, level.classes[table], level.boundaries, dat_size,
                                 level.texture_table(prefix).size(), f.gs_ram, window});
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
           Origins::generated(fmt::format("a material per {} texture, mapped to ../textures/ ({})", prefix, reference)));
    // Ties: LOD 0 here, lod1/ and lod2/; mobies: the high LOD here, the low one in low/.
    const int lods = kind == ClassKind::tie ? 3 : kind == ClassKind::moby ? 2 : 1;
    const uint64_t lod_dirs[3] = {dir, lods > 1 ? f.directory(dir, kind == ClassKind::moby ? "low" : "lod1") : 0, lods > 2 ? f.directory(dir, "lod2") : 0};
    if (kind == ClassKind::moby) f.tree.add_file_run(dir, std::make_shared<SkeletonRun>(models, origin("JSON", "the skeleton (11)")));
    FolderNames names[3];
    for (size_t c = 0; c < models->listed().size(); ++c) {
        const std::string name = safe_name(fmt::format("{}_{}", prefix, models->listed()[c]));
        for (int lod = 0; lod < lods; ++lod)
            f.file(lod_dirs[lod], names[lod].claim(name + ".obj"), std::make_shared<ClassModelFile>(models, Kind::obj, c, lod),
                   origin("OBJ", fmt::format("class {}, LOD {}", models->listed()[c], lod)));
    }
    if (kind != ClassKind::shrub) return;
    const auto& entries = level.classes[table];
    size_t c = 0;
    for (const auto& entry : entries) {
        if (entry.offset_in_asset_wad == 0) continue;
        if (entry.billboard[0] != 0)  // §1.11 (b): width 0 means no image
            f.file(dir, names[0].claim(safe_name(fmt::format("shrub_{}_billboard.png", entry.o_class))),
                   std::make_shared<ClassModelFile>(models, Kind::billboard, c),
                   f.decoded(0, 0, "8-bit indexed PNG", fmt::format("billboard of shrub class {}: gs_ram.bin (formats-shrub.md 1.11)", entry.o_class)));
        ++c;
    }
}

}  // namespace

void mobies(LevelFolder& f) { class_models(f, ClassKind::moby); }
void ties(LevelFolder& f) { class_models(f, ClassKind::tie); }
void shrubs(LevelFolder& f) { class_models(f, ClassKind::shrub); }

}  // namespace gcfs::tree::parts
