#include "tree/level/sky_files.h"

#include <fmt/format.h>

#include "formats/export/png.h"
#include "formats/sky/sky_mesh.h"
#include "tree/node/sources.h"

namespace gcfs::tree {

uint64_t SkyFile::size() const {
    const GeometryIndex& index = geometry_->index();
    if (!index.sky) return 0;
    switch (kind_) {
        case Kind::obj: return index.sky_obj_size;
        case Kind::mtl: return formats::sky_mtl(index.sky->textures.size()).size();
        case Kind::png: {
            if (texture_ >= index.sky->textures.size()) return 0;
            const auto& t = index.sky->textures[texture_];
            return formats::png::indexed_size(static_cast<uint32_t>(t.width), static_cast<uint32_t>(t.height));
        }
    }
    return 0;
}

std::string SkyFile::open_error() const { return geometry_->index().sky_error; }

ReadOutcome SkyFile::read(uint64_t offset, std::span<uint8_t> out) const {
    if (std::string error = open_error(); !error.empty()) return {0, error};
    if (kind_ == Kind::mtl) {
        const std::string text = formats::sky_mtl(geometry_->index().sky->textures.size());
        return copy_window({reinterpret_cast<const uint8_t*>(text.data()), text.size()}, offset, out);
    }
    const cache::Loaded bytes = kind_ == Kind::obj ? geometry_->sky_obj() : geometry_->sky_png(texture_);
    if (!bytes.bytes) return {0, bytes.error};
    return copy_window(bytes.bytes->bytes(), offset, out);
}

uint64_t SkyTextureRun::count() const {
    const GeometryIndex& index = geometry_->index();
    return index.sky ? index.sky->textures.size() : 0;
}

std::string SkyTextureRun::name(uint64_t position) const { return fmt::format("sky_{:03d}.png", position); }

std::optional<uint64_t> SkyTextureRun::position(std::string_view name) const {
    constexpr std::string_view kPrefix = "sky_", kSuffix = ".png";
    if (name.size() <= kPrefix.size() + kSuffix.size() || !name.starts_with(kPrefix) || !name.ends_with(kSuffix))
        return std::nullopt;
    const std::string_view digits = name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
    if (digits.size() > 5 || digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    const uint64_t n = std::stoull(std::string(digits));
    if (n >= count() || name != this->name(n)) return std::nullopt;  // only the canonical spelling
    return n;
}

std::shared_ptr<const Source> SkyTextureRun::source(uint64_t position) const {
    return std::make_shared<SkyFile>(geometry_, SkyFile::Kind::png, position);
}

}  // namespace gcfs::tree
