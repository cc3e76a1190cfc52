// lights.csv read back (formats-gameplay.md §3.10). Point lights: rows
// changed, added, copied and removed, at most 127; the world columns (pos,
// radius, colour) and the raw u16 columns are one value, a changed world
// cell stored as §3.10 says (positions round(x × 64), the radius truncated,
// colours round(c × 65535)); the 64 + 64 masks computed again. Directional
// lights: changed, and added after the others; they keep their places, as
// mobies, ties and shrubs may name them (§3.10: not established how).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "formats/gameplay/instance_edit.h"

namespace gcfs::formats::gameplay {

struct LightOrigins {
    std::vector<int64_t> directional, point;  // each row's old index (-1: new), by kind
};
LightOrigins import_lights(const Gameplay& g, std::string_view text, BlockBytes& blocks);

}  // namespace gcfs::formats::gameplay
