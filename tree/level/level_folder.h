// What one subsystem's unit (tree/parts/) needs to add its part of a level
// folder: the tree, the level's scan, its decoded streams, and the helpers
// that record where each file's bytes come from (user.gcfs.* attributes).
#pragma once

#include <memory>
#include <string>

#include "tree/level/texel_regions.h"
#include "tree/tree_builder.h"

namespace gcfs::tree {

using Origin = std::shared_ptr<const Provenance>;

// Records where a file's bytes come from.
class Origins {
public:
    explicit Origins(const DiscScan& scan) : scan_(scan) {}
    // Image bytes served as they are.
    Origin raw(uint64_t offset, uint64_t length, std::string detail) const;
    // Image bytes turned into the file by `decoder`.
    Origin decoded(uint64_t offset, uint64_t length, std::string decoder, std::string detail) const;
    // What gcfs writes without reading the disc: `decoder` says what it is made from.
    static Origin generated(std::string decoder, std::string detail);

private:
    const DiscScan& scan_;
};

class LevelFolder : public Origins {
public:
    LevelFolder(Disc& disc, const LevelScan& level, Tree& tree, uint64_t dir)
        : Origins(disc.scan), disc(disc), level(level), tree(tree), dir(dir) {}

    Disc& disc;
    const LevelScan& level;
    Tree& tree;          // the folder's subtree, where its nodes go
    const uint64_t dir;  // the LEVELnn folder

    // Set by the level's extents and data-lump sections, as far as they exist.
    std::shared_ptr<const WadStream> gameplay;  // gameplay.bin
    std::shared_ptr<const WadStream> core;      // core_data.bin
    std::shared_ptr<const Source> gs_ram;       // gs_ram.bin
    uint64_t gs_ram_offset = 0, gs_ram_length = 0;      // its image bytes
    uint64_t gameplay_offset = 0, gameplay_length = 0;  // image bytes of gameplay.wad
    CoreStream core_stream{};                           // image bytes of core_data.wad
    uint64_t core_index_offset = 0, core_index_length = 0;
    // Set by the textures part: the core regions the level's texels and bank
    // palettes read from (tree/level/texel_regions.h); null when no texture lies
    // in the core.
    std::shared_ptr<const TexelRegions> texels;

    // The texel region holding core bytes [from, to), or null (no texture
    // region covers them: the file's own range checks say why).
    std::shared_ptr<const StreamRegion> texel_region(uint64_t from, uint64_t to) const {
        return texels ? texels->covering(from, to) : nullptr;
    }
    std::shared_ptr<const StreamRegion> texel_region(std::pair<uint64_t, uint64_t> range) const { return texel_region(range.first, range.second); }

    LevelDecoders& decoders() const { return disc.decoders.at(level.folder); }
    const Image& image() const { return *disc.image; }
    cache::LruCache& cache() const { return *disc.cache; }

    uint64_t directory(uint64_t parent, const std::string& name) const { return tree.add_directory(parent, name); }
    void file(uint64_t parent, const std::string& name, std::shared_ptr<const Source> source, Origin origin) const {
        tree.add_file(parent, name, std::move(source), std::move(origin));
    }

    // A file made from one region of the decoded core.
    Origin from_core(std::string decoder, const formats::CoreRegion& region, const std::string& what) const;
    // Made from gs_ram.bin's bytes [from, to) (a billboard, a stashed texture: their
    // palette and texels), held to the lump: its image bytes, served as they are.
    Origin from_gs_ram(uint64_t from, uint64_t to, std::string decoder, std::string detail) const;

    static constexpr const char* kWadLz = "WAD LZ (formats.md 5)";
};

}  // namespace gcfs::tree
