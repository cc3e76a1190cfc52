#include "tree/level/terrain.h"

#include <fmt/format.h>

#include "tree/node/sources.h"

namespace gcfs::tree {
namespace {

cache::Loaded as_loaded(formats::Result<std::string> text) {
    if (!text.ok()) return {nullptr, text.error().describe()};
    return {cache::Blob::copy_of({reinterpret_cast<const uint8_t*>(text->data()), text->size()}), {}};
}

}  // namespace

LevelTerrain::LevelTerrain(const Image& image, cache::LruCache& cache, CoreStream stream, uint64_t block_offset,
                           uint64_t block_size, formats::TfragSourceInfo source)
    : image_(image), cache_(cache), stream_(stream), block_offset_(block_offset), block_size_(block_size),
      source_(std::move(source)), key_(new_cache_key()) {}

cache::Loaded LevelTerrain::block() const {
    // The tfrag region heads the core (§6.2: tfrags are packed first), so
    // only that prefix of the stream is decoded, not the whole core.
    return cached_core_window(cache_, key_, image_, stream_, block_offset_, block_offset_ + block_size_);
}

const TerrainIndex& LevelTerrain::index() const {
    std::call_once(indexed_, [this] {
        const cache::Loaded bytes = block();
        if (!bytes.bytes) {
            index_.error = bytes.error;
            return;
        }
        auto summary = formats::summarize_tfrags(bytes.bytes->bytes());
        if (!summary.ok()) {
            index_.error = "tfrag block " + summary.error().describe();
            return;
        }
        index_.summary = std::move(*summary);
        for (const auto& patch : index_.summary.patches) {
            std::array<uint64_t, 3> sizes{};
            for (int lod = 0; lod < 3; ++lod) sizes[lod] = formats::tfrag_patch_obj_size(source_, patch, lod);
            index_.patch_sizes.push_back(sizes);
        }
        index_.terrain_size = formats::tfrag_terrain_obj_size(source_, index_.summary);
        index_.csv_size = formats::tfrag_patches_csv(source_, index_.summary).size();
        indexed_done_ = true;
    });
    return index_;
}

PatchEntry LevelTerrain::patch(uint32_t i) const {
    if (indexed_done_) {
        if (!index_.error.empty()) return {index_.error, {}, {}, {}};
        if (i >= index_.summary.patches.size()) return {fmt::format("patch {} is not in the {}-patch block", i, index_.summary.patches.size()), {}, {}, {}};
        return {{}, index_.summary.header, index_.summary.patches[i], index_.patch_sizes[i]};
    }
    std::lock_guard lock(patches_mutex_);
    if (auto found = patches_.find(i); found != patches_.end()) return found->second;
    // Summarised alone, by the same function the full index uses: a first
    // read of one patch does not index the other hundreds.
    PatchEntry entry;
    const cache::Loaded bytes = block();
    auto header = bytes.bytes ? formats::parse_tfrags_header(bytes.bytes->bytes()) : formats::Result<formats::TfragsHeader>(formats::TfragsHeader{});
    if (!bytes.bytes) entry.error = bytes.error;
    else if (!header.ok()) entry.error = "tfrag block " + header.error().describe();
    else if (i >= static_cast<uint32_t>(header->tfrag_count)) entry.error = fmt::format("patch {} is not in the {}-patch block", i, header->tfrag_count);
    else {
        entry.header = *header;
        entry.summary = formats::summarize_tfrag_patch(bytes.bytes->bytes(), *header, i);
        for (int lod = 0; lod < 3; ++lod) entry.sizes[lod] = formats::tfrag_patch_obj_size(source_, entry.summary, lod);
    }
    return patches_.emplace(i, std::move(entry)).first->second;
}

PatchObjRun::PatchObjRun(std::shared_ptr<const LevelTerrain> terrain, const formats::TfragsHeader& header, int lod,
                         std::shared_ptr<const Provenance> block_origin)
    : terrain_(std::move(terrain)), header_(header), lod_(lod), block_origin_(std::move(block_origin)),
      first_key_(new_cache_keys(count())) {}

std::shared_ptr<const Provenance> PatchObjRun::provenance(uint64_t position) const {
    auto origin = std::make_shared<Provenance>(*block_origin_);
    const uint64_t header =
        terrain_->source().block_offset + formats::tfrag_patch_header_offset(header_, static_cast<uint32_t>(position));
    origin->detail = fmt::format("tfrag patch {} (header at core_data.bin 0x{:x}), LOD {}; {}", position, header, lod_,
                                 origin->detail);
    return origin;
}

std::string PatchObjRun::name(uint64_t position) const {
    return formats::tfrag_patch_name(static_cast<uint32_t>(position)) + ".obj";
}

std::optional<uint64_t> PatchObjRun::position(std::string_view name) const {
    constexpr std::string_view kPrefix = "patch_", kSuffix = ".obj";
    if (name.size() <= kPrefix.size() + kSuffix.size() || name.substr(0, kPrefix.size()) != kPrefix ||
        name.substr(name.size() - kSuffix.size()) != kSuffix)
        return std::nullopt;
    const std::string_view digits = name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
    if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    const uint64_t n = std::stoull(std::string(digits));
    // Only the canonical spelling names a file: patch_0007.obj, not patch_7.obj.
    if (n >= count() || name != this->name(n)) return std::nullopt;
    return n;
}

std::shared_ptr<const Source> PatchObjRun::source(uint64_t position) const {
    return std::make_shared<TerrainFile>(terrain_, TerrainFile::Kind::patch_obj, static_cast<uint32_t>(position), lod_, first_key_ + position);
}

TerrainFile::TerrainFile(std::shared_ptr<const LevelTerrain> terrain, Kind kind, uint32_t patch, int lod, uint64_t key)
    : terrain_(std::move(terrain)), kind_(kind), patch_(patch), lod_(lod), key_(key) {}

uint64_t TerrainFile::size() const {
    if (kind_ == Kind::patch_obj) {
        const PatchEntry entry = terrain_->patch(patch_);
        return entry.error.empty() ? entry.sizes[lod_] : 0;
    }
    const TerrainIndex& index = terrain_->index();
    if (!index.error.empty()) return 0;
    return kind_ == Kind::terrain_obj ? index.terrain_size : index.csv_size;
}

std::string TerrainFile::open_error() const {
    if (kind_ == Kind::patch_obj) {
        const PatchEntry entry = terrain_->patch(patch_);
        if (!entry.error.empty()) return entry.error;
        // A patch whose geometry disagrees with its header is reported, never half-emitted.
        return entry.summary.ok ? std::string() : fmt::format("patch {} rejected: {}", patch_, entry.summary.error);
    }
    return terrain_->index().error;
}

cache::Loaded TerrainFile::render() const {
    return terrain_->cache().get(key_, [this]() -> cache::Loaded {
        if (std::string error = open_error(); !error.empty()) return {nullptr, error};
        const cache::Loaded block = terrain_->block();
        if (!block.bytes) return block;
        if (kind_ == Kind::patch_obj) {
            const PatchEntry entry = terrain_->patch(patch_);
            return as_loaded(formats::render_tfrag_patch_obj(block.bytes->bytes(), entry.header, terrain_->source(), entry.summary, lod_));
        }
        const TerrainIndex& index = terrain_->index();
        if (kind_ == Kind::patches_csv) return as_loaded(formats::tfrag_patches_csv(terrain_->source(), index.summary));
        return as_loaded(formats::render_tfrag_terrain_obj(block.bytes->bytes(), terrain_->source(), index.summary));
    });
}

ReadOutcome TerrainFile::read(uint64_t offset, std::span<uint8_t> out) const {
    const cache::Loaded text = render();
    if (!text.bytes) return {0, text.error};
    return copy_window(text.bytes->bytes(), offset, out);
}

}  // namespace gcfs::tree
