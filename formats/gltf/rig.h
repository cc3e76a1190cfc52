// A moby class or an armor model as a skinned glTF model (glTF 2.0 §3.7.3):
// its joints as a node hierarchy, one inverse bind matrix each, and per
// vertex the joints and weights its blend record gives (formats-moby.md §8.7,
// §11). The bind pose is the stored mesh (§11: "apply no joint transforms"),
// so a viewer shows the OBJ's shape until a joint is moved.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "formats/export/class_mesh.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/level_meshes.h"
#include "formats/moby/moby.h"

namespace gcfs::formats::gltf {

struct RigJoint {
    int parent = -1;      // an earlier joint; -1 for a root
    Matrix inverse_bind;  // class space (game units, z up) to the joint's space
};

// §11 read as Wrench's disabled recovery (moby_low.cpp :: recover_moby_joints)
// reads it: with m_0..m_3 as columns, joint j's inverse bind matrix is the
// inverse of the stored 3x3 (the joint's bind frame: a rotation, maybe scaled)
// beside m_3.xyz as its translation, in raw vertex units (times scale/1024).
// So the joint sits at -frame · m_3.xyz. §11 calls the convention unconfirmed;
// the stored w's carry no meaning and the bottom row is written 0 0 0 1.
// common_trans gives the parents.
std::vector<RigJoint> moby_rig(const std::vector<moby::Joint>& joints, float scale);

// A rig of `count` joints, each a root at the origin with the identity as its
// inverse bind matrix: what the ARMOR WAD's mesh-only classes allow, since
// their records name joints but the WAD holds no skeleton (formats-globals.md
// §6). Posing one still moves exactly the vertices bound to it.
std::vector<RigJoint> bare_rig(int count);

// The joints a mesh's records name, plus one: at least 1 (count-0 vertices use joint 0).
int joints_named(const ClassMesh& mesh);

// glTF's JOINTS_0 and WEIGHTS_0 for one vertex: its blend's u8 weights as
// fractions of their sum (float32; the largest takes the rounding remainder,
// so they sum to 1 within float precision), repeated joints merged,
// zero-weight and unused entries written as joint 0 with weight 0. A count-0
// vertex (a static class's identity, §8.7) is bound to joint 0 alone.
struct JointWeights {
    std::array<uint8_t, 4> joints{};
    std::array<float, 4> weights{};
};
JointWeights joint_weights(const VertexSkin& skin);

// One model in one pose as a single armature: a root node `name` that turns
// the game's axes into glTF's (game_to_gltf), the joint hierarchy under it
// once, and every part with triangles (a moby's main mesh and its bangles,
// formats-moby.md 12) as a mesh on a root node of its own bound to that one
// skin, "<name>_skin", as glTF requires of skinned meshes (§3.7.3.1). An
// importer makes one armature; rotating a bone moves every part weighted
// to it. Without a rig the meshes hang under the root unskinned.
struct NamedMesh {
    std::string name;
    const ClassMesh* mesh;
};
void add_rigged_parts(Scene& scene, const std::string& name, const std::vector<NamedMesh>& parts, const std::vector<RigJoint>& rig,
                      const MaterialOf& material);

}  // namespace gcfs::formats::gltf
