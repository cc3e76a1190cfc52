#include "formats/import/obj_colours.h"

#include <algorithm>
#include <string_view>

namespace gcfs::formats {

std::string obj_colours_on_every_vertex(ByteSpan bytes) {
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (text.substr(0, 4096).find('\0') != std::string_view::npos) return {};  // binary: glb, FBX
    auto numbers_on = [](std::string_view line) {
        size_t count = 0, at = 1;
        while (at < line.size()) {
            while (at < line.size() && (line[at] == ' ' || line[at] == '\t' || line[at] == '\r')) ++at;
            if (at == line.size()) break;
            ++count;
            while (at < line.size() && line[at] != ' ' && line[at] != '\t' && line[at] != '\r') ++at;
        }
        return count;
    };
    bool plain = false, coloured = false;
    for (size_t at = 0; at < text.size();) {
        const size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        if (line.size() > 2 && line[0] == 'v' && (line[1] == ' ' || line[1] == '\t')) {
            const size_t n = numbers_on(line);
            plain |= n == 3;
            coloured |= n == 6 || n == 7;
        }
        at = end + 1;
    }
    if (!plain || !coloured) return {};
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (size_t at = 0; at < text.size();) {
        const size_t end = std::min(text.find('\n', at), text.size());
        std::string_view line = text.substr(at, end - at);
        const bool cr = !line.empty() && line.back() == '\r';
        if (cr) line.remove_suffix(1);
        out += line;
        if (line.size() > 2 && line[0] == 'v' && (line[1] == ' ' || line[1] == '\t') && numbers_on(line) == 3) out += " 1 1 1";
        if (cr) out += '\r';
        if (end < text.size()) out += '\n';
        at = end + 1;
    }
    return out;
}

}  // namespace gcfs::formats
