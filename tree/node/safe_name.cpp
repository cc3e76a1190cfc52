#include "tree/node/safe_name.h"

#include <fmt/format.h>

namespace gcfs::tree {
namespace {

// The first `room` bytes of an escaped name, less a %XX the cut would split.
std::string_view cut_escaped(std::string_view name, size_t room) {
    if (name.size() <= room) return name;
    size_t end = room;
    if (end >= 1 && name[end - 1] == '%') end -= 1;       // "%" of "%XX" is the last byte kept
    else if (end >= 2 && name[end - 2] == '%') end -= 2;  // "%X" of it is
    return name.substr(0, end);
}

uint32_t fnv1a(std::string_view bytes) {
    uint32_t hash = 2166136261u;
    for (const char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
    return hash;
}

}  // namespace

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
    if (out.size() <= kNameMax) return out;
    const std::string tail = fmt::format("~h{:08x}", fnv1a(raw));
    return std::string(cut_escaped(out, kNameMax - tail.size())) + tail;
}

std::string FolderNames::claim(const std::string& name) {
    if (taken_.insert(name).second) return name;
    for (int& n = last_suffix_.try_emplace(name, 1).first->second;;) {
        const std::string suffix = fmt::format("~{}", ++n);
        std::string candidate = std::string(cut_escaped(name, kNameMax - suffix.size())) + suffix;
        if (taken_.insert(candidate).second) return candidate;
    }
}

}  // namespace gcfs::tree
