// The level's "data" lump header (formats.md §4.1). Every range is in bytes,
// relative to the start of the lump.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "formats/common/ranges.h"

namespace gcfs::formats {

constexpr uint64_t kDataLumpHeaderSize = 0x58;

struct DataLumpHeader {
    ByteRange overlay;
    ByteRange core_index;
    ByteRange gs_ram;
    ByteRange hud_header;
    std::array<ByteRange, 5> hud_banks{};
    ByteRange core_data;
    ByteRange transition_textures;
};

struct DataLumpSection {
    std::string name;  // "overlay", "core_index", ..., "hud_bank_0", "core_data", "transition_textures"
    ByteRange range;
    bool compressed;   // §4.1 "Compressed?" column: one WAD-LZ stream
};

// Checks every non-empty range lies inside a lump of `lump_size` bytes.
Result<DataLumpHeader> parse_data_lump_header(ByteSpan bytes, uint64_t lump_size);
void write_data_lump_header(ByteWriter& out, const DataLumpHeader& header);
std::vector<DataLumpSection> data_lump_sections(const DataLumpHeader& header);  // non-empty only

}  // namespace gcfs::formats
