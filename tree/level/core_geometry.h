// A level's occlusion, sky and collision regions (formats.md §8): the core
// stream from the first of them through the collision region decoded on first need, each
// region parsed once into a small summary for info.json and collision.obj,
// and collision.obj rendered lazily through the cache.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "cache/lru_cache.h"
#include "formats/collision/collision_export.h"
#include "formats/core/level_core.h"
#include "formats/occlusion/occlusion.h"
#include "formats/sky/sky.h"
#include "formats/sky/sky_mesh.h"
#include "tree/node/image.h"
#include "tree/node/node.h"
#include "tree/node/sources.h"

namespace gcfs::tree {

// Each region's summary, or why it is missing ("" and no value: the core has
// no such region). A stream head that does not decode is every region's error.
struct GeometryIndex {
    std::optional<formats::OcclusionSummary> occlusion;
    std::optional<formats::Sky> sky;  // parsed, and its shells decode as meshes (else sky_error)
    uint64_t sky_obj_size = 0;
    std::optional<formats::CollisionSummary> collision;
    std::string occlusion_error, sky_error, collision_error;
};

class LevelGeometry {
public:
    // Regions the core header names (absent ones are null).
    LevelGeometry(const Image& image, cache::LruCache& cache, CoreStream stream, std::optional<formats::CoreRegion> occlusion,
                  std::optional<formats::CoreRegion> sky, std::optional<formats::CoreRegion> collision,
                  formats::CollisionSourceInfo source);

    const GeometryIndex& index() const;  // parsed once, on the first stat that needs it
    // collision.obj's text, rendered into the cache.
    cache::Loaded collision_obj() const;
    // sky/sky.obj's text, and sky texture `def` as PNG (formats-tie-sky.md B.2, B.4).
    cache::Loaded sky_obj() const;
    cache::Loaded sky_png(size_t def) const;
    // The sky's shells and the collision block (its mesh merged) decoded
    // again from the head, for the scenes; an error when the region is
    // absent or was rejected. A collision() that builds the index hands
    // over the index's own merge rather than merging twice.
    formats::Result<std::vector<formats::SkyShellMesh>> sky_shells() const;
    formats::Result<formats::MergedCollision> collision() const;
    // The decoded core from the first region through the last, kept in the
    // cache, and where in core_data.bin it starts.
    cache::Loaded head() const;
    uint64_t head_from() const;

private:
    // index(), and when this call is the one that builds it, the collision
    // merge it made (a merge is about a tenth of a level's first listing).
    const GeometryIndex& indexed(std::optional<formats::MergedCollision>* merge_made) const;
    std::span<const uint8_t> bytes_of(const cache::Loaded& head, const formats::CoreRegion& region) const;
    // Text rendered into the cache under `key`, refused when its size
    // differs from the `listed` size stat reported; `scratch`: what the
    // render holds beside the text at its peak, for the cache's budget.
    cache::Loaded checked_text(uint64_t key, const char* name, uint64_t listed, uint64_t scratch,
                               const std::function<formats::Result<std::string>()>& render) const;

    const Image& image_;
    cache::LruCache& cache_;
    CoreStream stream_;
    std::optional<formats::CoreRegion> occlusion_, sky_, collision_;
    formats::CollisionSourceInfo source_;
    uint64_t head_key_, obj_key_, sky_obj_key_;
    mutable std::once_flag indexed_;
    mutable GeometryIndex index_;
};

// LEVELnn/collision.obj.
class CollisionObjFile final : public Source {
public:
    explicit CollisionObjFile(std::shared_ptr<const LevelGeometry> geometry) : geometry_(std::move(geometry)) {}
    uint64_t size() const override;
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;
    std::string open_error() const override;

private:
    std::shared_ptr<const LevelGeometry> geometry_;
};

}  // namespace gcfs::tree
