// A level's gameplay/ folder: gameplay.bin decoded once on the first stat or
// listing of the folder (it is small), an index of every file's name, size
// and error kept, and the rendered files held in the cache, re-rendered from
// the stream if evicted.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cache/lru_cache.h"
#include "formats/gameplay/gameplay.h"
#include "tree/node/node.h"
#include "tree/node/sources.h"

namespace gcfs::tree {

struct GameplayIndex {
    std::string error;  // the stream or its block table cannot be read: every file fails with it
    struct File {
        std::string name;  // relative to gameplay/
        uint64_t offset = 0, size = 0;  // in the rendered blob
        std::string error;
    };
    std::vector<File> files;
    // Every block in write order (formats-gameplay.md §2.2), for info.json and verify.
    struct BlockLine {
        const char* name;
        formats::gameplay::Gameplay::Status status;
    };
    std::vector<BlockLine> blocks;

    const File* find(const std::string& name) const;
};

class LevelGameplay {
public:
    LevelGameplay(std::shared_ptr<const WadStream> stream, cache::LruCache& cache);

    const GameplayIndex& index() const;
    // Every file's bytes, back to back as the index places them. Not kept
    // from the index build, so listing holds only the index; rendering again
    // parses the decoded stream, which the cache usually still holds.
    cache::Loaded rendered() const;
    cache::LruCache& cache() const { return cache_; }

private:
    std::shared_ptr<const WadStream> stream_;
    cache::LruCache& cache_;
    uint64_t key_;
    mutable std::once_flag indexed_;
    mutable GameplayIndex index_;
};

// One file of gameplay/, by its name relative to the folder.
class GameplayFile final : public Source {
public:
    GameplayFile(std::shared_ptr<const LevelGameplay> gameplay, std::string name)
        : gameplay_(std::move(gameplay)), name_(std::move(name)) {}
    uint64_t size() const override;
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;
    std::string open_error() const override;

private:
    std::shared_ptr<const LevelGameplay> gameplay_;
    std::string name_;
};

// gameplay/help/ and gameplay/pvars/: the files whose names come from the
// decoded content, under `prefix` ("help/", "pvars/").
class GameplayRun final : public FileRun {
public:
    // At most `capacity` files: the first `capacity` names are listed.
    GameplayRun(std::shared_ptr<const LevelGameplay> gameplay, std::string prefix, uint64_t capacity,
                std::shared_ptr<const Provenance> origin)
        : gameplay_(std::move(gameplay)), prefix_(std::move(prefix)), capacity_(capacity), origin_(std::move(origin)) {}
    uint64_t count() const override { return std::min<uint64_t>(names().size(), capacity_); }
    uint64_t capacity() const override { return capacity_; }
    std::string name(uint64_t position) const override;
    std::optional<uint64_t> position(std::string_view name) const override;
    std::shared_ptr<const Source> source(uint64_t position) const override;
    std::shared_ptr<const Provenance> provenance(uint64_t) const override { return origin_; }

private:
    const std::vector<std::string>& names() const;

    std::shared_ptr<const LevelGameplay> gameplay_;
    std::string prefix_;
    uint64_t capacity_;
    std::shared_ptr<const Provenance> origin_;
    mutable std::once_flag listed_;
    mutable std::vector<std::string> names_;  // without the prefix
};

}  // namespace gcfs::tree
