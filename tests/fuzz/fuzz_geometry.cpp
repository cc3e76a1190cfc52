// libFuzzer: the occlusion grid, sky (with its shells as meshes) and collision readers (formats.md §8)
// over one block, and for collision the merged mesh and its OBJ, whose size
// must be the one its summary predicts.
#include <cstdlib>

#include "formats/collision/collision_export.h"
#include "formats/occlusion/occlusion.h"
#include "formats/sky/sky.h"
#include "formats/sky/sky_mesh.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan block(data, size);
    (void)parse_occlusion(block);
    if (auto sky = parse_sky(block); sky.ok())
        if (auto meshes = sky_meshes(block, *sky); meshes.ok()) (void)sky_obj(*meshes, sky->header);
    auto collision = parse_collision(block);
    if (!collision.ok()) return 0;
    const CollisionSourceInfo source{"LEVEL00", 0, 0};
    if (render_collision_obj(*collision, source).size() != summarize_collision(*collision, source).obj_size) std::abort();
    return 0;
}
