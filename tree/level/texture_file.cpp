#include "tree/level/texture_file.h"

#include <fmt/format.h>

#include <algorithm>

#include "formats/core/core_tables.h"
#include "formats/export/png.h"
#include "formats/export/texture_png.h"
#include "formats/particles/particle_animation.h"

namespace gcfs::tree {

namespace {

// `offset` (a core_data byte) as an offset into texels loaded from core byte `base`.
int32_t rebased(int32_t offset, uint64_t base) { return static_cast<int32_t>(int64_t{offset} - static_cast<int64_t>(base)); }

// A picture drawn from a bank in the level's shared texel region, through
// the cache under `key`: `render` gets the bytes loaded and the bank's
// offset in them. Particle and fx textures and particle animations read so.
template <typename Render>
ReadOutcome read_bank_picture(cache::LruCache& cache, uint64_t key, const Source& file, const std::shared_ptr<const StreamRegion>& texels,
                              int32_t bank_offset, Render render, uint64_t offset, std::span<uint8_t> out) {
    const cache::Loaded png = cache.get(key, [&]() -> cache::Loaded {
        // The region is null only when no texture of the level lies in the core, and then open_error names why.
        if (std::string problem = file.open_error(); !problem.empty()) return {nullptr, problem};
        const StreamRegion::Bytes bytes = texels->bytes();
        if (!bytes.loaded.bytes) return bytes.loaded;
        auto made = render(bytes.loaded.bytes->bytes(), rebased(bank_offset, bytes.base));
        if (!made.ok()) return {nullptr, "core_data.bin " + made.error().describe()};
        return {cache::Blob::copy_of(*made), {}};
    });
    if (!png.bytes) return {0, png.error};
    return copy_window(png.bytes->bytes(), offset, out);
}

}  // namespace

TextureFile::TextureFile(cache::LruCache& cache, std::shared_ptr<const WadStream> core, std::shared_ptr<const StreamRegion> texels,
                         std::shared_ptr<const Source> gs_ram, formats::TextureEntry texture, int32_t textures_base,
                         std::optional<uint64_t> stash)
    : cache_(cache), core_(std::move(core)), texels_(std::move(texels)), gs_ram_(std::move(gs_ram)), texture_(texture),
      textures_base_(textures_base), stash_(stash), key_(new_cache_key()) {}

std::string TextureFile::open_error() const {
    // Both sizes are declared (core header 0x8C, data lump): nothing is decoded.
    return formats::texture_problem(texture_, textures_base_, core_->size(), gs_ram_->size(), stash_);
}

std::string TextureFile::read_error() const {
    if (std::string problem = open_error(); !problem.empty() || stash_) return problem;
    return texels_->error();
}

uint64_t TextureFile::size() const { return formats::texture_png_size(texture_); }

cache::Loaded TextureFile::render() const {
    return cache_.get(key_, [this]() -> cache::Loaded {
        if (std::string problem = open_error(); !problem.empty()) return {nullptr, problem};
        formats::Bytes gs_ram(gs_ram_->size());
        if (const ReadOutcome got = gs_ram_->read(0, gs_ram); !got.ok()) return {nullptr, "gs_ram.bin: " + got.error};
        if (stash_) {  // texels and palette both from the GS-RAM lump
            auto png = formats::texture_png(texture_, gs_ram, static_cast<int32_t>(*stash_), gs_ram);
            if (!png.ok()) return {nullptr, "gs_ram.bin " + png.error().describe()};
            return {cache::Blob::copy_of(*png), {}};
        }
        const StreamRegion::Bytes texels = texels_->bytes();
        if (!texels.loaded.bytes) return texels.loaded;
        auto png = formats::texture_png(texture_, texels.loaded.bytes->bytes(), rebased(textures_base_, texels.base), gs_ram);
        if (!png.ok()) return {nullptr, "core_data.bin " + png.error().describe()};
        if (png->size() != size())  // stat reported the arithmetic size
            return {nullptr, fmt::format("PNG of {} bytes, {} declared", png->size(), size())};
        return {cache::Blob::copy_of(*png), {}};
    });
}

ReadOutcome TextureFile::read(uint64_t offset, std::span<uint8_t> out) const {
    const cache::Loaded png = render();
    if (!png.bytes) return {0, png.error};
    return copy_window(png.bytes->bytes(), offset, out);
}

uint64_t BankTextureFile::size() const {
    return formats::png::indexed_size(static_cast<uint32_t>(std::max(texture_.width, 0)), static_cast<uint32_t>(std::max(texture_.height, 0)));
}

std::string BankTextureFile::open_error() const { return formats::bank_texture_problem(texture_, bank_offset_, core_->size()); }

std::string BankTextureFile::read_error() const {
    if (std::string problem = open_error(); !problem.empty()) return problem;
    return texels_->error();
}

ReadOutcome BankTextureFile::read(uint64_t offset, std::span<uint8_t> out) const {
    return read_bank_picture(
        cache_, key_, *this, texels_, bank_offset_,
        [this](formats::ByteSpan core, int32_t bank) { return formats::bank_texture_png(texture_, core, bank); }, offset, out);
}

uint64_t ParticleAnimationFile::size() const { return formats::particles::animation_size(particle_, textures_); }

std::string ParticleAnimationFile::open_error() const {
    if (!particle_.error.empty()) return particle_.error;
    if (particle_.frames.empty()) return fmt::format("particle {} has no frames", particle_.slot);
    for (size_t f = 0; f < particle_.frames.size(); ++f)
        if (std::string problem = formats::bank_texture_problem(textures_[particle_.frames[f]], bank_offset_, core_->size()); !problem.empty())
            return fmt::format("particle {} frame {}: {}", particle_.slot, f, problem);
    return {};
}

std::string ParticleAnimationFile::read_error() const {
    if (std::string problem = open_error(); !problem.empty()) return problem;
    return texels_->error();
}

ReadOutcome ParticleAnimationFile::read(uint64_t offset, std::span<uint8_t> out) const {
    return read_bank_picture(
        cache_, key_, *this, texels_, bank_offset_,
        [this](formats::ByteSpan core, int32_t bank) { return formats::particles::animation_png(particle_, textures_, core, bank); }, offset,
        out);
}

}  // namespace gcfs::tree
