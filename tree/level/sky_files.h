// A level's sky/ folder (formats-tie-sky.md Part B): sky.obj and sky.mtl from
// the shells, and sky_NNN.png per texture def, all from the core head the
// level folder already decodes for info.json (LevelGeometry).
#pragma once

#include <memory>

#include "tree/level/core_geometry.h"
#include "tree/node/node.h"

namespace gcfs::tree {

class SkyFile final : public Source {
public:
    enum class Kind { obj, mtl, png };
    SkyFile(std::shared_ptr<const LevelGeometry> geometry, Kind kind, size_t texture = 0)
        : geometry_(std::move(geometry)), kind_(kind), texture_(texture) {}
    uint64_t size() const override;
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;
    std::string open_error() const override;

private:
    std::shared_ptr<const LevelGeometry> geometry_;
    Kind kind_;
    size_t texture_;
};

// sky/sky_NNN.png, one per texture def; their number is known once the
// core head is decoded, so inodes for 32,768 (texture_count is an s16) are reserved.
class SkyTextureRun final : public FileRun {
public:
    SkyTextureRun(std::shared_ptr<const LevelGeometry> geometry, std::shared_ptr<const Provenance> origin)
        : geometry_(std::move(geometry)), origin_(std::move(origin)) {}
    uint64_t count() const override;
    uint64_t capacity() const override { return 1u << 15; }
    std::string name(uint64_t position) const override;
    std::optional<uint64_t> position(std::string_view name) const override;
    std::shared_ptr<const Source> source(uint64_t position) const override;
    std::shared_ptr<const Provenance> provenance(uint64_t) const override { return origin_; }

private:
    std::shared_ptr<const LevelGeometry> geometry_;
    std::shared_ptr<const Provenance> origin_;
};

}  // namespace gcfs::tree
