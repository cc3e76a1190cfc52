#include <fmt/format.h>

#include "tree/level/level_scene.h"
#include "tree/parts/parts.h"

namespace gcfs::tree::parts {

// level.glb and preview.png: the level's other parts as one glTF scene and
// one picture. Runs after them: it reads their decoders and the files
// textures/ lists.
void scene(LevelFolder& f) {
    const LevelDecoders& d = f.decoders();
    if (!d.terrain && !d.geometry && !d.gameplay) return;
    SceneSources sources{.level = f.level.folder, .terrain = d.terrain, .geometry = d.geometry, .gameplay = d.gameplay,
                         .ties = d.ties, .shrubs = d.shrubs, .mobies = d.mobies, .textures = {}, .failed_checks = {}};
    for (const Check& check : f.level.checks)
        if (!check.ok) sources.failed_checks.push_back(fmt::format("level check \"{}\" failed: {}", check.name, check.detail));
    sources.textures = texture_files(f);
    auto scene = std::make_shared<LevelScene>(f.cache(), std::move(sources), SceneKind::level);
    f.decoders().scene = scene;
    // Made from the level container's core_data.wad, gameplay.wad and gs_ram.bin.
    auto from_level = [&](const char* output, const char* detail) {
        return f.decoded(f.level.file_offset, f.level.file_size,
                         LevelFolder::kWadLz + std::string(" of core_data.wad and gameplay.wad, then ") + output, detail);
    };
    if (d.terrain)
        f.file(f.dir, "preview.png", std::make_shared<SceneFile>(scene, SceneFile::Kind::preview),
               from_level("an 8-bit PNG drawn from above", "the terrain height-shaded, with the tie and shrub footprints and moby markers "
                                                          "gameplay places (tfrag/, gameplay/, ties/, shrubs/)"));
    f.file(f.dir, "level.glb", std::make_shared<SceneFile>(scene, SceneFile::Kind::glb),
           from_level("a glTF 2.0 binary scene", "terrain, sky, placed ties, shrubs and mobies, paths, volumes, cameras, lights, "
                                                 "sounds, textures from gs_ram.bin (the files beside it, in one frame)"));
}

}  // namespace gcfs::tree::parts
