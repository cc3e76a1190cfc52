// RFC 4180 CSV cells and rows: a field with a comma, quote or line break is
// quoted, quotes doubled. Every CSV gcfs serves is written through these.
#pragma once

#include <string>
#include <vector>

namespace gcfs::formats::csv {

inline std::string field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

inline void row(std::string& out, const std::vector<std::string>& cells) {
    for (size_t i = 0; i < cells.size(); ++i) {
        if (i) out += ',';
        out += field(cells[i]);
    }
    out += '\n';
}

}  // namespace gcfs::formats::csv
