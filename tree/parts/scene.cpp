#include "tree/level_scene.h"
#include "tree/parts/parts.h"

namespace gcfs::tree::parts {

// level.glb and preview.png: the level's other parts as one glTF scene and
// one picture. Runs after them: it reads their decoders and the files
// textures/ lists.
void scene(LevelFolder& f) {
    const LevelDecoders& d = f.decoders();
    if (!d.terrain && !d.geometry && !d.gameplay) return;
    SceneSources sources{.level = f.level.folder, .terrain = d.terrain, .geometry = d.geometry, .gameplay = d.gameplay,
                         .ties = d.ties, .shrubs = d.shrubs, .mobies = d.mobies, .textures = {}};
    if (const auto textures = f.tree.lookup(f.dir, "textures"))
        f.tree.for_each_child(*textures, 0, [&](const std::string& name, uint64_t ino, NodeType type) {
            if (type == NodeType::file) sources.textures[name] = f.tree.node(ino)->source;
            return true;
        });
    auto scene = std::make_shared<LevelScene>(f.cache(), std::move(sources));
    f.decoders().scene = scene;
    if (d.terrain)
        f.file(f.dir, "preview.png", std::make_shared<SceneFile>(scene, SceneFile::Kind::preview),
               Origins::generated("the terrain from above with the tie and shrub footprints and moby markers gameplay places "
                                  "(from tfrag/, gameplay/, ties/, shrubs/)"));
    f.file(f.dir, "level.glb", std::make_shared<SceneFile>(scene, SceneFile::Kind::glb),
           Origins::generated("the level as one glTF 2.0 scene: terrain, sky, collision, placed ties, shrubs and mobies, paths, "
                              "volumes, cameras, lights (from the files beside it)"));
}

}  // namespace gcfs::tree::parts
