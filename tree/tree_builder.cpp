#include "tree/tree_builder.h"

#include "formats/disc/level_names.h"
#include "tree/node/log_tail.h"
#include "tree/index/program_build.h"
#include "tree/node/safe_name.h"

#include <fmt/format.h>

#include <malloc.h>

#include <cerrno>
#include <cstring>
#include <set>

#include "tree/globals/global_folder.h"
#include "tree/globals/globals.h"
#include "tree/level/level_folder.h"
#include "tree/parts/parts.h"
#include "tree/node/sources.h"
#include "tree/texts.h"

namespace gcfs::tree {
namespace {

using namespace formats;

std::string leaf(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// A level whose headers were to be read after the image changed under the
// mount shows nothing of the new bytes: its folder answers EIO, like every
// read of the changed image (tree/node/image.h).
std::string stale_image_error() {
    return fmt::format("the image changed since it was opened ({}); unmount and mount it again", std::strerror(ESTALE));
}

class Builder {
public:
    explicit Builder(Disc& disc) : d_(disc), image_(*disc.image), cache_(*disc.cache) {}

    void build() {
        d_.tree.timestamp = d_.scan.volume.creation;
        const uint64_t root = Tree::kRootIno;
        file(d_.tree, root, "README.txt", std::make_shared<StaticText>(readme_text(d_.scan, image_.path())),
             Origins(d_.scan).decoded(uint64_t{formats::kTocLba} * formats::kSectorSize,
                                      d_.scan.toc.table_offset + formats::kLevelEntrySize * formats::kTocMaxLevels,
                                      "text written from the ISO9660 primary volume descriptor and the table of contents",
                                      "the volume, the levels' containers (formats.md 2.3), and what every name of the mount is"));
        disc_folder(d_.tree.add_directory(root, "disc"));
        global_folder(d_.tree.add_directory(root, "global"));
        Disc* disc = &d_;
        for (size_t i = 0; i < d_.scan.levels.size(); ++i)
            d_.tree.add_subtree(root, d_.scan.levels[i].folder, [disc, i](Tree& tree, uint64_t folder) {
                const LevelScan& level = disc->level(i);
                if (level.stale) return stale_image_error();
                Builder(*disc).level_folder(tree, folder, level);
                return std::string();
            });
        d_.tree.add_subtree(root, "by-id", [disc](Tree& tree, uint64_t folder) {
            Builder(*disc).by_id_folder(tree, folder);
            return std::string();
        });
        d_.tree.add_subtree(root, "by-name", [disc](Tree& tree, uint64_t folder) {
            Builder(*disc).by_name_folder(tree, folder);
            return std::string();
        });
        const uint64_t meta = d_.tree.add_directory(root, ".gcfs");
        file(d_.tree, meta, "stats", std::make_shared<LiveText>([disc] {
                 return disc->diagnostics.render(disc->cache->stats()) +
                        (disc->index ? disc->index->render() : "persistent index: off\n");
             }),
             Origins::generated("none: the daemon's own counters, written when read", "the cache's counters and every read error so far"));
        file(d_.tree, meta, "log", std::make_shared<LiveText>([] { return log_tail_text(); }),
             Origins::generated("none: the program's last log lines, written when read", "the tail of the log (README, Troubleshooting)"));
    }

private:
    std::shared_ptr<const Source> slice(uint64_t offset, uint64_t length) {
        return std::make_shared<ImageSlice>(image_, offset, length);
    }
    static void file(Tree& tree, uint64_t dir, const std::string& name, std::shared_ptr<const Source> source, Origin origin) {
        tree.add_file(dir, name, std::move(source), std::move(origin));
    }

    void disc_folder(uint64_t dir) {
        const Origins origins(d_.scan);
        for (const auto& path : d_.scan.directories) d_.tree.folders_of(dir, path + "/");
        if (!d_.scan.iso_damage.empty())
            file(d_.tree, dir, std::string(kIsoDamageNote), std::make_shared<StaticText>(iso_damage_text(d_.scan.iso_damage)),
                 Origins::generated("the ISO9660 directory walk", "what of the ISO9660 tree could not be read"));
        for (const auto& f : d_.scan.files) {
            const uint64_t parent = d_.tree.folders_of(dir, f.path);
            const uint64_t offset = static_cast<uint64_t>(f.lba) * kSectorSize;
            file(d_.tree, parent, leaf(f.path), slice(offset, f.size), origins.raw(offset, f.size, "the ISO9660 file (formats.md 2.2)"));
        }
    }

    void global_folder(uint64_t dir) {
        const Origins origins(d_.scan);
        for (const auto& g : d_.scan.toc.globals) {
            // The TOC holds only each global's header; its length is the ISO
            // file's at the same LBA (GC keeps every WAD on the filesystem, §2.2).
            for (const auto& f : d_.scan.files) {
                if (static_cast<int32_t>(f.lba) != g.lba) continue;
                const uint64_t offset = static_cast<uint64_t>(f.lba) * kSectorSize;
                file(d_.tree, dir, g.name + ".wad", slice(offset, f.size),
                     origins.raw(offset, f.size, "global WAD " + g.name + " of the table of contents (formats.md 2.3)"));
                opened_global(dir, g, offset, f.size);
                break;
            }
        }
    }

    // global/<name>/, for the WAD kinds gcfs opens: built when first listed
    // or looked into, from the WAD's header (tree/globals/).
    void opened_global(uint64_t dir, const GlobalWad& wad, uint64_t offset, uint64_t size) {
        for (const auto& unit : globals::kGlobalUnits) {
            if (unit.wad != wad.name) continue;
            Disc* disc = &d_;
            d_.tree.add_subtree(dir, wad.name, [disc, &wad, offset, size, add = unit.add](Tree& tree, uint64_t folder) {
                GlobalFolder f(*disc, wad, offset, size, tree, folder);
                add(f);
                return std::string();
            });
        }
    }

    // The level's own files (headers, extents, data-lump sections), then
    // every subsystem's part (tree/parts/), into the folder's subtree.
    void level_folder(Tree& tree, uint64_t folder, const LevelScan& level) {
        // Before any file is added: each passes through the memo.
        if (d_.index)
            if (auto memo = d_.index->memo(level)) tree.remember(std::move(memo));
        LevelFolder f(d_, level, tree, folder);
        // Made once, on first use: its size is fixed for the life of the
        // mount. Read failures met later go to .gcfs/stats, not here.
        const LevelDecoders* decoders = &f.decoders();  // map nodes stay put; filled by the parts
        f.file(f.dir, "info.json", std::make_shared<GeneratedText>([&level, decoders] {
                 const GeometryIndex* geometry = decoders->geometry ? &decoders->geometry->index() : nullptr;
                 const GameplayIndex* gameplay = decoders->gameplay_index ? &decoders->gameplay_index->index() : nullptr;
                 return level_info_json(level, geometry, gameplay, {decoders->mobies.get(), decoders->ties.get(), decoders->shrubs.get()});
             }),
             f.decoded(level.file_offset, level.file_size, "JSON written by gcfs",
                       "the level's headers, the core's regions, the gameplay blocks and every check (formats.md 3, 4, 6, 8)"));
        for (const auto& [name, part] : {std::pair{"audio.wad", level.audio}, std::pair{"scene.wad", level.scene}})
            if (part && part->file_lba > 0) {
                const uint64_t offset = static_cast<uint64_t>(part->file_lba) * kSectorSize;
                const uint64_t length = static_cast<uint64_t>(part->size_sectors) * kSectorSize;
                f.file(f.dir, name, slice(offset, length), f.raw(offset, length, "the level's WAD of the table of contents (3.4)"));
            }
        if (level.header) {
            const auto header_size = static_cast<uint64_t>(level.header->header_size);
            f.file(f.dir, "header.bin", slice(level.file_offset, header_size),
                   f.raw(level.file_offset, header_size, "the container header (formats.md 3.1)"));
            extent_files(f);
            if (level.lump) lump_files(f);
        }
        // Each part checks what it needs (the level AUDIO WAD's sounds need no LEVEL header).
        for (const auto part : parts::kLevelParts) part(f);
    }

    void extent_files(LevelFolder& f) {
        const LevelScan& level = f.level;
        for (const auto& extent : level_extents(*level.header)) {
            const uint64_t offset = level.file_offset + extent.range.byte_offset();
            const uint64_t size = extent.range.byte_size();
            if (extent.range.offset < 0 || offset + size > level.file_offset + level.file_size) {
                // §3.1: every extent lies inside its container; this one cannot be read.
                const std::string why = fmt::format("extent {} claims sectors [{}, {}) of a {}-sector container (see info.json)",
                                                    extent.name, extent.range.offset, extent.range.end(),
                                                    level.file_size / kSectorSize);
                f.file(f.dir, extent.name == "gameplay" ? "gameplay.wad" : extent.name + ".bin",
                     std::make_shared<Unreadable>(why), f.raw(level.file_offset, 0, why));
                continue;
            }
            if (extent.name == "gameplay") {
                // §9: gameplay is a WAD-LZ stream; its decoded size is not stored.
                f.file(f.dir, "gameplay.wad", slice(offset, size), f.raw(offset, size, "the gameplay extent (formats.md 3.1, 9)"));
                f.gameplay = std::make_shared<WadStream>(image_, cache_, offset, size, std::nullopt);
                f.gameplay_offset = offset;
                f.gameplay_length = size;
                f.decoders().gameplay = f.gameplay;
                f.file(f.dir, "gameplay.bin", f.gameplay,
                     f.decoded(offset, size, LevelFolder::kWadLz, "gameplay.wad decompressed; its size measured from the packets (9)"));
            } else {
                f.file(f.dir, extent.name + ".bin", slice(offset, size),
                     f.raw(offset, size, "the " + extent.name + " extent (formats.md 3.1)"));
            }
        }
    }

    void lump_files(LevelFolder& f) {
        const LevelScan& level = f.level;
        for (const auto& section : data_lump_sections(*level.lump)) {
            const uint64_t offset = level.data_offset + static_cast<uint64_t>(section.range.offset);
            const uint64_t size = static_cast<uint64_t>(section.range.size);
            const std::string what = "data-lump section " + section.name + " (formats.md 4.1)";
            if (!section.compressed) {
                auto bytes = slice(offset, size);
                if (section.name == "gs_ram") {
                    f.gs_ram = bytes;
                    f.gs_ram_offset = offset;
                    f.gs_ram_length = size;
                }
                if (section.name == "core_index") {
                    f.core_index_offset = offset;
                    f.core_index_length = size;
                }
                f.file(f.dir, section.name + ".bin", bytes, f.raw(offset, size, what));
                continue;
            }
            f.file(f.dir, section.name + ".wad", slice(offset, size), f.raw(offset, size, what));
            std::optional<uint64_t> declared;
            if (section.name == "core_data" && level.core)  // §6.1 0x8C
                declared = static_cast<uint64_t>(level.core->assets_decompressed_size);
            auto stream = std::make_shared<WadStream>(image_, cache_, offset, size, declared);
            f.file(f.dir, section.name + ".bin", stream,
                 f.decoded(offset, size, LevelFolder::kWadLz, section.name + ".wad decompressed"));
            if (section.name != "core_data") continue;
            f.decoders().core_data = stream;
            f.core = stream;
            f.core_stream = {offset, size, declared.value_or(0)};
            // A core whose header gives no size (no core header read) believes no saved point.
            f.core_stream.restarts = std::make_shared<RestartPoints>(cache_, d_.index ? d_.index->store() : nullptr,
                                                                     level.folder, level.digest.text(), size, declared.value_or(0));
        }
    }

    // Reads every level's headers (not their folders) for the ids.
    void by_id_folder(Tree& tree, uint64_t dir) {
        std::set<std::string> used;
        for (size_t i = 0; i < d_.scan.levels.size(); ++i) {
            const LevelScan& level = d_.level(i);
            if (!level.header) continue;
            std::string name = std::to_string(level.header->id);
            if (!used.insert(name).second) name += "-" + level.folder;  // two containers claim one id
            tree.add_symlink(dir, name, "../" + level.folder);
        }
    }

    // formats.md §2.4: each level under its name, from the id its header
    // reports; an id the references name no level for keeps its number.
    void by_name_folder(Tree& tree, uint64_t dir) {
        FolderNames names;
        std::set<std::string> used;
        for (size_t i = 0; i < d_.scan.levels.size(); ++i) {
            const LevelScan& level = d_.level(i);
            if (!level.header) continue;
            const std::string known = formats::gc_level_name(level.header->id);
            std::string name = known.empty() ? std::to_string(level.header->id) : known;
            if (!used.insert(name).second) name += "-" + level.folder;  // two containers report one id
            tree.add_symlink(dir, names.claim(safe_name(name)), "../" + level.folder);
        }
    }

    Disc& d_;
    const Image& image_;
    cache::LruCache& cache_;
};

}  // namespace

const LevelScan& Disc::level(size_t i) {
    LevelScan& level = scan.levels.at(i);
    std::call_once(scanned.at(i), [&] { scan_level(*image, level); });
    return level;
}

// The build beside the image's digest: another build's records are not believed (tree/index/program_build.h).
cache::ImageIdentity Disc::identity() const {
    return {image->size(), image->mtime_ns(), scan.toc_digest.text() + " build " + program_build()};
}

void Disc::start_index_ahead() {
    std::vector<uint64_t> folders;
    std::map<uint64_t, size_t> level_of;  // folder inode -> scan.levels index
    for (size_t i = 0; i < scan.levels.size(); ++i)
        if (auto ino = tree.lookup(Tree::kRootIno, scan.levels[i].folder)) {
            folders.push_back(*ino);
            level_of[*ino] = i;
        }
    ahead = std::make_unique<IndexAhead>(std::move(folders), [this, level_of](uint64_t folder) {
        size_every_file(tree, folder);
        // Sized whole: what a second mount needs to list it without decoding.
        if (const LevelScan& level = this->level(level_of.at(folder)); index && level.ok() && tree.folder_error(folder).empty())
            index->save(tree, folder, level);
        // A level's sizing frees thousands of small blocks (meshes, JSON, scene
        // parts) between the cache's buffers; glibc returns only the top of a
        // heap by itself. Handing back the free pages inside it keeps two
        // concurrent sizings from growing the heap level after level.
        malloc_trim(0);
    }, index != nullptr);
    tree.on_folder_listed([helper = ahead.get()](uint64_t folder) { helper->listed(folder); });
}

std::unique_ptr<Disc> open_disc(const std::string& image_path, uint64_t cache_budget_bytes) {
    return open_disc(image_path, DiscSetup{nullptr, std::make_shared<cache::LruCache>(cache_budget_bytes), {}});
}

std::unique_ptr<Disc> open_disc(const std::string& image_path, DiscSetup setup) {
    auto disc = std::make_unique<Disc>();
    disc->image = std::make_unique<Image>(image_path, std::move(setup.patch));
    disc->cache = std::move(setup.cache);
    disc->scan = scan_table(*disc->image);
    disc->scanned.resize(disc->scan.levels.size());
    // Made now: level folders built at once on two threads must not both insert.
    for (const auto& level : disc->scan.levels) disc->decoders[level.folder];
    Builder(*disc).build();
    if (setup.extend) setup.extend(*disc);
    return disc;
}

}  // namespace gcfs::tree
