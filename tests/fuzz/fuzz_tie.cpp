// libFuzzer: a tie class (formats-tie-sky.md Part A): header, LOD packet
// tables, the GS-slot walk and every A.8 check; a class that reads must give
// meshes whose OBJ is the size its counts predict.
#include <cstdlib>

#include "formats/tie/tie.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto cls = tie::read_tie_class(ByteSpan(data, size));
    if (!cls.ok()) return 0;
    const MaterialName material = [](int slot) { return "tie_" + std::to_string(slot + 100); };
    for (int lod = 0; lod < tie::kLods; ++lod) {
        const ClassMesh mesh = tie::lod_mesh(*cls, lod);
        const std::string preamble = "o tie\n";
        if (class_obj(mesh, preamble, material).size() != class_obj_size(preamble.size(), class_obj_counts(mesh, material))) std::abort();
    }
    return 0;
}
