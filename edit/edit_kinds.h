// Which files of a level folder can be written under -o edits, and how each
// one's bytes become the level's parts (edit/level_parts.h): the WAD-LZ
// streams as they are, textures through formats/core/texture_encode.h,
// gameplay tables and texts through formats/gameplay/import.h.
#pragma once

#include <stdexcept>
#include <string>

#include "edit/level_parts.h"
#include "formats/common/bytes.h"
#include "tree/disc_scan.h"

namespace gcfs::edit {

// An edit that cannot be encoded: `what` is the reason, naming the line and
// column, the pixel or the size at fault.
class EditRefused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The level (index in scan.levels) a mount path belongs to and the path inside it.
struct LevelPath {
    size_t level = 0;
    std::string inside;  // "textures/tfrag_000.png"
};
std::optional<LevelPath> level_path(const tree::DiscScan& scan, const std::string& path);

// Whether `inside` names a file kind gcfs encodes (the level's own tables
// decide whether that file exists).
bool editable_kind(const std::string& inside);

// Encodes `content` as the file `inside` of `level` into `parts`; returns the
// edit's status (how it was encoded) or throws EditRefused.
std::string apply_edit(LevelParts& parts, const tree::LevelScan& level, const std::string& inside, formats::ByteSpan content);

}  // namespace gcfs::edit
