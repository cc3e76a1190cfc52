#include "tree/level/core_geometry.h"

#include <fmt/format.h>

#include "formats/export/texture_png.h"
#include "tree/node/sources.h"

namespace gcfs::tree {

LevelGeometry::LevelGeometry(const Image& image, cache::LruCache& cache, CoreStream stream,
                             std::optional<formats::CoreRegion> occlusion, std::optional<formats::CoreRegion> sky,
                             std::optional<formats::CoreRegion> collision, formats::CollisionSourceInfo source)
    : image_(image), cache_(cache), stream_(stream), occlusion_(std::move(occlusion)), sky_(std::move(sky)),
      collision_(std::move(collision)), source_(std::move(source)), head_key_(new_cache_key()), obj_key_(new_cache_key()),
      sky_obj_key_(new_cache_key()) {}

uint64_t LevelGeometry::head_from() const {
    uint64_t from = UINT64_MAX;
    for (const auto* r : {&occlusion_, &sky_, &collision_})
        if (*r) from = std::min(from, (*r)->offset);
    return from == UINT64_MAX ? 0 : from;
}

cache::Loaded LevelGeometry::head() const {
    // §6.2: tfrags, occlusion, sky, collision head DAT in that order, so the
    // stream is decoded only up to the end of the last region present, and
    // only the regions are kept: the tfrag region before them is
    // LevelTerrain's (1.2 of 3.1 MB at full scale, held twice before).
    uint64_t end = 0;
    for (const auto* r : {&occlusion_, &sky_, &collision_})
        if (*r) end = std::max(end, (*r)->offset + (*r)->size);
    return cached_core_window(cache_, head_key_, image_, stream_, head_from(), end);
}

std::span<const uint8_t> LevelGeometry::bytes_of(const cache::Loaded& head, const formats::CoreRegion& region) const {
    return head.bytes->bytes().subspan(region.offset - head_from(), region.size);
}

const GeometryIndex& LevelGeometry::index() const { return indexed(nullptr); }

const GeometryIndex& LevelGeometry::indexed(std::optional<formats::MergedCollision>* merge_made) const {
    std::call_once(indexed_, [this, merge_made] {
        const cache::Loaded decoded = head();
        if (!decoded.bytes) {
            for (auto [region, error] : {std::pair{&occlusion_, &index_.occlusion_error},
                                         std::pair{&sky_, &index_.sky_error}, std::pair{&collision_, &index_.collision_error}})
                if (*region) *error = decoded.error;
            return;
        }
        // Errors name the byte in core_data.bin, where a user can look.
        auto where = [](const formats::CoreRegion& r, const formats::FormatError& e) {
            return fmt::format("{} block at core_data.bin 0x{:x}: {} at core_data.bin 0x{:x}: {}", r.name, r.offset,
                               formats::errc_name(e.code), r.offset + e.offset, e.message);
        };
        if (occlusion_) {
            auto parsed = formats::parse_occlusion(bytes_of(decoded, *occlusion_));
            if (parsed.ok()) index_.occlusion = *parsed;
            else index_.occlusion_error = where(*occlusion_, parsed.error());
        }
        if (sky_) {
            // The sky is rejected whole when its header or any shell's mesh fails (B.5).
            const auto block = bytes_of(decoded, *sky_);
            auto parsed = formats::parse_sky(block);
            auto meshes = parsed.ok() ? formats::sky_meshes(block, *parsed) : parsed.error();
            if (meshes.ok()) {
                index_.sky_obj_size = formats::sky_obj(*meshes, parsed->header).size();
                index_.sky = std::move(*parsed);
            } else {
                index_.sky_error = where(*sky_, meshes.error());
            }
        }
        if (collision_) {
            auto merged = formats::merge_collision(bytes_of(decoded, *collision_));
            if (!merged.ok()) {
                index_.collision_error = where(*collision_, merged.error());
            } else {
                index_.collision = formats::summarize_collision(*merged, source_);
                if (merge_made) *merge_made = std::move(*merged);
            }
        }
    });
    return index_;
}

cache::Loaded LevelGeometry::checked_text(uint64_t key, const char* name, uint64_t listed, uint64_t scratch,
                                          const std::function<formats::Result<std::string>()>& render) const {
    return cache_.get(key, [&]() -> cache::Loaded {
        if (const cache::Loaded decoded = head(); !decoded.bytes) return decoded;  // its error as the decoder words it
        auto text = render();
        if (!text.ok()) return {nullptr, text.error().describe()};
        // The size a stat reported must be the size a read returns.
        if (text->size() != listed)
            return {nullptr, fmt::format("{} rendered {} bytes, its index said {}", name, text->size(), listed)};
        return {cache::Blob::copy_of({reinterpret_cast<const uint8_t*>(text->data()), text->size()}), {}};
    }, scratch + 3 * listed);  // the text (grown by doubling) and its copy into the cache
}

cache::Loaded LevelGeometry::collision_obj() const {
    const GeometryIndex& index = this->index();
    if (!index.collision) return {nullptr, index.collision_error};
    return checked_text(obj_key_, "collision.obj", index.collision->obj_size, formats::collision_merge_peak(*index.collision), [&] {
        auto merged = collision();
        return merged.ok() ? formats::Result<std::string>(formats::render_collision_obj(*merged, source_))
                           : formats::Result<std::string>(merged.error());
    });
}

cache::Loaded LevelGeometry::sky_obj() const {
    const GeometryIndex& index = this->index();
    if (!index.sky) return {nullptr, index.sky_error};
    return checked_text(sky_obj_key_, "sky.obj", index.sky_obj_size, 0, [&] {
        auto meshes = sky_shells();
        return meshes.ok() ? formats::Result<std::string>(formats::sky_obj(*meshes, index.sky->header))
                           : formats::Result<std::string>(meshes.error());
    });
}

cache::Loaded LevelGeometry::sky_png(size_t def) const {
    const GeometryIndex& index = this->index();
    if (!index.sky) return {nullptr, index.sky_error};
    if (def >= index.sky->textures.size()) return {nullptr, fmt::format("no sky texture {}", def)};
    const cache::Loaded decoded = head();
    if (!decoded.bytes) return decoded;
    // parse_sky checked the texels and the 256-entry palette lie in the block (B.5).
    const auto block = bytes_of(decoded, *sky_);
    const formats::SkyTextureDef& t = index.sky->textures[def];
    const uint64_t base = static_cast<uint64_t>(index.sky->header.texture_data);
    const auto w = static_cast<uint32_t>(t.width), h = static_cast<uint32_t>(t.height);
    const formats::Bytes png = formats::indexed_texture_png(
        w, h, block.subspan(base + static_cast<uint64_t>(t.texture_offset), uint64_t{w} * h),
        block.subspan(base + static_cast<uint64_t>(t.palette_offset), 1024));
    return {cache::Blob::copy_of(png), {}};
}

namespace {
formats::FormatError missing(const std::string& why) { return {formats::Errc::bad_value, 0, why.empty() ? "not in this core" : why}; }
}  // namespace

formats::Result<std::vector<formats::SkyShellMesh>> LevelGeometry::sky_shells() const {
    const GeometryIndex& index = this->index();
    if (!index.sky) return missing(index.sky_error);
    const cache::Loaded decoded = head();
    if (!decoded.bytes) return missing(decoded.error);
    return formats::sky_meshes(bytes_of(decoded, *sky_), *index.sky);
}

formats::Result<formats::MergedCollision> LevelGeometry::collision() const {
    std::optional<formats::MergedCollision> made;
    const GeometryIndex& index = indexed(&made);
    if (!index.collision) return missing(index.collision_error);
    if (made) return std::move(*made);  // this call built the index: its merge is this one
    const cache::Loaded decoded = head();
    if (!decoded.bytes) return missing(decoded.error);
    return formats::merge_collision(bytes_of(decoded, *collision_));
}

uint64_t CollisionObjFile::size() const {
    const GeometryIndex& index = geometry_->index();
    return index.collision ? index.collision->obj_size : 0;
}

std::string CollisionObjFile::open_error() const { return geometry_->index().collision_error; }

ReadOutcome CollisionObjFile::read(uint64_t offset, std::span<uint8_t> out) const {
    const cache::Loaded text = geometry_->collision_obj();
    if (!text.bytes) return {0, text.error};
    return copy_window(text.bytes->bytes(), offset, out);
}

}  // namespace gcfs::tree
