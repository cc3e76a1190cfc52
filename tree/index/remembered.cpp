#include "tree/index/remembered.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>

namespace gcfs::tree {

const Source& RememberedSize::made() const {
    std::call_once(once_, [&] { made_ = make_(); });
    return *made_;
}

std::string RememberedSize::disagreement() const {
    // The parts' source answers its own size, decoding what it must: what a read decodes anyway.
    const uint64_t actual = made().size();
    if (actual == size_) return {};
    return fmt::format("the persistent index says {} bytes, the image decodes to {}: the image changed without its "
                       "size, modification time or headers changing; mount it with -o noindex",
                       size_, actual);
}

std::string RememberedSize::open_error() const {
    if (std::string error = made().open_error(); !error.empty()) return error;
    return disagreement();
}

std::string RememberedSize::read_error() const {
    if (std::string error = made().read_error(); !error.empty()) return error;
    return disagreement();
}

ReadOutcome RememberedSize::read(uint64_t offset, std::span<uint8_t> out) const {
    if (std::string error = disagreement(); !error.empty()) return {0, error};
    return made().read(offset, out);
}

RememberedRun::RememberedRun(std::shared_ptr<const FileRun> made, std::shared_ptr<const formats::saved_index::RunRecord> record)
    : made_(std::move(made)), record_(std::move(record)) {}

const std::vector<uint32_t>& RememberedRun::by_name() const {
    std::call_once(sorted_, [&] {
        by_name_.resize(record_->names.size());
        for (uint32_t i = 0; i < by_name_.size(); ++i) by_name_[i] = i;
        std::sort(by_name_.begin(), by_name_.end(), [&](uint32_t a, uint32_t b) { return record_->names[a] < record_->names[b]; });
    });
    return by_name_;
}

std::optional<uint64_t> RememberedRun::position(std::string_view name) const {
    const auto& sorted = by_name();
    const auto at = std::lower_bound(sorted.begin(), sorted.end(), name,
                                     [&](uint32_t i, std::string_view n) { return record_->names[i] < n; });
    if (at == sorted.end() || record_->names[*at] != name) return std::nullopt;
    return *at;
}

std::shared_ptr<const Source> RememberedRun::source(uint64_t position) const {
    auto made = made_;
    auto make = [made, position, name = record_->names.at(position)]() -> std::shared_ptr<const Source> {
        // The run the parts made names its files from the decoded bytes: the
        // same position must be the same name, or the saved index is stale.
        if (position >= made->count() || made->name(position) != name)
            return std::make_shared<Unreadable>(fmt::format(
                "the persistent index lists {} where the image decodes to another file; mount it with -o noindex", name));
        return made->source(position);
    };
    return std::make_shared<RememberedSize>(std::move(make), record_->sizes.at(position));
}

LevelMemo::LevelMemo(std::string folder, formats::saved_index::FolderRecord record)
    : folder_(std::move(folder)), files_(std::move(record.files)) {
    for (auto& run : record.runs) {
        const std::pair<std::string, size_t> key{run.dir, run.ordinal};
        runs_[key] = std::make_shared<const formats::saved_index::RunRecord>(std::move(run));
    }
}

std::shared_ptr<const Source> LevelMemo::file(const std::string& path, std::shared_ptr<const Source> made) const {
    const auto it = files_.find(path);
    if (it == files_.end() || made->dynamic()) return made;
    return std::make_shared<RememberedSize>([made] { return made; }, it->second);
}

std::shared_ptr<const FileRun> LevelMemo::run(const std::string& dir, size_t ordinal, std::shared_ptr<const FileRun> made) const {
    const auto it = runs_.find({dir, ordinal});
    if (it == runs_.end()) return made;
    const auto& record = it->second;
    // Inodes for the run are reserved by its capacity: more names than that
    // would run into the next run's.
    if (record->names.size() > made->capacity()) {
        spdlog::warn("{}/{}: the persistent index lists {} files, the folder has room for {}; decoding it instead", folder_,
                     dir, record->names.size(), made->capacity());
        return made;
    }
    return std::make_shared<RememberedRun>(std::move(made), record);
}

formats::saved_index::FolderRecord record_folder(const Tree& tree, uint64_t folder) {
    formats::saved_index::FolderRecord record;
    std::vector<std::pair<uint64_t, std::string>> folders = {{folder, ""}};
    while (!folders.empty()) {
        const auto [dir, path] = folders.back();
        folders.pop_back();
        const std::string prefix = path.empty() ? "" : path + "/";
        tree.for_each_child(dir, 0, [&](const std::string& name, uint64_t ino, NodeType type) {
            if (type == NodeType::directory) folders.emplace_back(ino, prefix + name);
            // A run's files are recorded with their run, below.
            if (type == NodeType::file && !Tree::is_run_file(ino))
                record.files[prefix + name] = tree.node(ino)->source->size();
            return true;
        });
        const auto runs = tree.runs_of(dir);
        for (size_t r = 0; r < runs.size(); ++r) {
            formats::saved_index::RunRecord run{path, static_cast<uint32_t>(r), {}, {}};
            for (uint64_t i = 0; i < runs[r]->count(); ++i) {
                run.names.push_back(runs[r]->name(i));
                run.sizes.push_back(runs[r]->source(i)->size());
            }
            record.runs.push_back(std::move(run));
        }
    }
    return record;
}

}  // namespace gcfs::tree
