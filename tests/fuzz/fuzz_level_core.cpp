// libFuzzer: the level core header, its (count, offset) tables, the region
// boundaries (formats.md §6), room made in the core and a texture row added
// (formats/core/texture_rows.h), over a core_index.
#include <algorithm>

#include "formats/core/core_growth.h"
#include "formats/core/level_core.h"
#include "formats/core/texture_rows.h"

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
    const auto regions = core_regions(*header, block_boundaries(*header, offsets, ByteSpan(data, size)));
    // A tfrag texture row over a DAT of the declared size (capped): when it is added, the
    // table has one more row, the GS table two more, and IDX 0x30 more bytes.
    if (header->assets_decompressed_size <= (1 << 16)) {
        Bytes index(data, data + size), dat(static_cast<uint64_t>(header->assets_decompressed_size), 0), gs(0x400, 0);
        const NewTextureRow row{8, 8, Bytes(64, 1), Bytes(1024, 2)};
        if (add_texture_row(index, dat, gs, TextureTable::tfrag, row).ok()) {
            const auto added = parse_level_core_header(index);
            if (!added.ok() || added->tfrag_textures.count != header->tfrag_textures.count + 1 || added->gs_ram.count != header->gs_ram.count + 2 ||
                index.size() != size + 0x30)
                __builtin_trap();
        }
    }
    // Room made after the first region (what a collision edit does, formats/core/core_growth.h): when
    // it is, every offset the header gives at or past it moved by the growth, none before it.
    if (!regions.ok() || regions->empty()) return 0;
    const uint64_t at = regions->front().offset + regions->front().size;
    Bytes index(data, data + size), dat(std::min<uint64_t>(at + 0x100, 1 << 16), 0);
    if (at > dat.size() || !grow_core(index, dat, at, kCoreGrowthAlign).ok()) return 0;
    const auto grown = parse_level_core_header(index);
    if (!grown.ok()) __builtin_trap();
    const std::pair<int32_t, int32_t> fields[] = {{header->collision, grown->collision}, {header->textures_base_offset, grown->textures_base_offset},
                                                  {header->sky, grown->sky}, {header->assets_decompressed_size, grown->assets_decompressed_size}};
    for (const auto& [was, is] : fields) {
        const int64_t moved = was > 0 && static_cast<uint64_t>(was) >= at ? 0x100 : 0;
        if (is != was + moved) __builtin_trap();
    }
    return 0;
}
