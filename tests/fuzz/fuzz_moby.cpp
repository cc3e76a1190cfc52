// libFuzzer: a moby class (formats-moby.md): header, packet table, each
// packet's VIF list, index strips with secrets, both vertex-table layouts,
// cache duplicates, VU0 slot rules, metal packets, joints, GIF usage; a class
// that reads must give meshes whose OBJ is the size its counts predict.
#include <cstdlib>

#include "formats/moby/moby.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto cls = moby::read_moby_class(ByteSpan(data, size));
    if (!cls.ok()) return 0;
    const MaterialName material = [](int slot) { return slot < 0 ? std::string("untextured") : "moby_" + std::to_string(slot + 100); };
    for (const moby::Lod* lod : {&cls->high, &cls->low}) {
        const ClassMesh mesh = moby::lod_mesh(*cls, *lod);
        for (const auto& t : mesh.triangles)
            for (uint32_t v : t.v)
                if (v >= mesh.positions.size()) std::abort();
        const std::string preamble = "o moby\n";
        if (class_obj(mesh, preamble, material).size() != class_obj_size(preamble.size(), class_obj_counts(mesh, material))) std::abort();
    }
    return 0;
}
