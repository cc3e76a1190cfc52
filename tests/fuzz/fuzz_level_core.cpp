// libFuzzer: the level core header, its (count, offset) tables and the region
// boundaries (formats.md §6), over a core_index.
#include "formats/core/level_core.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan idx(data, size);
    auto header = parse_level_core_header(idx);
    if (!header.ok()) return 0;
    std::vector<int32_t> offsets;
    for (auto [range, entry] : {std::pair{header->moby_classes, kClassEntrySize}, std::pair{header->tie_classes, kClassEntrySize},
                                std::pair{header->shrub_classes, kShrubClassEntrySize}}) {
        auto table = parse_class_table(idx, range, entry);
        if (table.ok())
            for (const auto& e : *table) offsets.push_back(e.offset_in_asset_wad);
    }
    (void)core_regions(*header, block_boundaries(*header, offsets, ByteSpan(data, size)));
    return 0;
}
