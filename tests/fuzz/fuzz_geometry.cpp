// libFuzzer: the occlusion grid, sky and collision readers (formats.md §8)
// over one block, and for collision the merged mesh and its OBJ, whose size
// must be the one its summary predicts.
#include <cstdlib>

#include "formats/collision/collision_export.h"
#include "formats/occlusion/occlusion.h"
#include "formats/sky/sky.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan block(data, size);
    (void)parse_occlusion(block);
    (void)parse_sky(block);
    auto collision = parse_collision(block);
    if (!collision.ok()) return 0;
    const CollisionSourceInfo source{"LEVEL00", 0, 0};
    if (render_collision_obj(*collision, source).size() != summarize_collision(*collision, source).obj_size) std::abort();
    return 0;
}
