// help/<language>.txt read back (formats-gameplay.md §3.4): one line a
// message, "<id>\t<text>". A line with a new id adds a message, a line
// taken out removes one; the eight language blocks list the same messages,
// so an added message is added to the other languages with no text (offset
// 0, §3.4) and a removed one leaves them all.
#pragma once

#include <string>
#include <string_view>

#include "formats/gameplay/instance_edit.h"

namespace gcfs::formats::gameplay {

// Replaces the help blocks the text changes in `blocks`; returns what the
// other languages got ("" when only texts changed). Throws (fail()) naming
// the line and column.
std::string import_help(const Gameplay& g, int language, std::string_view text, BlockBytes& blocks);

}  // namespace gcfs::formats::gameplay
