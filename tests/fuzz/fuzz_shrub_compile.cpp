// libFuzzer: the shrub compiler (formats/shrub/shrub_compile.h), what a
// saved shrub_<class>.obj is built into: any bytes as up to 255 positions
// (corners at 1/64 units up to ±512, UVs up to ±8 and now and then past)
// and triangles naming any index and slot. A class the compiler takes must
// write and read back through the reader's checks.
#include "formats/shrub/shrub.h"
#include "formats/shrub/shrub_compile.h"
#include "fuzz_bytes.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    FuzzBytes in{data, size};
    ClassMeshIn mesh = class_mesh_positions(in);
    const size_t positions = mesh.positions.size();
    shrub::ShrubCompileOptions options;
    options.texture_count = 1 + in.byte() % 4;
    while (in.left() >= 4) {
        ClassMeshIn::Triangle t;
        for (auto& c : t.corners) c = in.byte() % (positions + 2);  // now and then past the positions
        t.slot = in.byte() % 5;  // now and then past the slots
        mesh.triangles.push_back(t);
    }
    const auto spec = shrub::compile_shrub_class(mesh, options);
    if (!spec.ok()) return 0;
    const auto cls = shrub::read_shrub_class(shrub::write_shrub_class(*spec));
    if (!cls.ok()) __builtin_trap();  // the compiler's output fails the reader's checks
    return 0;
}
