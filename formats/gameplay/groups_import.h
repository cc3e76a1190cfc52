// groups.csv read back (formats-gameplay.md 3.11): groups changed, added (a
// row with an empty or unknown `group`), copied and removed. A group is its
// `members` cell, the indices of the instances it lists as mobies.csv,
// ties.csv and shrubs.csv show them; the groups of a kind are numbered in line
// order. The moby records' `group` field (§3.1) follows, so a moby names the
// group that lists it, -1 when none does.
#pragma once

#include <string_view>

#include "formats/gameplay/instance_edit.h"

namespace gcfs::formats::gameplay {

void import_groups(const Gameplay& g, std::string_view text, BlockBytes& blocks);

}  // namespace gcfs::formats::gameplay
