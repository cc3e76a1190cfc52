// The gameplay files a modder edits, read back into gameplay.bin (the edit
// decoders beside export.h): the record tables (mobies, ties, shrubs,
// cameras, sounds, env_samples .csv), settings.json and help/<language>.txt.
// A record's bytes change only in the fields whose text changed, so rows
// left alone stay byte-identical; rows and help messages may be added and
// removed, and the blocks that count them are written again.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "formats/common/bytes.h"
#include "formats/gameplay/table_rows.h"
#include "formats/gameplay/visibility.h"

namespace gcfs::formats::gameplay {

// Whether `name` (relative to gameplay/) is a file import_file takes.
bool importable(std::string_view name);

// What the rest of a level gives an edit of its gameplay files.
struct LevelContext {
    HeldClasses held;  // the classes its core holds: a new tie or shrub may name any
    // Its occlusion extent, a copy of the occlusion mappings (formats.md 3.1
    // 0x28), which the game reads when gameplay.bin leaves the slot 0.
    std::optional<Bytes> occlusion_copy;
};

struct Imported {
    Bytes gameplay;
    std::string note;         // which blocks were written again, and why
    Visibility visibility;    // the mappings after the edit, the bits to show and clear
};

// gameplay.bin with `name`'s block rebuilt from `text`, and every block its
// rows count, index or link (instance_edit.h, help_import.h, paths_import.h).
// Errors name the line and column (or the JSON key) that cannot be encoded.
// Without `level`, class cells are checked against gameplay.bin's own
// class lists and only its own mappings block is followed.
Result<Imported> import_file(ByteSpan gameplay, std::string_view name, std::string_view text, const LevelContext* level = nullptr);

// ties.csv and shrubs.csv show the matrix's column 3 twice (col3_x/y/z and
// pos_x/y/z): `edited`, saved over `shown`, with each pair made one value
// again, the one the save changed. Any other file is returned as it is.
// Throws std::invalid_argument (naming the line and the columns) when a
// save changed both of a pair to two values.
std::string reconcile_positions(std::string_view name, std::string_view edited, std::string_view shown);

}  // namespace gcfs::formats::gameplay
