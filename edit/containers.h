// The container files an edit can rewrite (formats.md §2.3): a level's LEVEL
// WAD, its AUDIO WAD, or a global WAD; where each lies and what points at it,
// and its parts as edits see them.
#pragma once

#include <compare>
#include <memory>
#include <optional>
#include <string>

#include "formats/common/bytes.h"
#include "tree/tree_builder.h"

namespace gcfs::edit {

struct ContainerKey {
    enum Kind { level, level_audio, global };
    Kind kind = level;
    size_t index = 0;  // in scan.levels, or in scan.toc.globals
    auto operator<=>(const ContainerKey&) const = default;
};

// Where a container lies and what points at it: the table of contents'
// size field (level parts only, §2.3) and header copy, and its ISO9660 file.
struct ContainerPlace {
    std::string iso_path;
    uint32_t lba = 0;
    uint64_t sectors = 0;
    std::optional<uint64_t> toc_size_field;  // byte offset inside the TOC of its size in sectors
    uint64_t toc_header = 0;                 // byte offset inside the TOC of its header copy
    uint64_t header_size = 0;
    bool level_header = false;  // the copy takes the new extents (§3.1); else the file's first header_size bytes
};
// Throws std::runtime_error when the disc has no such container.
ContainerPlace place_of(tree::Disc& original, ContainerKey key);
formats::Bytes read_container(tree::Disc& original, ContainerKey key);

// A container's parts as edits change them, written again once.
class ContainerParts {
public:
    virtual ~ContainerParts() = default;
    virtual bool changed() const = 0;
    virtual formats::Result<formats::Bytes> rebuild() = 0;
    virtual std::unique_ptr<ContainerParts> clone() const = 0;
};

// A WAD an edit rewrites whole (the AUDIO WADs: each edit replaces one item
// and lays the rest out again, formats/audio/audio_wad.h).
class WadFile final : public ContainerParts {
public:
    explicit WadFile(formats::Bytes bytes) : bytes_(std::move(bytes)) {}
    const formats::Bytes& bytes() const { return bytes_; }
    void replace(formats::Bytes bytes) {
        bytes_ = std::move(bytes);
        changed_ = true;
    }
    bool changed() const override { return changed_; }
    formats::Result<formats::Bytes> rebuild() override;
    std::unique_ptr<ContainerParts> clone() const override { return std::make_unique<WadFile>(*this); }

private:
    formats::Bytes bytes_;
    bool changed_ = false;
};

}  // namespace gcfs::edit
