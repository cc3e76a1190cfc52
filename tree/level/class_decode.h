// One class of a core's tie, shrub or moby table decoded into what the tree
// shows of it: a mesh per level of detail and the counts its CSV row lists
// (formats-tie-sky.md A, formats-shrub.md, formats-moby.md). Shared by the
// class index (sizes at stat) and the OBJ renderer (the same decode again).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "formats/export/class_mesh.h"
#include "formats/moby/moby.h"
#include "formats/shrub/shrub.h"

namespace gcfs::tree {

enum class ClassKind { tie, shrub, moby };

struct DecodedClass {
    int lods = 1;  // ties 3, mobies 2 (high, low), shrubs 1
    std::array<formats::ClassMesh, 3> meshes;
    std::array<int, 3> packets{}, strips{};
    // Per LOD, the strips of the rarer variant: ties' strips with the winding
    // flag set (formats-tie-sky.md A.4, counted in strips too), shrubs'
    // primitives drawn as triangle lists (formats-shrub.md 1.5, apart from
    // strips); mobies none.
    std::array<int, 3> variant_strips{};
    std::array<int, 3> region_packets{};  // ties: packets naming [ext-RAC1]'s colour-index and slot-step regions (A.3)
    // Per LOD: ties the degenerate triangles kept (A.5), shrubs the raw
    // triangles before the merge (§1.8), mobies the cache duplicates (§8.5).
    std::array<uint64_t, 3> extra{};
    std::vector<int> slots;  // class texture slots the meshes use
    float scale = 0;
    std::optional<int16_t> o_class;  // ties and shrubs repeat the table's o_class
    uint64_t o_class_at = 0;         // where, in the class
    std::vector<std::string> notes;
    std::optional<formats::shrub::Billboard> billboard;
    std::vector<formats::moby::Joint> joints;
    int declared_joints = 0;  // the header's joint count, when it points at a skeleton (§2, §11)
    std::optional<formats::FormatError> rig_error;  // mobies: why the rig cannot be used (formats/moby/moby.h)
    int metal_packets = 0;
    // Per LOD, the sub-meshes beside the main mesh: a moby's bangles
    // ("bangle_<entry>", formats-moby.md §12), each an OBJ group and a glb
    // model of its own; `bangles` counts them.
    std::array<std::vector<formats::NamedClassMesh>, 3> parts;
    int bangles = 0;
    // Per LOD, the bangles' packets, strips and cache duplicates together
    // (their vertices and triangles are the parts'): packets, strips and
    // extra above count the main mesh alone.
    std::array<int, 3> bangle_packets{}, bangle_strips{};
    std::array<uint64_t, 3> bangle_duplicates{};
    formats::moby::Sections sections;  // mobies: the non-mesh sections' counts (formats-moby.md 4)
};

formats::Result<DecodedClass> decode_class(ClassKind kind, std::span<const uint8_t> bytes);

// The class's skeleton (mobies): index, parent, translation, the stored matrix.
std::string skeleton_json(int32_t o_class, const std::vector<formats::moby::Joint>& joints);

}  // namespace gcfs::tree
