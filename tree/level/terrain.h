// A level's tfrag/ folder: the tfrag region decoded from the head of the
// core_data stream on first need, a per-level index of every patch (status,
// counts, file sizes) built once, and the OBJ / CSV files rendered lazily
// through the cache.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "cache/lru_cache.h"
#include "formats/tfrag/tfrag_export.h"
#include "tree/node/image.h"
#include "tree/node/node.h"
#include "tree/node/sources.h"

namespace gcfs::tree {

struct TerrainIndex {
    std::string error;  // non-empty: the block could not be decoded at all
    formats::TfragBlockSummary summary;
    std::vector<std::array<uint64_t, 3>> patch_sizes;  // by patch, by LOD
    uint64_t terrain_size = 0;
    uint64_t csv_size = 0;
};

// One patch: its summary and OBJ sizes per LOD, or why the block has none.
struct PatchEntry {
    std::string error;
    formats::TfragsHeader header;
    formats::TfragPatchSummary summary;
    std::array<uint64_t, 3> sizes{};
};

class LevelTerrain {
public:
    // The block is [block_offset, block_offset + block_size) of the decoded core.
    LevelTerrain(const Image& image, cache::LruCache& cache, CoreStream stream, uint64_t block_offset,
                 uint64_t block_size, formats::TfragSourceInfo source);

    // Built once, on the first stat of any file of the folder.
    const TerrainIndex& index() const;
    // One patch, from the index once it is built, else summarised alone
    // (and kept): a lookup and read of one patch never indexes the rest.
    PatchEntry patch(uint32_t index) const;
    // The tfrag block's bytes, decoded into the cache (re-decoded if evicted).
    cache::Loaded block() const;
    const formats::TfragSourceInfo& source() const { return source_; }
    cache::LruCache& cache() const { return cache_; }

private:
    const Image& image_;
    cache::LruCache& cache_;
    CoreStream stream_;
    uint64_t block_offset_, block_size_;
    formats::TfragSourceInfo source_;
    uint64_t key_;
    mutable std::once_flag indexed_;
    mutable TerrainIndex index_;
    mutable std::atomic<bool> indexed_done_{false};
    mutable std::mutex patches_mutex_;
    mutable std::map<uint32_t, PatchEntry> patches_;  // patches summarised before the index
};

// tfrag/[lodN/]patch_NNNN.obj: one file per patch of the level, generated.
class PatchObjRun final : public FileRun {
public:
    // `block_origin`: where the tfrag block comes from; each patch adds its place in it.
    PatchObjRun(std::shared_ptr<const LevelTerrain> terrain, const formats::TfragsHeader& header, int lod,
                std::shared_ptr<const Provenance> block_origin);
    uint64_t count() const override { return static_cast<uint64_t>(header_.tfrag_count); }
    std::string name(uint64_t position) const override;
    std::optional<uint64_t> position(std::string_view name) const override;
    std::shared_ptr<const Source> source(uint64_t position) const override;
    std::shared_ptr<const Provenance> provenance(uint64_t position) const override;

private:
    std::shared_ptr<const LevelTerrain> terrain_;
    formats::TfragsHeader header_;  // read with the level headers (§7.1): the patch count and table
    int lod_;
    std::shared_ptr<const Provenance> block_origin_;
    uint64_t first_key_;  // patch p's OBJ is cached under first_key_ + p
};

// The three kinds of file in tfrag/.
class TerrainFile final : public Source {
public:
    enum class Kind { patch_obj, terrain_obj, patches_csv };
    // `key`: where its text is cached (a run's files are made again on each lookup: the run fixes it).
    TerrainFile(std::shared_ptr<const LevelTerrain> terrain, Kind kind, uint32_t patch = 0, int lod = 0, uint64_t key = new_cache_key());

    uint64_t size() const override;
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;
    std::string open_error() const override;

private:
    cache::Loaded render() const;

    std::shared_ptr<const LevelTerrain> terrain_;
    Kind kind_;
    uint32_t patch_;
    int lod_;
    uint64_t key_;
};

}  // namespace gcfs::tree
