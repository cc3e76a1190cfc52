#include "formats/export/csv_read.h"

#include <fmt/format.h>

namespace gcfs::formats::csv {

Result<std::vector<Row>> parse(std::string_view text) {
    return capture([&] {
        std::vector<Row> rows;
        uint64_t line = 1, column = 1;
        size_t i = 0;
        auto error = [&](const std::string& what) {
            fail(Errc::bad_value, i, fmt::format("line {}, column {}: {}", line, column, what));
        };
        while (i < text.size()) {
            Row row{line, {}};
            std::string cell;
            bool row_done = false;
            while (!row_done) {
                if (i < text.size() && text[i] == '"') {  // a quoted field
                    ++i, ++column;
                    for (;;) {
                        if (i == text.size()) error("a quoted field is never closed");
                        const char c = text[i];
                        if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                            cell += '"';
                            i += 2, column += 2;
                        } else if (c == '"') {
                            ++i, ++column;
                            break;
                        } else {
                            cell += c;
                            ++i, ++column;
                            if (c == '\n') ++line, column = 1;
                        }
                    }
                    if (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
                        error("text after a closing quote (a quote inside a field is written twice)");
                } else {
                    while (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
                        if (text[i] == '"') error("a quote inside an unquoted field (quote the field, and write the quote twice)");
                        cell += text[i];
                        ++i, ++column;
                    }
                }
                row.cells.push_back(std::move(cell));
                cell.clear();
                if (i < text.size() && text[i] == ',') {
                    ++i, ++column;
                    continue;
                }
                if (i < text.size() && text[i] == '\r') ++i;
                if (i < text.size() && text[i] == '\n') ++i;
                ++line, column = 1;
                row_done = true;
            }
            rows.push_back(std::move(row));
        }
        return rows;
    });
}

}  // namespace gcfs::formats::csv
