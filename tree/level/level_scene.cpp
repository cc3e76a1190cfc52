#include "tree/level/level_scene.h"

#include <fmt/format.h>

#include "formats/collision/collision_export.h"
#include "formats/export/preview.h"
#include "tree/level/glb_images.h"
#include "tree/level/level_preview.h"

namespace gcfs::tree {

LevelScene::LevelScene(cache::LruCache& cache, SceneSources sources, SceneKind kind)
    : cache_(cache), sources_(std::move(sources)), kind_(kind), key_(new_cache_key()), preview_key_(new_cache_key()) {}

const SceneIndex& LevelScene::index() const {
    std::call_once(indexed_, [this] {
        // The scene without its image bytes: meshes and JSON give the size
        // (images are stored PNGs of arithmetic size); then it is let go.
        const BuiltScene built = build_level_scene(sources_, kind_);
        index_.size = formats::gltf::glb_size(built.scene);
        index_.counts = built.counts;
        index_.peak = 3 * index_.size;
        if (kind_ == SceneKind::collision && sources_.geometry)
            if (const auto& collision = sources_.geometry->index().collision) index_.peak += formats::collision_merge_peak(*collision);
    });
    return index_;
}

cache::Loaded LevelScene::glb() const {
    const SceneIndex& index = this->index();
    return cache_.get(key_, [&]() -> cache::Loaded {
        const BuiltScene built = build_level_scene(sources_, kind_);
        auto bytes = formats::gltf::write_glb(built.scene, glb_images(built.scene, built.images));
        if (!bytes.ok()) return {nullptr, file_name() + ": " + bytes.error().message};
        // The size a stat reported must be the size a read returns.
        if (bytes->size() != index.size)
            return {nullptr, fmt::format("{}: built {} bytes, its first build said {}", file_name(), bytes->size(), index.size)};
        return {cache::Blob::copy_of(*bytes), {}};
    }, index.peak);
}

cache::Loaded LevelScene::preview() const {
    return cache_.get(preview_key_, [&]() -> cache::Loaded { return {cache::Blob::copy_of(level_preview_png(sources_)), {}}; });
}

uint64_t SceneFile::size() const {
    return kind_ == Kind::glb ? scene_->index().size : formats::terrain_preview_png_size();
}

ReadOutcome SceneFile::read(uint64_t offset, std::span<uint8_t> out) const {
    const cache::Loaded file = kind_ == Kind::glb ? scene_->glb() : scene_->preview();
    if (!file.bytes) return {0, file.error};
    return copy_window(file.bytes->bytes(), offset, out);
}

}  // namespace gcfs::tree
