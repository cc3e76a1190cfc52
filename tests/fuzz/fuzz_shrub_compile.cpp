// libFuzzer: the shrub compiler (formats/shrub/shrub_compile.h), what a
// saved shrub_<class>.obj is built into: any bytes as up to 255 positions
// (corners at 1/64 units up to ±512, UVs up to ±8 and now and then past)
// and triangles naming any index and slot. A class the compiler takes must
// write and read back through the reader's checks.
#include "formats/shrub/shrub.h"
#include "formats/shrub/shrub_compile.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    size_t at = 0;
    auto byte = [&]() -> uint8_t { return at < size ? data[at++] : 0; };
    auto s16 = [&]() -> int16_t { return static_cast<int16_t>(byte() | byte() << 8); };
    shrub::ShrubMeshIn mesh;
    const size_t positions = byte();
    for (size_t i = 0; i < positions; ++i) {
        mesh.positions.push_back({s16() / 64.0, s16() / 64.0, s16() / 64.0});
        mesh.uvs.push_back({static_cast<int8_t>(byte()) / 15.0, static_cast<int8_t>(byte()) / 15.0});
    }
    shrub::ShrubCompileOptions options;
    options.texture_count = 1 + byte() % 4;
    while (at + 4 <= size) {
        shrub::ShrubMeshIn::Triangle t;
        for (auto& c : t.corners) c = byte() % (positions + 2);  // now and then past the positions
        t.slot = byte() % 5;  // now and then past the slots
        mesh.triangles.push_back(t);
    }
    const auto spec = shrub::compile_shrub_class(mesh, options);
    if (!spec.ok()) return 0;
    const auto cls = shrub::read_shrub_class(shrub::write_shrub_class(*spec));
    if (!cls.ok()) __builtin_trap();  // the compiler's output fails the reader's checks
    return 0;
}
