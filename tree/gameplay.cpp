#include "tree/gameplay.h"

#include "formats/gameplay/export.h"

namespace gcfs::tree {

using namespace formats::gameplay;

const GameplayIndex::File* GameplayIndex::find(const std::string& name) const {
    for (const auto& f : files)
        if (f.name == name) return &f;
    return nullptr;
}

LevelGameplay::LevelGameplay(std::shared_ptr<const WadStream> stream, cache::LruCache& cache)
    : stream_(std::move(stream)), cache_(cache), key_(new_cache_key()) {}

namespace {

// The decoded file's every block and export, or why there is none.
struct Decoded {
    std::string error;
    Gameplay gameplay;
    std::vector<ExportFile> files;
};

Decoded decode(const WadStream& stream) {
    Decoded d;
    const cache::Loaded bytes = stream.decoded();
    if (!bytes.bytes) {
        d.error = bytes.error;
        return d;
    }
    d.gameplay = read_gameplay(bytes.bytes->bytes());
    if (!d.gameplay.file_error.empty()) {
        d.error = "gameplay.bin: " + d.gameplay.file_error;
        return d;
    }
    d.files = export_gameplay(d.gameplay);
    return d;
}

size_t records(const Gameplay& g, Block b) {
    auto n = [](const auto& d) -> size_t {
        if (!d.ok()) return 0;
        using T = std::decay_t<decltype(*d.value)>;
        if constexpr (std::is_same_v<T, formats::gameplay::RecordTable>) return d.value->count();
        else if constexpr (std::is_same_v<T, Paths>) return d.value->splines.size();
        else if constexpr (std::is_same_v<T, Groups>) return d.value->groups.size();
        else if constexpr (std::is_same_v<T, HelpMessages>) return d.value->messages.size();
        else if constexpr (std::is_same_v<T, PointLights>) return d.value->lights.count();
        else if constexpr (std::is_same_v<T, EnvTransitions>) return d.value->transitions.count();
        else if constexpr (std::is_same_v<T, Areas>) return d.value->records.count();
        else if constexpr (std::is_same_v<T, CamCollGrid>) return d.value->cells.size();
        else if constexpr (std::is_same_v<T, SharedData>) return d.value->pointers.size();
        else if constexpr (std::is_same_v<T, LevelSettings>) return 1;
        else if constexpr (std::is_same_v<T, OcclusionMappings>) return d.value->kinds[0].size() + d.value->kinds[1].size() + d.value->kinds[2].size();
        else return d.value->size();
    };
    switch (b) {
        case Block::mobies: return n(g.mobies);
        case Block::ties: return n(g.ties);
        case Block::shrubs: return n(g.shrubs);
        case Block::cameras: return n(g.cameras);
        case Block::sounds: return n(g.sounds);
        case Block::dir_lights: return n(g.dir_lights);
        case Block::point_lights: return n(g.point_lights);
        case Block::cuboids: return n(g.cuboids);
        case Block::spheres: return n(g.spheres);
        case Block::cylinders: return n(g.cylinders);
        case Block::pills: return n(g.pills);
        case Block::paths: return n(g.paths);
        case Block::grind_paths: return n(g.grind_paths);
        case Block::moby_groups: return n(g.moby_groups);
        case Block::tie_groups: return n(g.tie_groups);
        case Block::shrub_groups: return n(g.shrub_groups);
        case Block::areas: return n(g.areas);
        case Block::pvar_table: return n(g.pvar_table);
        case Block::env_samples: return n(g.env_samples);
        case Block::env_transitions: return n(g.env_transitions);
        default: return 0;
    }
}

}  // namespace

const GameplayIndex& LevelGameplay::index() const {
    std::call_once(indexed_, [this] {
        const Decoded d = decode(*stream_);
        index_.error = d.error;
        uint64_t at = 0;
        for (const auto& f : d.files) {
            index_.files.push_back({f.name, at, f.content.size(), f.error});
            at += f.content.size();
        }
        if (!d.error.empty()) return;
        for (const BlockInfo& b : kWriteOrder) {
            auto status = d.gameplay.status(b.block);
            index_.block_errors.push_back(*status.error);
            index_.blocks.push_back({b.name, status});
        }
        for (size_t i = 0; i < index_.blocks.size(); ++i) index_.blocks[i].second.error = &index_.block_errors[i];
        for (Block b : {Block::mobies, Block::ties, Block::shrubs, Block::cameras, Block::sounds, Block::dir_lights,
                        Block::point_lights, Block::cuboids, Block::spheres, Block::cylinders, Block::pills, Block::paths,
                        Block::grind_paths, Block::moby_groups, Block::tie_groups, Block::shrub_groups, Block::areas,
                        Block::pvar_table, Block::env_samples, Block::env_transitions})
            index_.counts.push_back({info(b).name, records(d.gameplay, b)});
    });
    return index_;
}

cache::Loaded LevelGameplay::rendered() const {
    return cache_.get(key_, [this]() -> cache::Loaded {
        const Decoded d = decode(*stream_);
        if (!d.error.empty()) return {nullptr, d.error};
        std::string all;
        for (const auto& f : d.files) all += f.content;
        return {cache::Blob::copy_of({reinterpret_cast<const uint8_t*>(all.data()), all.size()}), {}};
    });
}

uint64_t GameplayFile::size() const {
    const auto* f = gameplay_->index().find(name_);
    return f ? f->size : 0;
}

std::string GameplayFile::open_error() const {
    const GameplayIndex& index = gameplay_->index();
    if (!index.error.empty()) return index.error;
    const auto* f = index.find(name_);
    if (!f) return name_ + " is not in the decoded gameplay";
    return f->error.empty() ? std::string() : "gameplay.bin " + f->error;
}

ReadOutcome GameplayFile::read(uint64_t offset, std::span<uint8_t> out) const {
    if (std::string error = open_error(); !error.empty()) return {0, error};
    const auto* f = gameplay_->index().find(name_);
    const cache::Loaded all = gameplay_->rendered();
    if (!all.bytes) return {0, all.error};
    const auto bytes = all.bytes->bytes();
    if (f->offset + f->size > bytes.size()) return {0, "gameplay.bin rendered differently from its index"};
    return copy_window(bytes.subspan(f->offset, f->size), offset, out);
}

const std::vector<std::string>& GameplayRun::names() const {
    std::call_once(listed_, [this] {
        for (const auto& f : gameplay_->index().files)
            if (f.name.starts_with(prefix_)) names_.push_back(f.name.substr(prefix_.size()));
    });
    return names_;
}

std::string GameplayRun::name(uint64_t position) const { return names()[position]; }

std::optional<uint64_t> GameplayRun::position(std::string_view name) const {
    const auto& all = names();
    for (size_t i = 0; i < all.size(); ++i)
        if (all[i] == name) return i;
    return std::nullopt;
}

std::shared_ptr<const Source> GameplayRun::source(uint64_t position) const {
    return std::make_shared<GameplayFile>(gameplay_, prefix_ + names()[position]);
}

}  // namespace gcfs::tree
