#include "tree/level/class_decode.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "formats/tie/tie.h"

namespace gcfs::tree {

formats::Result<DecodedClass> decode_class(ClassKind kind, std::span<const uint8_t> bytes) {
    DecodedClass d;
    if (kind == ClassKind::tie) {
        auto cls = formats::tie::read_tie_class(bytes);
        if (!cls.ok()) return cls.error();
        d.lods = 3;
        d.notes = cls->notes;
        d.scale = cls->header.scale;
        d.o_class = cls->header.o_class, d.o_class_at = 0x44;
        for (int lod = 0; lod < 3; ++lod) {
            d.meshes[lod] = formats::tie::lod_mesh(*cls, lod);
            d.packets[lod] = cls->lods[lod].packets;
            d.strips[lod] = static_cast<int>(cls->lods[lod].strips.size());
            for (const auto& strip : cls->lods[lod].strips) d.variant_strips[lod] += strip.flip;
            d.region_packets[lod] = cls->lods[lod].packets_with_rac1_regions;
            d.extra[lod] = formats::tie::degenerate_triangles(d.meshes[lod]);
        }
        d.slots = cls->materials;
    } else if (kind == ClassKind::shrub) {
        auto cls = formats::shrub::read_shrub_class(bytes);
        if (!cls.ok()) return cls.error();
        d.scale = cls->header.scale;
        d.o_class = cls->header.o_class, d.o_class_at = 0x24;
        d.meshes[0] = formats::shrub::shrub_mesh(*cls);
        d.packets[0] = static_cast<int>(cls->packet_starts.size());
        for (const auto& primitive : cls->primitives) (primitive.strip ? d.strips[0] : d.variant_strips[0])++;  // §1.5: strips apart from lists
        d.extra[0] = formats::shrub::raw_triangles(*cls);
        d.billboard = cls->billboard;
        d.slots = cls->textures;
    } else {
        auto cls = formats::moby::read_moby_class(bytes);
        if (!cls.ok()) return cls.error();
        d.lods = 2;
        d.scale = cls->header.scale;
        for (int lod = 0; lod < 2; ++lod) {
            const formats::moby::Lod& l = lod == 0 ? cls->high : cls->low;
            d.meshes[lod] = formats::moby::lod_mesh(*cls, l);
            d.packets[lod] = l.packets;
            d.strips[lod] = l.strips;
            d.extra[lod] = static_cast<uint64_t>(l.duplicates);
        }
        d.slots = cls->textures;
        d.joints = cls->joints;
        d.declared_joints = cls->header.skeleton ? cls->header.joint_count : 0;
        d.rig_error = cls->rig_error;
        d.metal_packets = cls->metal_packets;
        for (const formats::moby::Bangle& b : cls->bangles)
            for (int lod = 0; lod < 2; ++lod) {
                const formats::moby::Lod& l = lod == 0 ? b.high : b.low;
                d.bangle_packets[lod] += l.packets, d.bangle_strips[lod] += l.strips;
                d.bangle_duplicates[lod] += static_cast<uint64_t>(l.duplicates);
                if (!l.triangles.empty()) d.parts[lod].push_back({fmt::format("bangle_{}", b.entry), formats::moby::lod_mesh(*cls, l)});
            }
        d.bangles = static_cast<int>(cls->bangles.size());
        d.sections = cls->sections;
    }
    return d;
}

std::string skeleton_json(int32_t o_class, const std::vector<formats::moby::Joint>& joints) {
    nlohmann::ordered_json out = {{"class", o_class},
                                  {"note", "bind matrices as stored (formats-moby.md 11: their convention is unconfirmed)"}};
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (size_t j = 0; j < joints.size(); ++j)
        list.push_back({{"index", j}, {"parent", joints[j].parent}, {"translation", joints[j].translation}, {"bind_matrix", joints[j].matrix}});
    out["joints"] = list;
    return out.dump(2) + "\n";
}

}  // namespace gcfs::tree
