#include "tree/globals/global_folder.h"

#include <fmt/format.h>

namespace gcfs::tree {
namespace {

// The container's sector word (+4): the TOC's copy holds the file's LBA,
// the file's own copy what its writer left there (formats.md §2.3).
constexpr uint64_t kSectorWord = 4;

}  // namespace

GlobalFolder::GlobalFolder(Disc& disc, const formats::GlobalWad& wad, uint64_t offset, uint64_t size, Tree& tree, uint64_t dir)
    : Origins(disc.scan), disc(disc), wad(wad), offset(offset), size(size), tree(tree), dir(dir), label(wad.name + ".wad"),
      header(disc.image->read_clamped(offset, std::min<uint64_t>(size, static_cast<uint64_t>(wad.header_size)))) {}

uint64_t GlobalFolder::folder_of(const std::string& path) const { return tree.folders_of(dir, path); }

void GlobalFolder::file(const std::string& path, std::shared_ptr<const Source> source, Origin origin) const {
    tree.add_file(folder_of(path), path.substr(path.rfind('/') + 1), std::move(source), std::move(origin));
}

GlobalFolder::Json GlobalFolder::identity_json() const {
    const formats::Bytes copy = image().read_clamped(formats::kTocLba * formats::kSectorSize + wad.toc_offset,
                                                     static_cast<uint64_t>(wad.header_size));
    std::string agreement = "the same bytes but the sector word (+4)";
    for (uint64_t i = 0; i < std::max(copy.size(), header.size()); ++i) {
        if (i >= kSectorWord && i < kSectorWord + 4) continue;
        if (i >= copy.size() || i >= header.size() || copy[i] != header[i]) {
            agreement = fmt::format("differs from the file's header at byte 0x{:x}", i);
            break;
        }
    }
    Json j = {{"wad", wad.name},
              {"image_offset", offset},
              {"bytes", size},
              {"header_size", wad.header_size},
              {"lba", wad.lba},
              {"toc_header_copy", agreement}};
    if (header.size() >= 8) j["sector_word"] = formats::s32_at(header, kSectorWord);
    return j;
}

void GlobalFolder::info_json(std::function<void(Json&)> fill) const {
    file("info.json", std::make_shared<GeneratedText>([identity = identity_json(), fill = std::move(fill)] {
             Json j = identity;
             fill(j);
             return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
         }),
         from_wad(0, size, "JSON written by gcfs", "the WAD's header tables, every slot and every failure (formats-globals.md)"));
}

void GlobalFolder::refused(const std::string& error) const {
    info_json([error](Json& j) {
        j["ok"] = false;
        j["error"] = error;
    });
}

}  // namespace gcfs::tree
