// A global WAD's header as formats-globals.md's conventions describe it: s32
// header_size, the sector word, then named tables of SectorRanges, each range
// relative to the WAD's first byte and absent when its size is <= 0. A range
// past the WAD's end fails that entry alone.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/common/ranges.h"

namespace gcfs::formats {

struct RangeTable {
    const char* name;  // the field's name, as Wrench's struct spells it
    uint64_t offset;   // in the header
    int count;         // 1: a single range
};

struct RangeEntry {
    const RangeTable* table;
    int index;  // within its table
    SectorRange range;
    std::string error;  // where the range passes the WAD's end

    uint64_t byte_offset() const { return range.byte_offset(); }
    uint64_t byte_size() const { return range.byte_size(); }
};

// Every present range of `tables`, checked against `file_size`; the header
// must be `header_size` bytes and say so at +0 (how the TOC knows the WAD).
Result<std::vector<RangeEntry>> read_range_tables(ByteSpan header, int32_t header_size, std::span<const RangeTable> tables,
                                                  uint64_t file_size, const char* what);

// The header with `ranges` placed: each {table, index, range}.
struct PlacedRange {
    const RangeTable* table;
    int index;
    SectorRange range;
};
Bytes write_range_tables(int32_t header_size, const std::vector<PlacedRange>& ranges);

// The WAD with entry `index` of `table` holding `item` (edit/): every item
// laid out again (formats/common/wad_relayout.h) and its range written back.
Result<Bytes> replace_range_item(ByteSpan wad, int32_t header_size, std::span<const RangeTable> tables, const RangeTable& table, int index,
                                 ByteSpan item);

}  // namespace gcfs::formats
