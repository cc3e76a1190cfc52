// libFuzzer: the ARMOR WAD (formats-globals.md §6): its header, and the bytes
// as a mesh-only moby class at both scales, meshed as the OBJ and glb are.
#include "formats/armor/armor.h"
#include "formats/moby/moby.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan bytes(data, size);
    (void)armor::parse_armor_wad(bytes, size);
    for (const float scale : {armor::kArmorScale, armor::kWrenchScale}) {
        const auto cls = moby::read_mesh_only_class(bytes, scale);
        if (!cls.ok()) continue;
        for (const moby::Lod* lod : {&cls->high, &cls->low}) {
            const ClassMesh mesh = moby::lod_mesh(*cls, *lod);
            for (const auto& t : mesh.triangles)
                for (uint32_t v : t.v)
                    if (v >= mesh.positions.size()) __builtin_trap();  // every index names a vertex
        }
    }
    return 0;
}
