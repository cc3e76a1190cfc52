#include "tree/parts/parts.h"
#include "tree/texts.h"

namespace gcfs::tree::parts {

void classes(LevelFolder& f) {
    const LevelScan& level = f.level;
    if (!f.core || !level.core || !level.lump) return;
    const auto core_size = static_cast<uint64_t>(level.core->assets_decompressed_size);
    const uint64_t dir = f.directory(f.dir, "classes");
    auto tables = [&](const char* which) {
        return f.decoded(f.core_index_offset, f.core_index_length, "CSV written by gcfs",
                         std::string("the core header's ") + which + " tables in core_index.bin (formats.md 6.1, 6.3)");
    };
    const char* names[3] = {"mobies.csv", "ties.csv", "shrubs.csv"};
    for (int k = 0; k < 3; ++k)
        f.file(dir, names[k], std::make_shared<StaticText>(class_table_csv(level.classes[k], k == 2, core_size, k == 0 ? &level.stashed_moby_classes : nullptr)),
               tables("class"));
    f.file(dir, "textures.csv",
           std::make_shared<StaticText>(texture_tables_csv(level.textures, level.core->textures_base_offset, core_size,
                                                           static_cast<uint64_t>(level.lump->gs_ram.size), level.stashed_moby_rows,
                                                           level.moby_stash_address)),
           tables("texture"));
}

}  // namespace gcfs::tree::parts
