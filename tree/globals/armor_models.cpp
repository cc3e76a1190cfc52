#include "tree/globals/armor_models.h"

#include <fmt/format.h>

#include <algorithm>

#include "formats/gltf/level_meshes.h"
#include "formats/gltf/rig.h"
#include "formats/moby/moby.h"
#include "formats/pif/pif.h"

namespace gcfs::tree {
namespace {

using namespace formats;

}  // namespace

ArmorModel::ArmorModel(armor::Model model, WadItem mesh, WadItem textures)
    : model_(std::move(model)), mesh_(std::move(mesh)), textures_(std::move(textures)) {}

WadItem ArmorModel::texture(size_t k) const { return texture_item(index(), k); }

WadItem ArmorModel::texture_item(const Index& i, size_t k) const {
    const ByteRange& r = i.textures.at(k);
    WadItem item = textures_;
    item.offset += static_cast<uint64_t>(r.offset);
    item.length = static_cast<uint64_t>(r.size);
    item.name = fmt::format("{} texture {}", textures_.name, k);
    return item;
}

std::string ArmorModel::material(int slot) const { return material_name(index(), slot); }

std::string ArmorModel::material_name(const Index& i, int slot) const {
    return slot >= 0 && static_cast<size_t>(slot) < i.textures.size() ? fmt::format("{}_{}", name(), slot) : "untextured";
}

std::string ArmorModel::preamble(const Index& i, int lod) const {
    return fmt::format("# {} of the ARMOR WAD ({} LOD, mesh-only class at scale {}, formats-globals.md 6): {} vertices, {} triangles\n"
                       "mtllib {}armor.mtl\no {}\n",
                       name(), lod == 0 ? "high" : "low", model_.scale(), i.counts[static_cast<size_t>(lod)].vertices,
                       i.counts[static_cast<size_t>(lod)].triangles, lod == 0 ? "" : "../", name());
}

const ArmorModel::Index& ArmorModel::index() const {
    std::call_once(indexed_, [&] {
        Index& i = index_;
        if (!textures_.length) {
            i.textures_error = "no texture list";
        } else {
            const auto list = textures_.bytes();
            const auto ranges = list.ok() ? pif::read_texture_list(*list) : Result<std::vector<ByteRange>>(list.error());
            if (ranges.ok()) {
                i.textures = *ranges;
            } else {
                i.textures_failure = ranges.error();
                i.textures_failure->message = "texture list: " + i.textures_failure->message;
                i.textures_error = fmt::format("{} ({})", i.textures_failure->describe(), textures_.where());
            }
        }
        const auto bytes = mesh_.bytes();
        const auto cls = bytes.ok() ? moby::read_mesh_only_class(*bytes, model_.scale()) : Result<moby::MobyClass>(bytes.error());
        if (!cls.ok()) {
            i.failure = cls.error();
            i.failure->message = "mesh: " + i.failure->message;
            i.error = fmt::format("{} ({})", i.failure->describe(), mesh_.where());
            return;
        }
        i.lods = {moby::lod_mesh(*cls, cls->high), moby::lod_mesh(*cls, cls->low)};
        i.packets = {cls->high.packets, cls->low.packets};
        i.metal_packets = cls->metal_packets;
        for (int lod = 0; lod < 2; ++lod) {
            i.counts[static_cast<size_t>(lod)] = class_obj_counts(i.lods[static_cast<size_t>(lod)], [&](int slot) { return material_name(i, slot); });
            i.obj_size[static_cast<size_t>(lod)] = class_obj_size(preamble(i, lod).size(), i.counts[static_cast<size_t>(lod)]);
        }
        for (int lod = 0; lod < 2; ++lod) i.glb_size[static_cast<size_t>(lod)] = gltf::glb_size(scene(i, lod));
    });
    return index_;
}

std::string ArmorModel::obj(int lod) const {
    return class_obj(index().lods.at(static_cast<size_t>(lod)), preamble(index(), lod), [&](int slot) { return material(slot); });
}

gltf::Scene ArmorModel::scene(const Index& i, int lod) const {
    gltf::Scene s;
    s.name = name();
    for (size_t k = 0; k < i.textures.size(); ++k) {
        const auto head = texture_item(i, k).head(pif::kHeaderSize);
        const auto header = head.ok() ? pif::read_header(*head) : Result<pif::Header>(head.error());
        int image = -1;  // a texture whose header fails leaves its material untextured
        if (header.ok()) {
            image = static_cast<int>(s.images.size());
            s.images.push_back({fmt::format("{}_{}.png", name(), k), pif::png_size(*header)});
        }
        s.materials.push_back({.name = material_name(i, static_cast<int>(k)), .image = image, .alpha = gltf::Material::Alpha::mask});
    }
    const int untextured = static_cast<int>(s.materials.size());
    s.materials.push_back({.name = "untextured", .colour = {0.7f, 0.7f, 0.7f, 1}});
    auto material_of = [&](int slot) { return slot >= 0 && static_cast<size_t>(slot) < i.textures.size() ? slot : untextured; };
    // formats-globals.md §6: the records name joints but the WAD holds no skeleton, so each
    // joint is a root at the origin (gltf::bare_rig): posable, though not in the game's hierarchy.
    const int joints = std::max(gltf::joints_named(i.lods[0]), gltf::joints_named(i.lods[1]));
    const auto l = static_cast<size_t>(lod);
    gltf::add_rigged_parts(s, name(), {{name() + (lod == 0 ? "_high_lod" : "_low_lod"), &i.lods[l]}}, gltf::bare_rig(joints), material_of);
    s.extras = {{"source", fmt::format("{} of the ARMOR WAD, formats-globals.md 6", name())},
                {"scale", model_.scale()},
                {"joints", joints},
                {"rig", "the joints the blend records name, each a root at the origin with the identity inverse bind matrix: "
                        "the ARMOR WAD holds no skeleton (formats-globals.md 6); weights = blend bytes / their sum (formats-moby.md 8.7)"},
                {"lod", lod == 0 ? "high" : "low"}};
    return s;
}

Result<Bytes> ArmorModel::glb(int lod) const {
    if (index().failure) return *index().failure;
    if (index().textures_failure) return *index().textures_failure;
    const gltf::Scene s = scene(index(), lod);
    return gltf::write_glb(s, [&](size_t image) -> Result<Bytes> {
        const size_t k = static_cast<size_t>(std::find_if(s.materials.begin(), s.materials.end(), [&](const gltf::Material& m) {
                                                 return m.image == static_cast<int>(image);
                                             }) - s.materials.begin());
        const auto pif = texture(k).bytes();
        if (!pif.ok()) return pif.error();
        return pif::to_png(*pif);
    });
}

}  // namespace gcfs::tree
