// An armor set or wrench of the ARMOR WAD (formats-globals.md §6) as models:
// its mesh-only class decoded once, on the first stat that needs it (the
// counts, OBJ sizes and the glTF scene's size), its OBJ, its glb and its
// textures' PNGs made on read.
#pragma once

#include <array>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "formats/armor/armor.h"
#include "formats/export/class_mesh.h"
#include "formats/gltf/gltf.h"
#include "tree/globals/wad_item.h"

namespace gcfs::tree {

class ArmorModel {
public:
    ArmorModel(formats::armor::Model model, WadItem mesh, WadItem textures);

    struct Index {
        std::string error;  // the mesh did not decode: no OBJ, no glb (with where it is)
        std::optional<formats::FormatError> failure;  // the same, for the files' own error lines
        std::array<formats::ClassMesh, 2> lods;  // high, low, in class space at the §6 scale
        std::array<formats::ClassObjCounts, 2> counts{};
        std::array<uint64_t, 2> obj_size{};
        std::array<int, 2> packets{};
        int metal_packets = 0;
        std::vector<formats::ByteRange> textures;  // in the texture list
        std::string textures_error;
        std::optional<formats::FormatError> textures_failure;  // the glb embeds them: it fails with them
        std::array<uint64_t, 2> glb_size{};  // per LOD
    };
    const Index& index() const;

    const formats::armor::Model& model() const { return model_; }
    std::string name() const { return model_.name(); }
    std::string material(int slot) const;  // its name in armor.mtl ("armor_2_0", or "untextured")
    std::string obj(int lod) const;
    formats::Result<formats::Bytes> glb(int lod) const;  // one LOD, one armature (formats/gltf/rig.h)
    WadItem texture(size_t k) const;  // the k-th PIF of its texture list

private:
    // What index() and the files share; each takes the index it is building
    // or has built (index() itself runs once and must not call back into index()).
    std::string preamble(const Index& i, int lod) const;
    std::string material_name(const Index& i, int slot) const;
    WadItem texture_item(const Index& i, size_t k) const;
    formats::gltf::Scene scene(const Index& i, int lod) const;  // without image bytes

    formats::armor::Model model_;
    WadItem mesh_, textures_;
    mutable std::once_flag indexed_;
    mutable Index index_;
};

}  // namespace gcfs::tree
