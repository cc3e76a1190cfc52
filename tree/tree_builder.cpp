#include "tree/tree_builder.h"

#include <fmt/format.h>

#include <set>

#include "tree/sources.h"
#include "tree/texts.h"
#include "tree/texture_file.h"

namespace gcfs::tree {
namespace {

using namespace formats;

uint64_t ensure_directories(Tree& tree, uint64_t parent, const std::string& path) {
    uint64_t at = parent;
    size_t start = 0;
    for (size_t slash; (slash = path.find('/', start)) != std::string::npos; start = slash + 1) {
        const std::string part = path.substr(start, slash - start);
        auto existing = tree.lookup(at, part);
        at = existing ? *existing : tree.add_directory(at, part);
    }
    return at;
}

std::string leaf(const std::string& path) { return path.substr(path.rfind('/') + 1); }

class Builder {
public:
    explicit Builder(Disc& disc) : d_(disc), image_(*disc.image), cache_(*disc.cache) {}

    void build() {
        d_.tree.timestamp = d_.scan.volume.creation;
        const uint64_t root = Tree::kRootIno;
        d_.tree.add_file(root, "README.txt", std::make_shared<StaticText>(readme_text(d_.scan, image_.path())));
        disc_folder(d_.tree.add_directory(root, "disc"));
        global_folder(d_.tree.add_directory(root, "global"));
        for (const auto& level : d_.scan.levels) level_folder(level);
        by_id_folder(d_.tree.add_directory(root, "by-id"));
        const uint64_t meta = d_.tree.add_directory(root, ".gcfs");
        Disc* disc = &d_;
        d_.tree.add_file(meta, "stats", std::make_shared<LiveText>([disc] {
                             return disc->diagnostics.render(disc->cache->stats());
                         }));
    }

private:
    std::shared_ptr<const Source> slice(uint64_t offset, uint64_t length) {
        return std::make_shared<ImageSlice>(image_, offset, length);
    }

    void disc_folder(uint64_t dir) {
        for (const auto& f : d_.scan.files) {
            const uint64_t parent = ensure_directories(d_.tree, dir, f.path);
            d_.tree.add_file(parent, leaf(f.path), slice(static_cast<uint64_t>(f.lba) * kSectorSize, f.size));
        }
    }

    void global_folder(uint64_t dir) {
        for (const auto& g : d_.scan.toc.globals) {
            // The TOC holds only each global's header; its length is the ISO
            // file's at the same LBA (GC keeps every WAD on the filesystem, §2.2).
            for (const auto& f : d_.scan.files) {
                if (static_cast<int32_t>(f.lba) != g.lba) continue;
                d_.tree.add_file(dir, g.name + ".wad", slice(static_cast<uint64_t>(f.lba) * kSectorSize, f.size));
                break;
            }
        }
    }

    void level_folder(const LevelScan& level) {
        const uint64_t dir = d_.tree.add_directory(Tree::kRootIno, level.folder);
        // Live: the checks made at mount, and every read failure met since.
        const Diagnostics* diagnostics = &d_.diagnostics;
        const LevelDecoders* decoders = &d_.decoders[level.folder];  // map nodes stay put; filled below
        d_.tree.add_file(dir, "info.json", std::make_shared<LiveText>([&level, diagnostics, decoders] {
                             const GeometryIndex* geometry = decoders->geometry ? &decoders->geometry->index() : nullptr;
                             return level_info_json(level, geometry, diagnostics->errors_under(level.folder));
                         }));
        for (const auto& [name, part] : {std::pair{"audio.wad", level.audio}, std::pair{"scene.wad", level.scene}})
            if (part && part->file_lba > 0)
                d_.tree.add_file(dir, name, slice(static_cast<uint64_t>(part->file_lba) * kSectorSize,
                                                  static_cast<uint64_t>(part->size_sectors) * kSectorSize));
        if (!level.header) return;
        d_.tree.add_file(dir, "header.bin", slice(level.file_offset, static_cast<uint64_t>(level.header->header_size)));
        for (const auto& extent : level_extents(*level.header)) {
            const uint64_t offset = level.file_offset + extent.range.byte_offset();
            const uint64_t size = extent.range.byte_size();
            if (extent.range.offset < 0 || offset + size > level.file_offset + level.file_size) {
                // §3.1: every extent lies inside its container; this one cannot be read.
                d_.tree.add_file(dir, extent.name == "gameplay" ? "gameplay.wad" : extent.name + ".bin",
                                 std::make_shared<Unreadable>(fmt::format(
                                     "extent {} claims sectors [{}, {}) of a {}-sector container (see info.json)",
                                     extent.name, extent.range.offset, extent.range.end(), level.file_size / kSectorSize)));
                continue;
            }
            if (extent.name == "gameplay") {
                // §9: gameplay is a WAD-LZ stream; its decoded size is not stored.
                d_.tree.add_file(dir, "gameplay.wad", slice(offset, size));
                auto decoded = std::make_shared<WadStream>(image_, cache_, offset, size, std::nullopt);
                d_.decoders[level.folder].gameplay = decoded;
                d_.tree.add_file(dir, "gameplay.bin", decoded);
            } else {
                d_.tree.add_file(dir, extent.name + ".bin", slice(offset, size));
            }
        }
        if (level.lump) lump_files(dir, level);
    }

    void lump_files(uint64_t dir, const LevelScan& level) {
        std::shared_ptr<const Source> gs_ram;
        for (const auto& section : data_lump_sections(*level.lump)) {
            const uint64_t offset = level.data_offset + static_cast<uint64_t>(section.range.offset);
            const uint64_t size = static_cast<uint64_t>(section.range.size);
            if (!section.compressed) {
                auto raw = slice(offset, size);
                if (section.name == "gs_ram") gs_ram = raw;
                d_.tree.add_file(dir, section.name + ".bin", raw);
                continue;
            }
            d_.tree.add_file(dir, section.name + ".wad", slice(offset, size));
            std::optional<uint64_t> declared;
            if (section.name == "core_data" && level.core)  // §6.1 0x8C
                declared = static_cast<uint64_t>(level.core->assets_decompressed_size);
            auto decoded = std::make_shared<WadStream>(image_, cache_, offset, size, declared);
            d_.tree.add_file(dir, section.name + ".bin", decoded);
            if (section.name != "core_data") continue;
            d_.decoders[level.folder].core_data = decoded;
            if (level.core) class_files(dir, level);
            if (level.core && gs_ram) texture_files(dir, level, decoded, gs_ram);
            if (level.regions.empty()) continue;
            const uint64_t core_dir = d_.tree.add_directory(dir, "core");
            for (const auto& region : level.regions)
                d_.tree.add_file(core_dir, region.name + ".bin",
                                 std::make_shared<SubRange>(decoded, region.offset, region.size));
            geometry_files(dir, level, {offset, size});
            if (level.tfrags) tfrag_folder(dir, level, {offset, size});
        }
    }

    // classes/: the core's class and texture tables (§6.3), from core_index.
    void class_files(uint64_t level_dir, const LevelScan& level) {
        const auto core_size = static_cast<uint64_t>(level.core->assets_decompressed_size);
        const uint64_t dir = d_.tree.add_directory(level_dir, "classes");
        const char* names[3] = {"mobies.csv", "ties.csv", "shrubs.csv"};
        for (int k = 0; k < 3; ++k)
            d_.tree.add_file(dir, names[k], std::make_shared<StaticText>(class_table_csv(level.classes[k], k == 2, core_size)));
        d_.tree.add_file(dir, "textures.csv",
                         std::make_shared<StaticText>(texture_tables_csv(level.textures, level.core->textures_base_offset,
                                                                         core_size, static_cast<uint64_t>(level.lump->gs_ram.size))));
    }

    // textures/tfrag_NNN.png: the tfrag texture table as pictures.
    void texture_files(uint64_t level_dir, const LevelScan& level, const std::shared_ptr<const WadStream>& core,
                       const std::shared_ptr<const Source>& gs_ram) {
        const auto& tfrag = level.texture_table("tfrag");
        if (tfrag.empty()) return;
        const uint64_t dir = d_.tree.add_directory(level_dir, "textures");
        for (size_t i = 0; i < tfrag.size(); ++i)
            d_.tree.add_file(dir, fmt::format("tfrag_{:03d}.png", i),
                             std::make_shared<TextureFile>(cache_, core, gs_ram, tfrag[i], level.core->textures_base_offset));
    }

    // §8: occlusion and sky summaries (in info.json) and collision.obj.
    void geometry_files(uint64_t level_dir, const LevelScan& level, LevelGeometry::Stream stream) {
        auto region = [&](const char* name) -> std::optional<CoreRegion> {
            const CoreRegion* r = level.region(name);
            return r && r->size > 0 ? std::optional<CoreRegion>(*r) : std::nullopt;
        };
        auto geometry = std::make_shared<LevelGeometry>(
            image_, cache_, stream, region("occlusion"), region("sky"), region("collision"),
            CollisionSourceInfo{level.folder, level.header->id, region("collision") ? region("collision")->offset : 0});
        d_.decoders[level.folder].geometry = geometry;
        if (!geometry->has_collision()) return;
        d_.tree.add_file(level_dir, "collision.obj", std::make_shared<CollisionObjFile>(geometry));
        d_.tree.add_file(level_dir, "collision.mtl", std::make_shared<StaticText>(collision_materials_mtl()));
    }

    // tfrag/: every patch at three LODs, the whole terrain, and the index.
    void tfrag_folder(uint64_t level_dir, const LevelScan& level, LevelTerrain::StreamLocation stream) {
        const CoreRegion* region = level.region("tfrag");  // scan_tfrags_header found it
        const TfragSourceInfo source{level.folder, level.header->id, region->offset};
        auto terrain = std::make_shared<LevelTerrain>(image_, cache_, stream, region->offset, region->size, source);
        d_.decoders[level.folder].terrain = terrain;
        using Kind = TerrainFile::Kind;
        d_.tree.add_file(level_dir, "preview.png", std::make_shared<TerrainFile>(terrain, Kind::preview_png));
        const uint64_t dir = d_.tree.add_directory(level_dir, "tfrag");
        d_.tree.add_file(dir, "terrain.obj", std::make_shared<TerrainFile>(terrain, Kind::terrain_obj));
        d_.tree.add_file(dir, "patches.csv", std::make_shared<TerrainFile>(terrain, Kind::patches_csv));
        d_.tree.add_file(dir, "terrain.mtl",
                         std::make_shared<StaticText>(tfrag_materials_mtl(level.texture_table("tfrag").size())));
        const uint64_t lod_dirs[3] = {dir, d_.tree.add_directory(dir, "lod1"), d_.tree.add_directory(dir, "lod2")};
        const auto patches = static_cast<uint64_t>(level.tfrags->tfrag_count);
        for (int lod = 0; lod < 3; ++lod)
            d_.tree.add_file_run(lod_dirs[lod], std::make_shared<PatchObjRun>(terrain, patches, lod));
    }

    void by_id_folder(uint64_t dir) {
        std::set<std::string> used;
        for (const auto& level : d_.scan.levels) {
            if (!level.header) continue;
            std::string name = std::to_string(level.header->id);
            if (!used.insert(name).second) name += "-" + level.folder;  // two containers claim one id
            d_.tree.add_symlink(dir, name, "../" + level.folder);
        }
    }

    Disc& d_;
    const Image& image_;
    cache::LruCache& cache_;
};

}  // namespace

std::unique_ptr<Disc> open_disc(const std::string& image_path, uint64_t cache_budget_bytes) {
    auto disc = std::make_unique<Disc>();
    disc->image = std::make_unique<Image>(image_path);
    disc->cache = std::make_unique<cache::LruCache>(cache_budget_bytes);
    disc->scan = scan_disc(*disc->image);
    Builder(*disc).build();
    return disc;
}

}  // namespace gcfs::tree
