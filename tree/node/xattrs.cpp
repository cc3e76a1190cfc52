#include "tree/node/xattrs.h"

#include <fmt/format.h>

#include <array>

#include "tree/catalogue.h"

namespace gcfs::tree {
namespace {

constexpr std::array<std::string_view, 6> kNames = {"user.gcfs.container", "user.gcfs.sectors", "user.gcfs.decoder",
                                                     "user.gcfs.source",    "user.gcfs.status",  "user.gcfs.what"};

std::string sectors(const Provenance& p) {
    if (p.image_length == 0) return "none";
    const uint64_t first = p.image_offset / formats::kSectorSize;
    const uint64_t end = formats::sectors_for(p.image_offset + p.image_length);
    return fmt::format("image LBA [{}, {}), bytes [0x{:x}, 0x{:x})", first, end, p.image_offset,
                       p.image_offset + p.image_length);
}

std::string status(Disc& disc, const Node& node) {
    const std::string path = disc.tree.path_of(node.ino);
    std::string error = node.source->open_error();
    if (error.empty() && node.source->size() > 0) {
        uint8_t byte;
        error = node.source->read(0, {&byte, 1}).error;
    }
    if (!error.empty()) {
        disc.diagnostics.report(path, "status check", error);
        return "error: " + error;
    }
    if (const auto recorded = disc.diagnostics.error_of(path)) return "error: " + *recorded;
    return "ok: opens and reads; every check its decoder makes holds";
}

}  // namespace

std::vector<std::string> xattr_names(const Disc& disc, const Node& node) {
    if (node.type != NodeType::file || !disc.tree.provenance(node)) return {};
    return {kNames.begin(), kNames.end()};
}

std::optional<std::string> xattr_value(Disc& disc, const Node& node, std::string_view name) {
    if (node.type != NodeType::file) return std::nullopt;
    const auto origin = disc.tree.provenance(node);
    if (!origin) return std::nullopt;
    const Provenance& p = *origin;
    if (name == kNames[0]) return p.container.empty() ? "none: made by gcfs" : p.container;
    if (name == kNames[1]) return sectors(p);
    if (name == kNames[2]) return p.decoder;
    if (name == kNames[3]) return p.detail;
    if (name == kNames[4]) return status(disc, node);
    if (name == kNames[5]) {  // README.txt's line for the file (tree/catalogue.h)
        const CatalogueEntry* entry = describe(disc.tree.path_of(node.ino));
        return entry ? std::string(entry->pattern) + ": " + std::string(entry->what) : "not in the catalogue";
    }
    return std::nullopt;
}

}  // namespace gcfs::tree
