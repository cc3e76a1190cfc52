// Opens an image and builds the virtual tree (fuse-archive style: one tree,
// lazy readers): at open only what the root shows (the ISO9660 directories and
// the table of contents). A level's headers are read, and its folder's part
// of the tree built, once, when something inside the folder is first looked
// up or listed (by-id/ reads every level's headers). Nothing is decoded for
// either.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "cache/lru_cache.h"
#include "tree/level/class_models.h"
#include "tree/level/core_geometry.h"
#include "tree/disc_scan.h"
#include "tree/level/gameplay.h"
#include "tree/node/image.h"
#include "tree/index/index_ahead.h"
#include "tree/level/level_scene.h"
#include "tree/node/node.h"
#include "tree/index/persistent_index.h"
#include "tree/node/sources.h"
#include "tree/node/stats.h"
#include "tree/level/terrain.h"

namespace gcfs::tree {

// The lazy decoders of one level folder, for whole-disc checks (gcfs verify).
struct LevelDecoders {
    std::shared_ptr<const WadStream> core_data;
    std::shared_ptr<const WadStream> gameplay;
    std::shared_ptr<const LevelTerrain> terrain;
    std::shared_ptr<const LevelGeometry> geometry;  // occlusion, sky, collision
    std::shared_ptr<const LevelGameplay> gameplay_index;  // gameplay/
    std::shared_ptr<const LevelClassModels> mobies, ties, shrubs;  // mobies/, ties/, shrubs/
    std::shared_ptr<const ClassWindow> class_window;      // the core bytes both decode from
    std::shared_ptr<const LevelScene> scene;              // level.glb
    std::shared_ptr<const LevelScene> collision_scene;    // collision.glb
};

struct Disc {
    std::unique_ptr<Image> image;
    std::shared_ptr<cache::LruCache> cache;  // shared by the generations of an edited mount (edit/)
    DiscScan scan;  // a level's entry is whole once level() has scanned it
    Tree tree;
    Diagnostics diagnostics;
    std::map<std::string, LevelDecoders> decoders;  // by level folder; every entry made at open

    // scan.levels[i], its headers read and checked on the first call.
    // (tree.build_all() builds every level folder: whole-disc checks.)
    const LevelScan& level(size_t i);

    std::deque<std::once_flag> scanned;  // by level, for level()

    // Set before the tree is served (the mount's, unless -o noindex): level
    // folders built from then on are listed from it when it knows them,
    // saved to it when sized whole, and keep their restart points there.
    std::shared_ptr<PersistentIndex> index;
    // The image's key in the persistent index (cache/index_store.h).
    cache::ImageIdentity identity() const;

    // From now on a listing of a level folder sizes the next one on a helper
    // thread (tree/index/index_ahead.h), and with a persistent index, the listed
    // one too, whose record is then saved. For the mount: tools walk on their own.
    void start_index_ahead();
    std::unique_ptr<IndexAhead> ahead;  // last: stopped before what it reads goes
};

// Throws std::system_error (cannot open) or NotAGameDisc (wrong content).
std::unique_ptr<Disc> open_disc(const std::string& image_path, uint64_t cache_budget_bytes);

// The same over an edited image (edit/): `patch` changes what is read of the
// file, `cache` is shared with the mount's other generations, and `extend`
// adds what the edit layer shows at the root once the tree is built.
struct DiscSetup {
    std::shared_ptr<const ImagePatch> patch;
    std::shared_ptr<cache::LruCache> cache;
    std::function<void(Disc&)> extend;
};
std::unique_ptr<Disc> open_disc(const std::string& image_path, DiscSetup setup);

}  // namespace gcfs::tree
