// An edit of a level's gameplay/ files, carried into every part of the
// level it reaches: gameplay.bin (formats/gameplay/import.h), the occlusion
// extent that copies its mappings (formats.md 3.1 0x28), and the masks of
// the occlusion grid in core_data (formats.md 8.1) when an instance moved
// or was added (formats/gameplay/visibility.h).
#pragma once

#include <string>
#include <string_view>

#include "edit/level_parts.h"
#include "formats/common/bytes.h"
#include "formats/gameplay/visibility.h"
#include "tree/disc_scan.h"

namespace gcfs::edit {

// Returns the edit's status; throws EditRefused with the reason.
std::string apply_gameplay_file(LevelParts& parts, const tree::LevelScan& level, std::string_view name, formats::ByteSpan content);

// `content`, saved over what `earlier` showed, as an edit of the file
// without it (formats/gameplay/rebase.h); throws EditRefused.
formats::Bytes rebase_gameplay_file(LevelParts& parts, const tree::LevelScan& level, std::string_view name, formats::ByteSpan earlier,
                                    formats::ByteSpan content);

// formats.md 8.1: `v`'s bits set and cleared in every mask of the level's
// occlusion grid; returns what it did, for the status.
std::string show_visibility_bits(LevelParts& parts, const tree::LevelScan& level, const formats::gameplay::Visibility& v);

}  // namespace gcfs::edit
