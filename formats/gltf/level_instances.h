// The placed instances of level.glb, in one place for the scene that shows
// them (tree/level/scene_builder.cpp) and the save that reads them back
// (level_import.h): each kind's node name and the matrix its node carries,
// in the game's axes (the root node turns them into glTF's, game_to_gltf).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "formats/gameplay/gameplay.h"
#include "formats/gltf/gltf.h"

namespace gcfs::formats::gltf {

enum class InstanceKind { tie, shrub, moby, camera, sound };
constexpr std::array<InstanceKind, 5> kInstanceKinds{InstanceKind::tie, InstanceKind::shrub, InstanceKind::moby, InstanceKind::camera,
                                                     InstanceKind::sound};

struct InstanceKindInfo {
    const char* name;   // extras.kind and the node name's first word: "tie"
    const char* plural; // "ties"
    gameplay::Block block;
    const char* table;  // the gameplay/ file that shows the same records: "ties.csv"
};
const InstanceKindInfo& info(InstanceKind kind);

// The record's matrix as its node places it: ties and shrubs their stored
// Mat4 (formats-gameplay.md §3.2, §3.3, instance_matrix); mobies
// T(position 0x40) S(scale 0x2c) Rz Ry Rx(rotation 0x4c) (§3.1, §0);
// cameras the same from position 0x04 and rotation 0x10, unscaled (§3.8);
// sounds their stored Mat4 (§3.9).
// It may not be decomposable (trs_decomposable): its node then has none.
Matrix record_matrix(InstanceKind kind, const gameplay::RecordTable& table, size_t i);

// The class a record names (§3.1 0x28, §3.2 and §3.3 0x00, §3.9 the s16 at 0x00); cameras their type (§3.8 0x00).
int32_t record_class(InstanceKind kind, const gameplay::RecordTable& table, size_t i);

// Every record's node name: tie_<class>_<index>, shrub_<class>_<index>,
// camera_<index>, sound_<index>, moby_<uid>_<class> (§3.1: the uid names a moby across
// edits); a moby whose uid another record shares gets _i<index> after it,
// so no two nodes share a name (an importer would rename one).
std::vector<std::string> node_names(InstanceKind kind, const gameplay::RecordTable& table);

}  // namespace gcfs::formats::gltf
