// The gameplay files a modder edits, read back into gameplay.bin (the edit
// decoders beside export.h): the record tables (mobies, ties, shrubs,
// cameras, sounds, env_samples .csv), settings.json and help/<language>.txt.
// A record's bytes change only in the fields whose text changed, so rows
// left alone stay byte-identical; rows and help messages may be added and
// removed, and the blocks that count them are written again.
#pragma once

#include <string>
#include <string_view>

#include "formats/common/bytes.h"
#include "formats/gameplay/table_rows.h"

namespace gcfs::formats::gameplay {

// Whether `name` (relative to gameplay/) is a file import_file takes.
bool importable(std::string_view name);

// gameplay.bin with `name`'s block rebuilt from `text`, and every block its
// rows count, index or link (instance_edit.h, help_import.h). Errors name
// the line and column (or the JSON key) that cannot be encoded. `held`: the
// classes the level's core holds (a new tie or shrub may name any); without
// it, the class lists of gameplay.bin. `note`: what was written again.
Result<Bytes> import_file(ByteSpan gameplay, std::string_view name, std::string_view text, const HeldClasses* held = nullptr,
                          std::string* note = nullptr);

// ties.csv and shrubs.csv show the matrix's column 3 twice (col3_x/y/z and
// pos_x/y/z): `edited`, saved over `shown`, with each pair made one value
// again, the one the save changed. Any other file is returned as it is.
// Throws std::invalid_argument (naming the line and the columns) when a
// save changed both of a pair to two values.
std::string reconcile_positions(std::string_view name, std::string_view edited, std::string_view shown);

}  // namespace gcfs::formats::gameplay
