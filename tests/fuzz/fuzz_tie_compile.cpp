// libFuzzer: the tie compiler (formats/tie/tie_compile.h), what a saved
// tie_<class>.obj is built into: any bytes as up to 255 positions (corners at
// 1/64 units up to ±512, UVs up to ±8 and now and then past) and triangles
// naming any index and slot. A class the compiler takes must write and read
// back through the reader's checks with as many LOD-0 triangles as were given
// with three distinct corners (one that repeats a corner has no area and is dropped).
#include "formats/tie/tie.h"
#include "formats/tie/tie_compile.h"
#include "fuzz_bytes.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    FuzzBytes in{data, size};
    ClassMeshIn mesh = class_mesh_positions(in);
    const size_t positions = mesh.positions.size();
    tie::TieCompileOptions options;
    options.texture_count = 1 + in.byte() % 4;
    options.lod1_ratio = in.byte() / 255.0, options.lod2_ratio = in.byte() / 255.0;
    size_t proper = 0;
    while (in.left() >= 4) {
        ClassMeshIn::Triangle t;
        for (auto& c : t.corners) c = in.byte() % (positions + 2);  // now and then past the positions
        t.slot = in.byte() % 5;  // now and then past the slots
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
