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
        file(root, "README.txt", std::make_shared<StaticText>(readme_text(d_.scan, image_.path())),
             generated("the volume descriptor and the table of contents"));
        disc_folder(d_.tree.add_directory(root, "disc"));
        global_folder(d_.tree.add_directory(root, "global"));
        for (const auto& level : d_.scan.levels) level_folder(level);
        by_id_folder(d_.tree.add_directory(root, "by-id"));
        const uint64_t meta = d_.tree.add_directory(root, ".gcfs");
        Disc* disc = &d_;
        file(meta, "stats", std::make_shared<LiveText>([disc] { return disc->diagnostics.render(disc->cache->stats()); }),
             generated("the daemon's cache counters and read errors, live"));
    }

private:
    using Origin = std::shared_ptr<const Provenance>;

    std::shared_ptr<const Source> slice(uint64_t offset, uint64_t length) {
        return std::make_shared<ImageSlice>(image_, offset, length);
    }

    // The ISO9660 file whose sectors hold image byte `offset` (empty if none).
    std::string container_of(uint64_t offset) const {
        for (const auto& f : d_.scan.files) {
            const uint64_t start = static_cast<uint64_t>(f.lba) * kSectorSize;
            if (offset >= start && offset < start + std::max<uint64_t>(f.size, 1)) return f.path;
        }
        return {};
    }
    Origin raw(uint64_t offset, uint64_t length, std::string detail) const {
        return std::make_shared<const Provenance>(
            Provenance{container_of(offset), offset, length, "none: the bytes as recorded", std::move(detail)});
    }
    Origin decoded(uint64_t offset, uint64_t length, std::string decoder, std::string detail) const {
        return std::make_shared<const Provenance>(
            Provenance{container_of(offset), offset, length, std::move(decoder), std::move(detail)});
    }
    static Origin generated(std::string detail) {
        return std::make_shared<const Provenance>(Provenance{{}, 0, 0, "none: text written by gcfs", std::move(detail)});
    }
    void file(uint64_t dir, const std::string& name, std::shared_ptr<const Source> source, Origin origin) {
        d_.tree.add_file(dir, name, std::move(source), std::move(origin));
    }

    void disc_folder(uint64_t dir) {
        for (const auto& f : d_.scan.files) {
            const uint64_t parent = ensure_directories(d_.tree, dir, f.path);
            const uint64_t offset = static_cast<uint64_t>(f.lba) * kSectorSize;
            file(parent, leaf(f.path), slice(offset, f.size), raw(offset, f.size, "the ISO9660 file (formats.md 2.2)"));
        }
    }

    void global_folder(uint64_t dir) {
        for (const auto& g : d_.scan.toc.globals) {
            // The TOC holds only each global's header; its length is the ISO
            // file's at the same LBA (GC keeps every WAD on the filesystem, §2.2).
            for (const auto& f : d_.scan.files) {
                if (static_cast<int32_t>(f.lba) != g.lba) continue;
                const uint64_t offset = static_cast<uint64_t>(f.lba) * kSectorSize;
                file(dir, g.name + ".wad", slice(offset, f.size),
                     raw(offset, f.size, "global WAD " + g.name + " of the table of contents (formats.md 2.3)"));
                break;
            }
        }
    }

    void level_folder(const LevelScan& level) {
        const uint64_t dir = d_.tree.add_directory(Tree::kRootIno, level.folder);
        // Live: the checks made at mount, and every read failure met since.
        const Diagnostics* diagnostics = &d_.diagnostics;
        const LevelDecoders* decoders = &d_.decoders[level.folder];  // map nodes stay put; filled below
        file(dir, "info.json", std::make_shared<LiveText>([&level, diagnostics, decoders] {
                 const GeometryIndex* geometry = decoders->geometry ? &decoders->geometry->index() : nullptr;
                 return level_info_json(level, geometry, diagnostics->errors_under(level.folder));
             }),
             decoded(level.file_offset, level.file_size, "JSON written by gcfs",
                     "the level's headers, the core's regions and every check (formats.md 3, 4, 6, 8)"));
        for (const auto& [name, part] : {std::pair{"audio.wad", level.audio}, std::pair{"scene.wad", level.scene}})
            if (part && part->file_lba > 0) {
                const uint64_t offset = static_cast<uint64_t>(part->file_lba) * kSectorSize;
                const uint64_t length = static_cast<uint64_t>(part->size_sectors) * kSectorSize;
                file(dir, name, slice(offset, length), raw(offset, length, "the level's WAD of the table of contents (3.4)"));
            }
        if (!level.header) return;
        const auto header_size = static_cast<uint64_t>(level.header->header_size);
        file(dir, "header.bin", slice(level.file_offset, header_size),
             raw(level.file_offset, header_size, "the container header (formats.md 3.1)"));
        for (const auto& extent : level_extents(*level.header)) {
            const uint64_t offset = level.file_offset + extent.range.byte_offset();
            const uint64_t size = extent.range.byte_size();
            if (extent.range.offset < 0 || offset + size > level.file_offset + level.file_size) {
                // §3.1: every extent lies inside its container; this one cannot be read.
                const std::string why = fmt::format("extent {} claims sectors [{}, {}) of a {}-sector container (see info.json)",
                                                    extent.name, extent.range.offset, extent.range.end(),
                                                    level.file_size / kSectorSize);
                file(dir, extent.name == "gameplay" ? "gameplay.wad" : extent.name + ".bin",
                     std::make_shared<Unreadable>(why), raw(level.file_offset, 0, why));
                continue;
            }
            if (extent.name == "gameplay") {
                // §9: gameplay is a WAD-LZ stream; its decoded size is not stored.
                file(dir, "gameplay.wad", slice(offset, size), raw(offset, size, "the gameplay extent (formats.md 3.1, 9)"));
                auto stream = std::make_shared<WadStream>(image_, cache_, offset, size, std::nullopt);
                d_.decoders[level.folder].gameplay = stream;
                file(dir, "gameplay.bin", stream,
                     decoded(offset, size, kWadLz, "gameplay.wad decompressed; its size measured from the packets (9)"));
            } else {
                file(dir, extent.name + ".bin", slice(offset, size),
                     raw(offset, size, "the " + extent.name + " extent (formats.md 3.1)"));
            }
        }
        if (level.lump) lump_files(dir, level);
    }

    void lump_files(uint64_t dir, const LevelScan& level) {
        std::shared_ptr<const Source> gs_ram;
        for (const auto& section : data_lump_sections(*level.lump)) {
            const uint64_t offset = level.data_offset + static_cast<uint64_t>(section.range.offset);
            const uint64_t size = static_cast<uint64_t>(section.range.size);
            const std::string what = "data-lump section " + section.name + " (formats.md 4.1)";
            if (!section.compressed) {
                auto bytes = slice(offset, size);
                if (section.name == "gs_ram") gs_ram = bytes;
                if (section.name == "core_index") core_index_ = {offset, size};
                file(dir, section.name + ".bin", bytes, raw(offset, size, what));
                continue;
            }
            file(dir, section.name + ".wad", slice(offset, size), raw(offset, size, what));
            std::optional<uint64_t> declared;
            if (section.name == "core_data" && level.core)  // §6.1 0x8C
                declared = static_cast<uint64_t>(level.core->assets_decompressed_size);
            auto stream = std::make_shared<WadStream>(image_, cache_, offset, size, declared);
            file(dir, section.name + ".bin", stream, decoded(offset, size, kWadLz, section.name + ".wad decompressed"));
            if (section.name != "core_data") continue;
            d_.decoders[level.folder].core_data = stream;
            core_stream_ = {offset, size};
            if (level.core) class_files(dir, level);
            if (level.core && gs_ram) texture_files(dir, level, stream, gs_ram);
            if (level.regions.empty()) continue;
            const uint64_t core_dir = d_.tree.add_directory(dir, "core");
            for (const auto& region : level.regions)
                file(core_dir, region.name + ".bin", std::make_shared<SubRange>(stream, region.offset, region.size),
                     from_core(kWadLz, region, "region (formats.md 6.2)"));
            geometry_files(dir, level, {offset, size});
            if (level.tfrags) tfrag_folder(dir, level, {offset, size});
        }
    }

    // classes/: the core's class and texture tables (§6.3), from core_index.
    void class_files(uint64_t level_dir, const LevelScan& level) {
        const auto core_size = static_cast<uint64_t>(level.core->assets_decompressed_size);
        const uint64_t dir = d_.tree.add_directory(level_dir, "classes");
        const char* names[3] = {"mobies.csv", "ties.csv", "shrubs.csv"};
        auto tables = [&](const char* which) {
            return decoded(core_index_.first, core_index_.second, "CSV written by gcfs",
                           std::string("the core header's ") + which + " tables in core_index.bin (formats.md 6.1, 6.3)");
        };
        for (int k = 0; k < 3; ++k)
            file(dir, names[k], std::make_shared<StaticText>(class_table_csv(level.classes[k], k == 2, core_size)),
                 tables("class"));
        file(dir, "textures.csv",
             std::make_shared<StaticText>(texture_tables_csv(level.textures, level.core->textures_base_offset, core_size,
                                                             static_cast<uint64_t>(level.lump->gs_ram.size))),
             tables("texture"));
    }

    // textures/tfrag_NNN.png: the tfrag texture table as pictures.
    void texture_files(uint64_t level_dir, const LevelScan& level, const std::shared_ptr<const WadStream>& core,
                       const std::shared_ptr<const Source>& gs_ram) {
        const auto& tfrag = level.texture_table("tfrag");
        if (tfrag.empty()) return;
        const uint64_t dir = d_.tree.add_directory(level_dir, "textures");
        for (size_t i = 0; i < tfrag.size(); ++i) {
            const uint64_t at = static_cast<uint64_t>(level.core->textures_base_offset) + static_cast<uint64_t>(tfrag[i].data_offset);
            file(dir, fmt::format("tfrag_{:03d}.png", i),
                 std::make_shared<TextureFile>(cache_, core, gs_ram, tfrag[i], level.core->textures_base_offset),
                 decoded(core_stream_.first, core_stream_.second, kWadLz + std::string(", then 8-bit indexed PNG"),
                         fmt::format("tfrag texture {}: core_data.bin [0x{:x}, +{}) with the 256-colour palette at "
                                     "gs_ram.bin 0x{:x} (formats.md 6.3)",
                                     i, at, static_cast<uint64_t>(tfrag[i].width) * static_cast<uint64_t>(tfrag[i].height),
                                     static_cast<uint64_t>(tfrag[i].palette) * kPaletteUnit)));
        }
    }

    // §8: occlusion and sky summaries (in info.json) and collision.obj.
    void geometry_files(uint64_t level_dir, const LevelScan& level, CoreStream stream) {
        auto region = [&](const char* name) -> std::optional<CoreRegion> {
            const CoreRegion* r = level.region(name);
            return r && r->size > 0 ? std::optional<CoreRegion>(*r) : std::nullopt;
        };
        const auto collision = region("collision");
        auto geometry = std::make_shared<LevelGeometry>(
            image_, cache_, stream, region("occlusion"), region("sky"), collision,
            CollisionSourceInfo{level.folder, level.header->id, collision ? collision->offset : 0});
        d_.decoders[level.folder].geometry = geometry;
        if (!collision) return;
        file(level_dir, "collision.obj", std::make_shared<CollisionObjFile>(geometry),
             from_core(kWadLz + std::string(", then OBJ"), *collision, "block (formats.md 8.3)"));
        file(level_dir, "collision.mtl", std::make_shared<StaticText>(collision_materials_mtl()),
             generated("a material per collision surface type (formats.md 8.3)"));
    }

    // tfrag/: every patch at three LODs, the whole terrain, and the index.
    void tfrag_folder(uint64_t level_dir, const LevelScan& level, CoreStream stream) {
        const CoreRegion* region = level.region("tfrag");  // scan_tfrags_header found it
        const TfragSourceInfo source{level.folder, level.header->id, region->offset};
        auto terrain = std::make_shared<LevelTerrain>(image_, cache_, stream, region->offset, region->size, source);
        d_.decoders[level.folder].terrain = terrain;
        using Kind = TerrainFile::Kind;
        auto tfrags = [&](const char* output) { return from_core(kWadLz + std::string(", then ") + output, *region, "block (formats.md 7)"); };
        file(level_dir, "preview.png", std::make_shared<TerrainFile>(terrain, Kind::preview_png), tfrags("a top-down PNG"));
        const uint64_t dir = d_.tree.add_directory(level_dir, "tfrag");
        file(dir, "terrain.obj", std::make_shared<TerrainFile>(terrain, Kind::terrain_obj), tfrags("OBJ"));
        file(dir, "patches.csv", std::make_shared<TerrainFile>(terrain, Kind::patches_csv), tfrags("CSV"));
        file(dir, "terrain.mtl", std::make_shared<StaticText>(tfrag_materials_mtl(level.texture_table("tfrag").size())),
             generated("a material per tfrag texture, mapped to ../textures/ (formats.md 6.3)"));
        const uint64_t lod_dirs[3] = {dir, d_.tree.add_directory(dir, "lod1"), d_.tree.add_directory(dir, "lod2")};
        for (int lod = 0; lod < 3; ++lod)
            d_.tree.add_file_run(lod_dirs[lod], std::make_shared<PatchObjRun>(terrain, *level.tfrags, lod, tfrags("OBJ")));
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

    // A file made from one region of the decoded core.
    Origin from_core(std::string decoder, const CoreRegion& region, const std::string& what) const {
        return decoded(core_stream_.first, core_stream_.second, std::move(decoder),
                       fmt::format("core_data.bin [0x{:x}, +{}): the {} {}", region.offset, region.size, region.name, what));
    }

    static constexpr const char* kWadLz = "WAD LZ (formats.md 5)";

    Disc& d_;
    const Image& image_;
    cache::LruCache& cache_;
    // The current level's core_index section and core_data stream, image (offset, length).
    std::pair<uint64_t, uint64_t> core_index_{}, core_stream_{};
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
