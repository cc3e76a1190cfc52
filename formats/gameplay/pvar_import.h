// pvars/moby_<uid>.bin written back (formats-gameplay.md §3.13): a moby's
// pvar bytes as they are. A class has one layout (Wrench's recover_pvars
// refuses otherwise): the size must be that of the class's other mobies'
// pvars, and their sub-vars header (mode bit 0x20) stays; every fixup and
// shared pointer into the pvar must still fit. A pvar of the same size is
// written in place; another size packs the data again back to back, as
// Wrench's build_pvars writes it.
#pragma once

#include <string_view>

#include "formats/gameplay/instance_edit.h"

namespace gcfs::formats::gameplay {

// Whether `name` (relative to gameplay/) names a moby's pvar file.
bool pvar_file(std::string_view name);

void import_pvar_file(const Gameplay& g, std::string_view name, ByteSpan bytes, BlockBytes& blocks);

}  // namespace gcfs::formats::gameplay
