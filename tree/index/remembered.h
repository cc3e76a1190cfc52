// A level folder as an earlier mount found it (formats/saved_index/
// folder_record.h): its files' sizes and the names of its file runs, so that
// a second mount of the same image lists and stats the folder without
// decoding anything. Reading a file still decodes it, through the source the
// folder's parts made; what it decodes to must agree with the saved size, or
// the read is EIO (the saved index and the image disagree).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "formats/saved_index/folder_record.h"
#include "tree/node/node.h"

namespace gcfs::tree {

// A file whose size is known from the record; its bytes come from `made`.
class RememberedSize final : public Source {
public:
    using Make = std::function<std::shared_ptr<const Source>()>;
    RememberedSize(Make make, uint64_t size) : make_(std::move(make)), size_(size) {}
    uint64_t size() const override { return size_; }
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;
    std::string open_error() const override;
    std::string read_error() const override;

private:
    const Source& made() const;
    // Why the file the parts made is not the one recorded (empty: it is).
    std::string disagreement() const;

    Make make_;
    uint64_t size_;
    mutable std::once_flag once_;
    mutable std::shared_ptr<const Source> made_;
};

// A file run whose names and sizes are known from the record; its files come from `made`.
class RememberedRun final : public FileRun {
public:
    RememberedRun(std::shared_ptr<const FileRun> made, std::shared_ptr<const formats::saved_index::RunRecord> record);
    uint64_t count() const override { return record_->names.size(); }
    uint64_t capacity() const override { return made_->capacity(); }
    std::string name(uint64_t position) const override { return record_->names.at(position); }
    std::optional<uint64_t> position(std::string_view name) const override;
    std::shared_ptr<const Source> source(uint64_t position) const override;
    std::shared_ptr<const Provenance> provenance(uint64_t position) const override { return made_->provenance(position); }

private:
    std::shared_ptr<const FileRun> made_;
    std::shared_ptr<const formats::saved_index::RunRecord> record_;  // shared with the memo: not copied
    // Positions sorted by name, on the first name looked up: a folder built
    // only to reach one file of another run does not sort this one.
    const std::vector<uint32_t>& by_name() const;
    mutable std::once_flag sorted_;
    mutable std::vector<uint32_t> by_name_;
};

// A level folder's record, handed to its subtree (Tree::remember).
class LevelMemo final : public SubtreeMemo {
public:
    LevelMemo(std::string folder, formats::saved_index::FolderRecord record);
    std::shared_ptr<const Source> file(const std::string& path, std::shared_ptr<const Source> made) const override;
    std::shared_ptr<const FileRun> run(const std::string& dir, size_t ordinal, std::shared_ptr<const FileRun> made) const override;

private:
    std::string folder_;  // for log lines
    std::map<std::string, uint64_t> files_;  // the record's built files: path -> size
    std::map<std::pair<std::string, size_t>, std::shared_ptr<const formats::saved_index::RunRecord>> runs_;  // by (dir, ordinal)
};

// What `folder` (a level folder of `tree`, every file sized) holds: every
// built file's size and every run's names and sizes.
formats::saved_index::FolderRecord record_folder(const Tree& tree, uint64_t folder);

}  // namespace gcfs::tree
