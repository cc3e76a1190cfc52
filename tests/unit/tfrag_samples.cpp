#include "tfrag_samples.h"

#include "mkdisc/terrain.h"

namespace samples {

using namespace gcfs::formats;

TfragPatch example_quad() {
    TfragPatch p;
    p.bsphere = {1, 2, 3, 4};
    p.base = {1000, 2000, 3000, 0};
    p.positions[kCommon] = {{0, 0, 0}, {1024, 0, 0}, {0, 1024, 0}, {1024, 1024, 0}};
    p.vertex_info[kCommon] = {{0, 0, 0, 0}, {4096, 0, 0, 2}, {0, 4096, 0, 4}, {4096, 4096, 0, 6}};
    for (auto& lod : p.lods) {
        lod.strips = {{-124, 0, 0, 0}, {0, 0, 0, 0}};
        lod.indices = {0, 1, 2, 3};
    }
    p.textures = {0};
    p.rgba.assign(4, {0x80, 0x80, 0x80, 0x80});
    p.lights.assign(4, {});
    return p;
}

std::vector<TfragPatch> terrain(int patches, uint64_t seed) {
    gcfs::mkdisc::Random random(seed);
    return gcfs::mkdisc::make_terrain({patches, 4}, random).patches;
}

Bytes terrain_block(int patches, uint64_t seed) {
    TfragWriteOptions options;
    options.exotic_vif_codes = true;
    return write_tfrags(terrain(patches, seed), options);
}

}  // namespace samples
