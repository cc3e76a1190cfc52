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

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/gameplay/import.h"

namespace gcfs::formats::gameplay {

// `earlier`: the file's previous content, as applied over `base`; `text`:
// the new save, made over what that showed.
Result<std::string> rebase_text(ByteSpan base, std::string_view name, std::string_view earlier, std::string_view text, const LevelContext* level);

// A file saved after `name`'s earlier edit, whose cells name rows of `name`
// by number (groups.csv's members: rows of mobies.csv, ties.csv or
// shrubs.csv), applied again after `name` is saved again: its numbers are
// turned from the rows `shown` had into the rows `text` gives them. A member
// whose row `text` removed leaves its group, as a removal in that table does
// (write_instances). Empty when `follower` names no row of `name`, or keeps
// its numbers. The links of areas.csv and settings.json (paths, volumes)
// are not rewritten: a save of paths.csv or volumes.csv under such an edit
// that adds, removes or reorders what they name is refused.
// `text`, a save of a table (an instance table, areas.csv) whose earlier
// edit other edits follow: applied after it again, they set cells the mount
// showed (groups.csv a group cell, paths.csv an area's path links and sphere).
// Each cell but the index the save left as shown is put back as the earlier
// save had it (`earlier`), for them to set again. A cell of `followed` (the
// columns they number) that the save changed, or gave a new row, is refused:
// they would undo it, or it names their new numbers.
Result<std::string> cells_as_earlier(std::string_view name, std::string_view shown, std::string_view earlier, std::string_view text,
                                     const std::vector<std::string>& followed);

// settings.json saved again under edits that follow its earlier one and
// number what it names (paths.csv the ship path, volumes.csv the ship
// camera's cuboids, §3.5): each of those `followed` keys left as shown is
// put back as `earlier` had it, for them to set again; one changed is refused.
Result<std::string> settings_as_earlier(std::string_view shown, std::string_view earlier, std::string_view text,
                                        const std::vector<std::string>& followed);

Result<std::optional<std::string>> follow_rows(std::string_view name, std::string_view shown, std::string_view text, std::string_view follower_name,
                                               std::string_view follower);

}  // namespace gcfs::formats::gameplay
