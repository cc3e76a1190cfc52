#include "tree/parts/parts.h"

namespace gcfs::tree::parts {

// tfrag/: every patch at three LODs, the whole terrain, and the index.
void tfrag(LevelFolder& f) {
    const LevelScan& level = f.level;
    if (!f.core || !level.tfrags) return;
    const formats::CoreRegion* region = level.region("tfrag");  // scan_tfrags_header found it
    const formats::TfragSourceInfo source{level.folder, level.header->id, region->offset};
    auto terrain = std::make_shared<LevelTerrain>(f.image(), f.cache(), f.core_stream, region->offset, region->size, source);
    f.decoders().terrain = terrain;
    using Kind = TerrainFile::Kind;
    auto tfrags = [&](const char* output) {
        return f.from_core(LevelFolder::kWadLz + std::string(", then ") + output, *region, "block (formats.md 7)");
    };
    const uint64_t dir = f.directory(f.dir, "tfrag");
    f.file(dir, "terrain.obj", std::make_shared<TerrainFile>(terrain, Kind::terrain_obj), tfrags("OBJ"));
    f.file(dir, "patches.csv", std::make_shared<TerrainFile>(terrain, Kind::patches_csv), tfrags("CSV"));
    f.file(dir, "terrain.mtl", std::make_shared<StaticText>(formats::tfrag_materials_mtl(level.texture_table("tfrag").size())),
           f.decoded(f.core_index_offset, f.core_index_length, "MTL written from the tfrag texture table's row count",
                     "a material per tfrag texture, mapped to ../textures/ (core_index.bin, formats.md 6.3)"));
    const uint64_t lod_dirs[3] = {dir, f.directory(dir, "lod1"), f.directory(dir, "lod2")};
    for (int lod = 0; lod < 3; ++lod)
        f.tree.add_file_run(lod_dirs[lod], std::make_shared<PatchObjRun>(terrain, *level.tfrags, lod, tfrags("OBJ")));
}

}  // namespace gcfs::tree::parts
