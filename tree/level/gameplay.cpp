#include "tree/level/gameplay.h"

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

cache::Loaded as_blob(const std::vector<ExportFile>& files) {
    std::string all;
    for (const auto& f : files) all += f.content;
    return {cache::Blob::copy_of({reinterpret_cast<const uint8_t*>(all.data()), all.size()}), {}};
}

}  // namespace

const GameplayIndex& LevelGameplay::index() const {
    std::call_once(indexed_, [this] {
        const Decoded d = decode(*stream_);
        index_.error = d.error;
        if (!d.error.empty()) return;
        uint64_t at = 0;
        for (const auto& f : d.files) {
            index_.files.push_back({f.name, at, f.content.size(), f.error});
            at += f.content.size();
        }
        for (const BlockInfo& b : kWriteOrder) index_.blocks.push_back({b.name, d.gameplay.status(b.block)});
    });
    return index_;
}

cache::Loaded LevelGameplay::rendered() const {
    return cache_.get(key_, [this]() -> cache::Loaded {
        const Decoded d = decode(*stream_);
        if (!d.error.empty()) return {nullptr, d.error};
        return as_blob(d.files);
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
