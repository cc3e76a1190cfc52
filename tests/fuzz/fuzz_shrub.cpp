// libFuzzer: a shrub class (formats-shrub.md): packet table, each packet's VIF
// list, GIF tags, the GS-offset walk, billboard and normal table; a class that
// reads must give a merged mesh whose OBJ is the size its counts predict.
#include <cstdlib>

#include "formats/shrub/shrub.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto cls = shrub::read_shrub_class(ByteSpan(data, size));
    if (!cls.ok()) return 0;
    const ClassMesh mesh = shrub::shrub_mesh(*cls);
    const MaterialName material = [](int slot) { return slot < 0 ? std::string("untextured") : "shrub_" + std::to_string(slot + 100); };
    const std::string preamble = "o shrub\n";
    if (class_obj(mesh, preamble, material).size() != class_obj_size(preamble.size(), class_obj_counts(mesh, material))) std::abort();
    if (cls->end > size) std::abort();
    return 0;
}
