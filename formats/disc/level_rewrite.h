// The LEVEL WAD container written again with new bytes for some of its parts
// (formats.md §3.1, §4.1): the writer beside level_wad.h and data_lump.h for
// an edit that changes one part and must leave every other byte as it was.
#pragma once

#include <map>
#include <string>

#include "formats/common/bytes.h"

namespace gcfs::formats {

// `parts` holds the new stored bytes (WAD-LZ compressed already where §4.1
// says the part is) of data-lump sections by their data_lump_sections() name
// ("core_data", "gs_ram", "hud_bank_1", ...) and of the level extents
// "gameplay" and "occlusion" (§3.1 0x20, 0x28). A part that still fits where it was is written there, the rest
// of its old room zeroed; one that grows pushes what follows it along, by the
// growth rounded to the part's unit (0x40 bytes in the lump, as Wrench aligns
// its sections; one sector in the container), so every other part keeps its
// bytes and order and a container whose extents tiled still does. The header
// keeps its own layout (0x60 or 0x68, §3.2). A part the container does not
// have cannot be added: that is an error, as is a part past 2 GiB.
Result<Bytes> rewrite_level_container(ByteSpan container, const std::map<std::string, Bytes>& parts);

}  // namespace gcfs::formats
