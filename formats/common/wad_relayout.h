// A WAD of sector-aligned items laid out again with one item replaced (the
// edit layer's writer for the AUDIO and MPEG WADs, formats-globals.md §2-4):
// the header padded to a sector, then every item at a sector boundary in its
// old order, zero-padded to the next, as the builder lays WADs out. Every
// other item keeps its bytes; the caller writes the new offsets into the
// header.
#pragma once

#include <cstdint>
#include <limits>
#include <map>

#include "formats/common/bytes.h"

namespace gcfs::formats {

// An item's key (an old start sector) that sorts after every real one: a
// replacement that must not overwrite an item others share goes there.
constexpr int64_t kNewItem = std::numeric_limits<int64_t>::max();

struct Relaid {
    Bytes wad;
    std::map<int64_t, int32_t> sector_of;  // old start sector (or kNewItem) -> new start sector
};

// `spans`: each item's old start sector and its bytes (the last one may end
// at the WAD's end, short of its span); `replaced` is the item that takes
// `with` instead of its old bytes.
Relaid relay_items(ByteSpan wad, uint64_t header_size, const std::map<int64_t, uint64_t>& spans, int64_t replaced, ByteSpan with);

}  // namespace gcfs::formats
