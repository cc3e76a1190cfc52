#include "tree/safe_name.h"

#include <fmt/format.h>

namespace gcfs::tree {

std::string safe_name(std::string_view raw) {
    if (raw.empty()) return "%";
    if (raw == ".") return "%2E";
    if (raw == "..") return "%2E%2E";
    std::string out;
    for (const char c : raw) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte == '%' || byte == '/' || byte < 0x20 || byte >= 0x7f)
            out += fmt::format("%{:02X}", byte);
        else
            out += c;
    }
    return out;
}

std::string FolderNames::claim(const std::string& name) {
    if (taken_.insert(name).second) return name;
    for (int& n = last_suffix_.try_emplace(name, 1).first->second;;) {
        std::string candidate = fmt::format("{}~{}", name, ++n);
        if (taken_.insert(candidate).second) return candidate;
    }
}

}  // namespace gcfs::tree
