// libFuzzer: the tie compiler (formats/tie/tie_compile.h), what a saved
// tie_<class>.obj is built into: any bytes as up to 255 positions (corners at
// 1/64 units up to ±512, UVs up to ±8 and now and then past) and triangles
// naming any index and slot. A class the compiler takes must write and read
// back through the reader's checks with as many LOD-0 triangles as were given
// with three distinct corners (one that repeats a corner has no area and is dropped).
#include "formats/tie/tie.h"
#include "formats/tie/tie_compile.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    size_t at = 0;
    auto byte = [&]() -> uint8_t { return at < size ? data[at++] : 0; };
    auto s16 = [&]() -> int16_t { return static_cast<int16_t>(byte() | byte() << 8); };
    tie::TieMeshIn mesh;
    const size_t positions = byte();
    for (size_t i = 0; i < positions; ++i) {
        mesh.positions.push_back({s16() / 64.0, s16() / 64.0, s16() / 64.0});
        mesh.uvs.push_back({static_cast<int8_t>(byte()) / 15.0, static_cast<int8_t>(byte()) / 15.0});
    }
    tie::TieCompileOptions options;
    options.texture_count = 1 + byte() % 4;
    options.lod1_ratio = byte() / 255.0, options.lod2_ratio = byte() / 255.0;
    size_t proper = 0;
    while (at + 4 <= size) {
        tie::TieMeshIn::Triangle t;
        for (auto& c : t.corners) c = byte() % (positions + 2);  // now and then past the positions
        t.slot = byte() % 5;  // now and then past the slots
        mesh.triangles.push_back(t);
        proper += t.corners[0] != t.corners[1] && t.corners[1] != t.corners[2] && t.corners[0] != t.corners[2];
    }
    const auto spec = tie::compile_tie_class(mesh, options);
    if (!spec.ok()) return 0;
    const auto cls = tie::read_tie_class(tie::write_tie_class(*spec));
    if (!cls.ok()) __builtin_trap();  // the compiler's output fails the reader's checks
    if (tie::lod_mesh(*cls, 0).triangles.size() != proper) __builtin_trap();
    return 0;
}
