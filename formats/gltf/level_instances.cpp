#include "formats/gltf/level_instances.h"

#include <fmt/format.h>

#include <map>

#include "formats/gltf/level_meshes.h"

namespace gcfs::formats::gltf {

const InstanceKindInfo& info(InstanceKind kind) {
    static const std::array<InstanceKindInfo, 5> kInfo{{
        {"tie", "ties", gameplay::Block::ties, "ties.csv"},
        {"shrub", "shrubs", gameplay::Block::shrubs, "shrubs.csv"},
        {"moby", "mobies", gameplay::Block::mobies, "mobies.csv"},
        {"camera", "cameras", gameplay::Block::cameras, "cameras.csv"},
        {"sound", "sounds", gameplay::Block::sounds, "sounds.csv"},
    }};
    return kInfo[static_cast<size_t>(kind)];
}

Matrix record_matrix(InstanceKind kind, const gameplay::RecordTable& t, size_t i) {
    switch (kind) {
        case InstanceKind::tie:
        case InstanceKind::shrub:
        case InstanceKind::sound: return instance_matrix(t.floats<16>(i, 0x10));
        case InstanceKind::moby: return euler_matrix(t.floats<3>(i, 0x40), t.floats<3>(i, 0x4c), t.f32(i, 0x2c));
        case InstanceKind::camera: return euler_matrix(t.floats<3>(i, 0x04), t.floats<3>(i, 0x10), 1.0f);
    }
    return {};
}

int32_t record_class(InstanceKind kind, const gameplay::RecordTable& t, size_t i) {
    if (kind == InstanceKind::sound) return static_cast<int16_t>(u16_at(t.record(i), 0x00));
    return t.s32(i, kind == InstanceKind::moby ? 0x28 : 0x00);
}

std::vector<std::string> node_names(InstanceKind kind, const gameplay::RecordTable& t) {
    std::vector<std::string> out;
    out.reserve(t.count());
    if (kind != InstanceKind::moby) {
        for (size_t i = 0; i < t.count(); ++i)
            out.push_back(kind == InstanceKind::camera || kind == InstanceKind::sound
                              ? fmt::format("{}_{}", info(kind).name, i)
                              : fmt::format("{}_{}_{}", info(kind).name, record_class(kind, t, i), i));
        return out;
    }
    std::map<int32_t, int> uses;
    for (size_t i = 0; i < t.count(); ++i) ++uses[t.s32(i, 0x10)];
    for (size_t i = 0; i < t.count(); ++i) {
        const int32_t uid = t.s32(i, 0x10), o_class = t.s32(i, 0x28);
        out.push_back(uses[uid] > 1 ? fmt::format("moby_{}_{}_i{}", uid, o_class, i) : fmt::format("moby_{}_{}", uid, o_class));
    }
    return out;
}

}  // namespace gcfs::formats::gltf
