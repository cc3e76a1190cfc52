#include "tree/parts/parts.h"
#include "tree/level/sky_files.h"

namespace gcfs::tree::parts {

// sky/: the sky's shells as one OBJ, its materials and textures
// (formats-tie-sky.md Part B), from the core head geometry() decodes.
void sky(LevelFolder& f) {
    const formats::CoreRegion* region = f.level.region("sky");
    if (!f.decoders().geometry || !region || region->size == 0) return;
    const auto& geometry = f.decoders().geometry;
    const uint64_t dir = f.directory(f.dir, "sky");
    auto origin = [&](const char* output) {
        return f.from_core(LevelFolder::kWadLz + std::string(", then ") + output, *region, "block (formats-tie-sky.md B)");
    };
    f.file(dir, "sky.obj", std::make_shared<SkyFile>(geometry, SkyFile::Kind::obj), origin("OBJ"));
    f.file(dir, "sky.mtl", std::make_shared<SkyFile>(geometry, SkyFile::Kind::mtl), origin("MTL"));
    f.tree.add_file_run(dir, std::make_shared<SkyTextureRun>(geometry, origin("8-bit indexed PNG")));
}

}  // namespace gcfs::tree::parts
