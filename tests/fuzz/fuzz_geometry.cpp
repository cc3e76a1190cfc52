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
    auto merged = merge_collision(block);  // the walk the mount uses: it must agree with the parse
    if (collision.ok() != merged.ok()) std::abort();
    if (!collision.ok()) return 0;
    const CollisionSourceInfo source{"LEVEL00", 0, 0};
    const CollisionSummary summary = summarize_collision(*merged, source);
    if (render_collision_obj(*merged, source).size() != summary.obj_size) std::abort();
    if (render_collision_obj(*collision, source) != render_collision_obj(*merged, source)) std::abort();
    return 0;
}
