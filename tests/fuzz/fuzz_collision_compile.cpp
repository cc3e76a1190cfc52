// libFuzzer: the collision compiler (formats/collision/collision_compile.h),
// what a saved collision.obj is built into: any bytes as a mesh (corners at
// 1/64 units up to ±512, faces of 3 or 4 corners naming any index, any
// surface type). A mesh the compiler takes must write, read back through
// the reader's checks and merge to faces of the types it was given.
#include <set>

#include "formats/collision/collision_compile.h"
#include "formats/collision/collision_export.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    CollisionMeshIn mesh;
    const size_t positions = data[0] % 64;
    size_t at = 1;
    auto s16 = [&]() -> int16_t {
        if (at + 2 > size) return 0;
        const auto v = static_cast<int16_t>(data[at] | data[at + 1] << 8);
        at += 2;
        return v;
    };
    for (size_t i = 0; i < positions; ++i) mesh.positions.push_back({s16() / 64.0, s16() / 64.0, s16() / 64.0});
    std::set<uint8_t> types;
    while (at + 6 <= size) {
        CollisionMeshIn::Face face;
        face.corners = data[at] & 1 ? 4 : 3;
        face.type = data[at + 1];
        for (int k = 0; k < 4; ++k) face.v[k] = data[at + 2 + k] % (positions + 2);  // now and then past the positions
        types.insert(face.type);
        mesh.faces.push_back(face);
        at += 6;
    }
    const auto octants = compile_collision(mesh);
    if (!octants.ok()) return 0;
    Collision collision;
    collision.octants = *octants;
    const Bytes block = write_collision(collision);
    const auto merged = merge_collision(block);
    if (!merged.ok()) __builtin_trap();  // the compiler's output fails the reader's checks
    for (const auto& face : merged->mesh.faces)
        if (!types.count(face.type)) __builtin_trap();
    return 0;
}
