// A gameplay file saved again, written as an edit of the file as it was
// before its first edit. An edits folder keeps one content per file, applied
// over the level as the other files' edits leave it (edit/session.h); but a
// table's index cells and paths.csv's path numbers name rows of the table
// the mount showed, which the file's earlier save may have added, removed
// or renumbered. Each such cell is turned into the number of the row it came
// from before that save, or left empty when the earlier save added the row
// (a new row again, with every cell given). Other files name their lines by
// id, times or text, and are returned as they are.
#pragma once

#include <string>
#include <string_view>

#include "formats/common/bytes.h"
#include "formats/gameplay/import.h"

namespace gcfs::formats::gameplay {

// `earlier`: the file's previous content, as applied over `base`; `text`:
// the new save, made over what that showed.
Result<std::string> rebase_text(ByteSpan base, std::string_view name, std::string_view earlier, std::string_view text, const LevelContext* level);

}  // namespace gcfs::formats::gameplay
