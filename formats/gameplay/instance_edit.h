// What an instance table's rows (table_rows.h) mean for the rest of
// gameplay.bin: every block that counts, indexes or links the instances is
// written again from them, each by the rule the reference's writer follows
// (docs/formats.md, "Adding and removing instances"). Blocks nothing
// changed keep their bytes.
#pragma once

#include <array>
#include <optional>

#include "formats/gameplay/table_rows.h"
#include "formats/gameplay/visibility.h"

namespace gcfs::formats::gameplay {

using BlockBytes = std::array<std::optional<Bytes>, kBlockCount>;

// `blocks` holds g's blocks (raw_blocks); the table's block and every block
// its rows touch are replaced, and `visibility` (when given) gets what the
// level's occlusion data must follow. Throws (fail()) naming the line, the
// link or the limit that stops the edit; `blocks` is then left half-written,
// so a caller assembles nothing from it.
void write_instances(const Gameplay& g, const TableSpec& t, const EditedTable& edited, BlockBytes& blocks, Visibility* visibility);

}  // namespace gcfs::formats::gameplay
