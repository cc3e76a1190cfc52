// textures/tfrag_NNN.png: a tfrag texture rendered from the decompressed core
// and the GS-RAM lump on first read, through the cache. Its size is known from
// the texture table at mount (formats/png.h: stored image data).
#pragma once

#include <memory>
#include <string>

#include "cache/lru_cache.h"
#include "formats/level_core.h"
#include "tree/node.h"
#include "tree/sources.h"

namespace gcfs::tree {

class TextureFile final : public Source {
public:
    TextureFile(cache::LruCache& cache, std::shared_ptr<const WadStream> core, std::shared_ptr<const Source> gs_ram,
                formats::TextureEntry texture, int32_t textures_base, std::string problem);
    uint64_t size() const override;
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;
    std::string open_error() const override { return problem_; }  // found at mount (§6.3 checks)

private:
    cache::Loaded render() const;

    cache::LruCache& cache_;
    std::shared_ptr<const WadStream> core_;
    std::shared_ptr<const Source> gs_ram_;
    formats::TextureEntry texture_;
    int32_t textures_base_;
    std::string problem_;
    uint64_t key_;
};

}  // namespace gcfs::tree
