#include "tree/level/executable_file.h"

#include <fmt/format.h>

#include "formats/executable/executable.h"
#include "tree/node/derived_file.h"

namespace gcfs::tree {

using namespace formats::executable;

std::shared_ptr<const Source> rebuilt_elf(cache::LruCache& cache, WadItem item) {
    return std::make_shared<DerivedFile>(
        cache,
        [item]() -> formats::Result<uint64_t> {
            const auto exe = item.bytes();
            if (!exe.ok()) return exe.error();
            const auto blocks = read_blocks(*exe);
            if (!blocks.ok()) return blocks.error();
            return elf_size(*blocks);
        },
        [item]() -> formats::Result<formats::Bytes> {
            const auto exe = item.bytes();
            if (!exe.ok()) return exe.error();
            const auto blocks = read_blocks(*exe);
            if (!blocks.ok()) return blocks.error();
            return write_elf(*exe, *blocks);
        },
        item.where());
}

nlohmann::ordered_json executable_json(const WadItem& item) {
    const auto exe = item.bytes();
    const auto blocks = exe.ok() ? read_blocks(*exe) : formats::Result<std::vector<Block>>(exe.error());
    if (!blocks.ok()) return {{"ok", false}, {"error", blocks.error().describe()}};
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (size_t i = 0; i < blocks->size(); ++i) {
        const Block& b = (*blocks)[i];
        list.push_back({{"section", section_name(*blocks, i)}, {"address", fmt::format("0x{:08x}", static_cast<uint32_t>(b.address))},
                        {"size", b.size}, {"type", b.type == kNoBits ? "NOBITS" : b.type == kProgBits ? "PROGBITS" : std::to_string(b.type)}});
    }
    return {{"ok", true},
            {"entry", fmt::format("0x{:08x}", static_cast<uint32_t>(blocks->front().entry))},
            {"layout", overlay_shape(*blocks) ? "the level overlay's seven blocks: Wrench's section names (formats-globals.md 8)"
                                              : "another shape: neutral section names (.block_N), nothing known of its parts"},
            {"blocks", list}};
}

}  // namespace gcfs::tree
