// textures/<table>_NNN.png: a level texture rendered from the decompressed
// core (or, for a stashed moby row, the GS-RAM stash) and its palette in the
// GS-RAM lump on first read, through the cache. Its size is known from the
// texture table when the level folder is built (formats/export/png.h: stored image data).
// The texels come from the core region its neighbours share
// (tree/level/texel_regions.h): whether a texture reads depends on where the core
// stream is damaged, never on what was read first.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "cache/lru_cache.h"
#include "formats/core/bank_textures.h"
#include "formats/core/level_core.h"
#include "formats/particles/particle_defs.h"
#include "tree/node/node.h"
#include "tree/node/sources.h"

namespace gcfs::tree {

class TextureFile final : public Source {
public:
    // `stash`: the texels are in gs_ram at stash + data_offset (formats-moby.md §10.2).
    TextureFile(cache::LruCache& cache, std::shared_ptr<const WadStream> core, std::shared_ptr<const StreamRegion> texels,
                std::shared_ptr<const Source> gs_ram, formats::TextureEntry texture, int32_t textures_base,
                std::optional<uint64_t> stash = std::nullopt);
    uint64_t size() const override;
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;
    std::string open_error() const override;  // the §6.3 range checks, from sizes in the level headers
    std::string read_error() const override;  // and whether its texels decode

private:
    cache::Loaded render() const;

    cache::LruCache& cache_;
    std::shared_ptr<const WadStream> core_;
    std::shared_ptr<const StreamRegion> texels_;  // null for a stashed row
    std::shared_ptr<const Source> gs_ram_;
    formats::TextureEntry texture_;
    int32_t textures_base_;
    std::optional<uint64_t> stash_;
    uint64_t key_;
};

// textures/part_NNN.png and fx_NNN.png: a particle or fx texture, texels
// and palette both from its bank in the decompressed core.
class BankTextureFile final : public Source {
public:
    BankTextureFile(cache::LruCache& cache, std::shared_ptr<const WadStream> core, std::shared_ptr<const StreamRegion> texels,
                    formats::BankTexture texture, int32_t bank_offset)
        : cache_(cache), core_(std::move(core)), texels_(std::move(texels)), texture_(texture), bank_offset_(bank_offset),
          key_(new_cache_key()) {}
    uint64_t size() const override;
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;
    std::string open_error() const override;
    std::string read_error() const override;

private:
    cache::LruCache& cache_;
    std::shared_ptr<const WadStream> core_;
    std::shared_ptr<const StreamRegion> texels_;
    formats::BankTexture texture_;
    int32_t bank_offset_;
    uint64_t key_;
};

// particles/NNN.png: a particle's frames (formats-globals.md §13) as one
// animated PNG, each frame from the particle bank like part_NNN.png.
class ParticleAnimationFile final : public Source {
public:
    ParticleAnimationFile(cache::LruCache& cache, std::shared_ptr<const WadStream> core, std::shared_ptr<const StreamRegion> texels,
                          formats::particles::Particle particle, std::vector<formats::BankTexture> textures, int32_t bank_offset)
        : cache_(cache), core_(std::move(core)), texels_(std::move(texels)), particle_(std::move(particle)), textures_(std::move(textures)),
          bank_offset_(bank_offset), key_(new_cache_key()) {}
    uint64_t size() const override;
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;
    std::string open_error() const override;  // the definition's and every frame's range checks
    std::string read_error() const override;

private:
    cache::LruCache& cache_;
    std::shared_ptr<const WadStream> core_;
    std::shared_ptr<const StreamRegion> texels_;
    formats::particles::Particle particle_;
    std::vector<formats::BankTexture> textures_;
    int32_t bank_offset_;
    uint64_t key_;
};

}  // namespace gcfs::tree
