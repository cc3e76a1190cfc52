// RFC 4180 CSV read back (the edit decoder for the CSV files gcfs writes,
// edit/): quoted fields with doubled quotes and line breaks, CRLF or LF.
// Untrusted input: a malformed file is an error naming its line and column.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::formats::csv {

struct Row {
    uint64_t line = 0;  // 1-based line where the row starts
    std::vector<std::string> cells;
};

// Every row; a last line without its line break counts, an empty last line
// does not. Errors: a quote inside an unquoted field, text after a closing
// quote, a quoted field left open.
Result<std::vector<Row>> parse(std::string_view text);

}  // namespace gcfs::formats::csv
