// LEVELnn/level.glb: the whole level as one glTF 2.0 scene (terrain, sky,
// every placed tie, shrub and moby instanced from one mesh per class, paths,
// volumes, cameras, lights, sounds), assembled from the level's other
// decoders; LEVELnn/collision.glb: the collision in the same frame. Its size is known on the first stat of the file by
// building the scene without its image bytes (meshes and JSON; images are
// stored PNGs of arithmetic size), then letting the scene go; a read builds it
// again with the images and keeps the file in the cache.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "cache/lru_cache.h"
#include "tree/node/node.h"
#include "tree/level/scene_builder.h"

namespace gcfs::tree {

// A scene always builds: a part that fails is left out and named in its notes.
struct SceneIndex {
    uint64_t size = 0;
    // What a build holds at its peak: the scene's meshes (about the file's
    // size), the file and its copy into the cache, and collision's merge.
    uint64_t peak = 0;
    SceneCounts counts;
};

class LevelScene {
public:
    LevelScene(cache::LruCache& cache, SceneSources sources, SceneKind kind);

    const SceneIndex& index() const;  // built once, on the first stat of level.glb
    cache::Loaded glb() const;        // the file, rendered into the cache
    cache::Loaded preview() const;    // preview.png (a fixed size: listing builds nothing)
    std::string file_name() const { return kind_ == SceneKind::collision ? "collision.glb" : "level.glb"; }

private:
    cache::LruCache& cache_;
    SceneSources sources_;
    SceneKind kind_;
    uint64_t key_, preview_key_;
    mutable std::once_flag indexed_;
    mutable SceneIndex index_;
};

// level.glb or collision.glb, or preview.png.
class SceneFile final : public Source {
public:
    enum class Kind { glb, preview };
    SceneFile(std::shared_ptr<const LevelScene> scene, Kind kind) : scene_(std::move(scene)), kind_(kind) {}
    uint64_t size() const override;
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;

private:
    std::shared_ptr<const LevelScene> scene_;
    Kind kind_;
};

}  // namespace gcfs::tree
