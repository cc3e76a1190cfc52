#include "tree/level/level_scene.h"
#include "tree/parts/parts.h"
#include "tree/texts.h"

namespace gcfs::tree::parts {

// §8: occlusion and sky summaries (in info.json), collision.obj and collision.glb.
void geometry(LevelFolder& f) {
    const LevelScan& level = f.level;
    if (!f.core || level.regions.empty()) return;
    auto region = [&](const char* name) -> std::optional<formats::CoreRegion> {
        const formats::CoreRegion* r = level.region(name);
        return r && r->size > 0 ? std::optional<formats::CoreRegion>(*r) : std::nullopt;
    };
    const auto collision = region("collision");
    auto geometry = std::make_shared<LevelGeometry>(
        f.image(), f.cache(), f.core_stream, region("occlusion"), region("sky"), collision,
        formats::CollisionSourceInfo{level.folder, level.header->id, collision ? collision->offset : 0});
    f.decoders().geometry = geometry;
    if (!collision) return;
    f.file(f.dir, "collision.obj", std::make_shared<CollisionObjFile>(geometry),
           f.from_core(LevelFolder::kWadLz + std::string(", then OBJ"), *collision, "block (formats.md 8.3)"));
    f.file(f.dir, "collision.mtl", std::make_shared<StaticText>(formats::collision_materials_mtl()),
           Origins::generated("none: the same text on every disc", "a material per collision surface type (formats.md 8.3)"));
    auto scene = std::make_shared<LevelScene>(f.cache(), SceneSources{.level = level.folder, .geometry = geometry}, SceneKind::collision);
    f.decoders().collision_scene = scene;
    f.file(f.dir, "collision.glb", std::make_shared<SceneFile>(scene, SceneFile::Kind::glb),
           f.from_core(LevelFolder::kWadLz + std::string(", then glTF 2.0 binary"), *collision,
                       "block, in level.glb's frame, a material per surface type (formats.md 8.3)"));
}

}  // namespace gcfs::tree::parts
