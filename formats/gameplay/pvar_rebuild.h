// The pvar blocks (formats-gameplay.md §3.13: table, data, moby-link and
// pointer fixups, shared-data pointers) written again when instances that
// own pvars are added, copied or removed, and the moby indices inside pvars
// moved when mobies are.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/gameplay/gameplay.h"

namespace gcfs::formats::gameplay {

struct Pvars {
    std::vector<PvarEntry> table;
    Bytes data;
    std::vector<Fixup> links, pointers;
    SharedData shared;
};
// The decoded blocks of `g`; throws when one the edit needs did not decode.
Pvars pvars_of(const Gameplay& g);

// One row's pvars after the edit: an old entry it keeps (or -1: none), or
// a new entry copied from old entry `copy_of`.
struct PvarOwner {
    int32_t keeps = -1;
    int32_t copy_of = -1;
};
struct PvarPlan {
    std::vector<int32_t> renumber;  // old entry k's new index (-1: dropped)
    std::vector<int32_t> given;     // the index each owner gets (-1: none)
    bool changed = false;
};

// The entries only `gone` (the removed rows' pvar indices) named are
// dropped, unless a survivor (`others`, or an owner keeping it) still names
// it; an entry no record named is kept. The rest keep their order, their
// data is packed back to back as Wrench's build_pvars does, and each copy
// is appended with copies of its fixups and shared pointers.
PvarPlan rebuild_pvars(Pvars& pvars, const std::vector<int32_t>& gone, const std::vector<int32_t>& others,
                       const std::vector<PvarOwner>& owners);

// §3.13: every moby-link value (a moby index) mapped through `moby_of_old`
// (-1: the moby is gone, which is refused, naming the pvar and offset).
// Returns whether a value changed.
bool move_moby_links(Pvars& pvars, const std::vector<int64_t>& moby_of_old);

}  // namespace gcfs::formats::gameplay
