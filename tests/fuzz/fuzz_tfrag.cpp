// libFuzzer: a whole tfrags block (formats.md §7): every patch read, meshed
// at each LOD, and rendered as OBJ, whose size must equal the computed one.
#include "formats/tfrag/tfrag_export.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan block(data, size);
    auto summary = summarize_tfrags(block);
    if (!summary.ok()) return 0;
    const TfragSourceInfo source{"LEVEL00", 0, 0};
    (void)tfrag_patches_csv(source, *summary);
    for (const auto& patch : summary->patches) {
        for (int lod = 0; lod < 3; ++lod) {
            auto obj = render_tfrag_patch_obj(block, summary->header, source, patch, lod);
            if (obj.ok() != patch.ok) __builtin_trap();  // rendered exactly when the index says so
        }
    }
    auto terrain = render_tfrag_terrain_obj(block, source, *summary);
    if (!terrain.ok()) __builtin_trap();
    return 0;
}
