// One CSV or JSON cell of a gameplay file read back as a field's bits: the
// parsing rules shared by the table, settings and help decoders.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/gameplay/records.h"

namespace gcfs::formats::gameplay {

// A cell's text without the blanks a spreadsheet may put around it.
std::string_view trimmed(std::string_view text);

// The blank-separated words of a list cell (groups' members, areas' links).
std::vector<std::string_view> words(std::string_view cell);

// The cell as the bits of a field of `type`; empty when it is not one
// (floats in any form from_chars reads, integers in decimal, hex32 also 0x…).
std::optional<uint32_t> parse_field(FieldType type, std::string_view cell);

// What a cell of `type` must hold, for refusals: "a whole number from 0 to 255".
const char* type_words(FieldType type);

// `width` bytes of `v`, little-endian, at `at` (bounds-checked).
void put_le(Bytes& bytes, uint64_t at, uint64_t v, uint32_t width);

}  // namespace gcfs::formats::gameplay
