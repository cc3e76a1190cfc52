#include "formats/gltf/rig.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gcfs::formats::gltf {
namespace {

using Affine = std::array<double, 16>;  // column-major, bottom row 0 0 0 1

Affine as_double(const Matrix& m) {
    Affine out;
    std::copy(m.begin(), m.end(), out.begin());
    return out;
}

Matrix as_single(const Affine& m) {
    Matrix out;
    for (size_t i = 0; i < 16; ++i) out[i] = static_cast<float>(m[i]);
    return out;
}

Affine multiply(const Affine& a, const Affine& b) {
    Affine out{};
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            for (int k = 0; k < 4; ++k) out[static_cast<size_t>(4 * c + r)] += a[static_cast<size_t>(4 * k + r)] * b[static_cast<size_t>(4 * c + k)];
    return out;
}

// The inverse of an affine matrix whose 3x3 part is invertible (the reader
// checked it, formats/moby/moby_read.cpp).
Affine invert(const Affine& m) {
    auto at = [&](int r, int c) { return m[static_cast<size_t>(4 * c + r)]; };
    const double det = at(0, 0) * (at(1, 1) * at(2, 2) - at(2, 1) * at(1, 2)) - at(0, 1) * (at(1, 0) * at(2, 2) - at(1, 2) * at(2, 0)) +
                       at(0, 2) * (at(1, 0) * at(2, 1) - at(1, 1) * at(2, 0));
    Affine out{};
    auto set = [&](int r, int c, double v) { out[static_cast<size_t>(4 * c + r)] = v / det; };
    set(0, 0, at(1, 1) * at(2, 2) - at(2, 1) * at(1, 2));
    set(0, 1, at(0, 2) * at(2, 1) - at(0, 1) * at(2, 2));
    set(0, 2, at(0, 1) * at(1, 2) - at(0, 2) * at(1, 1));
    set(1, 0, at(1, 2) * at(2, 0) - at(1, 0) * at(2, 2));
    set(1, 1, at(0, 0) * at(2, 2) - at(0, 2) * at(2, 0));
    set(1, 2, at(1, 0) * at(0, 2) - at(0, 0) * at(1, 2));
    set(2, 0, at(1, 0) * at(2, 1) - at(2, 0) * at(1, 1));
    set(2, 1, at(2, 0) * at(0, 1) - at(0, 0) * at(2, 1));
    set(2, 2, at(0, 0) * at(1, 1) - at(1, 0) * at(0, 1));
    for (int r = 0; r < 3; ++r)
        out[static_cast<size_t>(12 + r)] =
            -(out[static_cast<size_t>(r)] * m[12] + out[static_cast<size_t>(4 + r)] * m[13] + out[static_cast<size_t>(8 + r)] * m[14]);
    out[15] = 1;
    return out;
}

// The joint hierarchy as nodes under `parent_node`: node matrices are each
// joint's bind pose relative to its parent's, inverse(IBM_parent^-1) · IBM_j^-1.
std::vector<int> add_joint_nodes(Scene& scene, const std::vector<RigJoint>& rig, int parent_node) {
    std::vector<int> nodes;
    for (size_t j = 0; j < rig.size(); ++j) {
        const Affine bind = invert(as_double(rig[j].inverse_bind));
        const int parent = rig[j].parent;
        const Affine local = parent < 0 ? bind : multiply(as_double(rig[static_cast<size_t>(parent)].inverse_bind), bind);
        Node node{fmt::format("joint_{}", j)};
        node.matrix = as_single(local);
        nodes.push_back(static_cast<int>(scene.nodes.size()));
        scene.nodes.push_back(std::move(node));
        const int up = parent < 0 ? parent_node : nodes[static_cast<size_t>(parent)];
        scene.nodes[static_cast<size_t>(up)].children.push_back(nodes.back());
    }
    return nodes;
}

}  // namespace

std::vector<RigJoint> moby_rig(const std::vector<moby::Joint>& joints, float scale) {
    std::vector<RigJoint> out;
    const double unit = scale / 1024.0;  // §11: m_3.xyz in raw vertex units
    for (const moby::Joint& j : joints) {
        // The stored 3x3 alone, inverted (the reader checked it invertible).
        Affine frame{};
        for (size_t c = 0; c < 3; ++c)
            for (size_t r = 0; r < 3; ++r) frame[4 * c + r] = j.matrix[4 * c + r];
        frame[15] = 1;
        Affine inverse_bind = invert(frame);
        for (size_t k = 0; k < 3; ++k) inverse_bind[12 + k] = j.matrix[12 + k] * unit;
        out.push_back({j.parent, as_single(inverse_bind)});
    }
    return out;
}

std::vector<RigJoint> bare_rig(int count) {
    return std::vector<RigJoint>(static_cast<size_t>(std::max(count, 0)), RigJoint{-1, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}});
}

int joints_named(const ClassMesh& mesh) {
    int top = 0;
    for (const VertexSkin& s : mesh.skins)
        for (int k = 0; k < s.count && k < 3; ++k) top = std::max(top, static_cast<int>(s.joints[static_cast<size_t>(k)]));
    return top + 1;
}

JointWeights joint_weights(const VertexSkin& skin) {
    JointWeights out;
    if (skin.count == 0) {
        out.weights[0] = 1;
        return out;
    }
    if (skin.count == 1) {
        out.joints[0] = skin.joints[0];
        out.weights[0] = 1;
        return out;
    }
    // Merge repeated joints, then drop the ones left without weight.
    std::array<std::pair<uint8_t, unsigned>, 3> merged{};
    size_t used = 0;
    unsigned total = 0;
    for (int k = 0; k < skin.count && k < 3; ++k) {
        const uint8_t joint = skin.joints[static_cast<size_t>(k)], weight = skin.weights[static_cast<size_t>(k)];
        total += weight;
        auto same = std::find_if(merged.begin(), merged.begin() + static_cast<std::ptrdiff_t>(used), [&](const auto& m) { return m.first == joint; });
        if (same != merged.begin() + static_cast<std::ptrdiff_t>(used)) same->second += weight;
        else merged[used++] = {joint, weight};
    }
    if (total == 0) {  // a blend of nothing: §8.7 leaves it undefined; the first joint stands
        out.joints[0] = skin.joints[0];
        out.weights[0] = 1;
        return out;
    }
    // The largest first: it takes the remainder.
    std::iter_swap(merged.begin(), std::max_element(merged.begin(), merged.begin() + static_cast<std::ptrdiff_t>(used),
                                                    [](const auto& a, const auto& b) { return a.second < b.second; }));
    float rest = 1;
    size_t k = 0;
    for (size_t m = 0; m < used; ++m) {
        if (!merged[m].second) continue;
        out.joints[k] = merged[m].first;
        out.weights[k] = static_cast<float>(static_cast<double>(merged[m].second) / total);
        if (k) rest -= out.weights[k];
        ++k;
    }
    out.weights[0] = rest;  // the largest takes the remainder
    return out;
}

namespace {

// The root node `name` that turns the game's z-up axes into glTF's y-up, as level.glb does.
int add_axes_root(Scene& scene, const std::string& name) {
    const int root = static_cast<int>(scene.nodes.size());
    Node top{name};
    top.matrix = game_to_gltf();
    scene.nodes.push_back(std::move(top));
    scene.roots.push_back(root);
    return root;
}

// The parts with triangles, each as a mesh bound to one skin whose joints
// hang under `holder` once: every part moves with the same bones. A
// skinned mesh sits on a root node of its own with no transform (§3.7.3.1);
// without a rig, or a part whose vertices lack blend records, it hangs
// under `holder` unskinned.
void add_parts(Scene& scene, int holder, const std::string& skin_name, const std::vector<NamedMesh>& parts, const std::vector<RigJoint>& rig,
               const MaterialOf& material) {
    int skin = -1;
    for (const NamedMesh& part : parts) {
        if (part.mesh->triangles.empty()) continue;
        Mesh m = class_mesh(*part.mesh, part.name, material);
        const bool skinned = !rig.empty() && part.mesh->skins.size() == part.mesh->positions.size();
        Node node{part.name, static_cast<int>(scene.meshes.size())};
        if (!skinned) {
            scene.meshes.push_back(std::move(m));
            scene.nodes.push_back(std::move(node));
            scene.nodes[static_cast<size_t>(holder)].children.push_back(static_cast<int>(scene.nodes.size() - 1));
            continue;
        }
        for (const VertexSkin& s : part.mesh->skins) {
            const JointWeights jw = joint_weights(s);
            m.joints.push_back(jw.joints);
            m.weights.push_back(jw.weights);
        }
        if (skin < 0) {
            Skin made{skin_name, add_joint_nodes(scene, rig, holder), {}, holder};
            for (const RigJoint& j : rig) made.inverse_bind.push_back(j.inverse_bind);
            skin = static_cast<int>(scene.skins.size());
            scene.skins.push_back(std::move(made));
        }
        scene.meshes.push_back(std::move(m));
        node.skin = skin;
        scene.roots.push_back(static_cast<int>(scene.nodes.size()));
        scene.nodes.push_back(std::move(node));
    }
}

}  // namespace

void add_rigged_parts(Scene& scene, const std::string& name, const std::vector<NamedMesh>& parts, const std::vector<RigJoint>& rig,
                      const MaterialOf& material) {
    add_parts(scene, add_axes_root(scene, name), name + "_skin", parts, rig, material);
}

}  // namespace gcfs::formats::gltf
