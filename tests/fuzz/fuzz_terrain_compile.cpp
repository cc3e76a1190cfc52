// libFuzzer: the tfrag compiler (formats/tfrag/tfrag_compile.h), what a
// saved terrain.obj is built into: any bytes as a mesh (corners at 1/64
// units up to ±512, texture coordinates up to ±16, triangles naming any
// index, textures 0-39). A mesh the compiler takes must write and read back
// through the reader's checks at every LOD, with LOD 0 holding as many
// triangles as the compiler kept.
#include "formats/tfrag/tfrag_compile.h"
#include "formats/tfrag/tfrag_mesh.h"
#include "formats/tfrag/tfrag_read.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    TerrainMeshIn mesh;
    const size_t positions = data[0] % 96;
    size_t at = 1;
    auto s16 = [&]() -> int16_t {
        if (at + 2 > size) return 0;
        const auto v = static_cast<int16_t>(data[at] | data[at + 1] << 8);
        at += 2;
        return v;
    };
    for (size_t i = 0; i < positions; ++i) {
        mesh.positions.push_back({s16() / 64.0, s16() / 64.0, s16() / 64.0});
        mesh.colours.push_back({static_cast<uint8_t>(i), 0x20, 0x40, 0x80});
        mesh.lights.push_back(std::nullopt);
    }
    while (at + 8 <= size) {
        TerrainMeshIn::Triangle t;
        t.texture = data[at] % 40;
        for (int k = 0; k < 3; ++k) {
            t.corners[k] = data[at + 1 + k] % (positions + 2);  // now and then past the positions
            t.st[k] = {static_cast<int8_t>(data[at + 4 + k]) / 8.0, static_cast<int8_t>(data[at + 5 + k % 2]) / 16.0};
        }
        mesh.triangles.push_back(t);
        at += 8;
    }
    const auto compiled = compile_terrain(mesh, {});
    if (!compiled.ok()) return 0;
    const Bytes block = write_tfrags(compiled->patches);
    const auto header = parse_tfrags_header(block);
    if (!header.ok() || static_cast<size_t>(header->tfrag_count) != compiled->patches.size()) __builtin_trap();
    size_t triangles = 0;
    for (uint32_t i = 0; i < compiled->patches.size(); ++i) {
        const auto patch = read_tfrag_patch(block, *header, i);
        if (!patch.ok()) __builtin_trap();  // the compiler's output fails the reader's checks
        for (int lod = 0; lod < 3; ++lod) {
            const auto lod_mesh = tfrag_lod_mesh(*patch, lod);
            if (!lod_mesh.ok()) __builtin_trap();
            if (lod == 0) triangles += lod_mesh->triangles.size();
        }
    }
    if (triangles + compiled->dropped_triangles != mesh.triangles.size()) __builtin_trap();
    return 0;
}
