// Moby skinning (formats-moby.md §8.7, §11) and the rigged glTF built from it:
// the two_packets vector's records followed back to the joints Wrench's
// listing names (hand-derived from two_packets.wrench.txt), the builder's worm
// decoded to the blends it wrote, weights as glTF wants them, and the rig's
// bind pose reproducing the stored mesh.
#include <doctest/doctest.h>

#include <cmath>

#include "formats/gltf/rig.h"
#include "formats/moby/moby.h"
#include "mkdisc/mobies.h"
#include "tests/unit/gameplay_vectors.h"

namespace test_moby_skin {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats;

VertexSkin one(uint8_t joint) { return {1, {joint, 0, 0}, {255, 0, 0}}; }
VertexSkin two(uint8_t a, uint8_t b, uint8_t wa, uint8_t wb) { return {2, {a, b, 0}, {wa, wb, 0}}; }
VertexSkin three(uint8_t a, uint8_t b, uint8_t c, uint8_t wa, uint8_t wb, uint8_t wc) { return {3, {a, b, c}, {wa, wb, wc}}; }

std::vector<VertexSkin> skins_of(const moby::Lod& lod) {
    std::vector<VertexSkin> out;
    for (const moby::Vertex& v : lod.vertices) out.push_back(v.skin);
    return out;
}

TEST_CASE("two_packets: every vertex's matrix followed back to its joints, VU0 slots kept across packets") {
    const auto cls = moby::read_moby_class(test::read_bytes(test::shared_path("vectors/moby/two_packets.bin")));
    REQUIRE(cls.ok());
    CHECK(cls->animated);
    CHECK_FALSE(cls->rig_error);
    REQUIRE(cls->joints.size() == 3);
    // Packet 0: transfers put joints 0 and 1 at 0x00 and 0x04; two two-way records, one
    // three-way, then main records loading joints or those blends. Packet 1: its dupes copy
    // cache slots 12 (the three-way blend) and 15 (joint 1).
    const std::vector<VertexSkin> want = {
        two(0, 1, 128, 127), two(1, 2, 200, 55), three(0, 1, 2, 100, 100, 55), two(0, 1, 128, 127), one(0), one(1), one(2),
        two(1, 2, 200, 55), three(0, 1, 2, 100, 100, 55), one(0),
        one(0), two(0, 1, 128, 127), one(0), one(0), three(0, 1, 2, 100, 100, 55), one(1)};
    const auto got = skins_of(cls->high);
    REQUIRE(got.size() == want.size());
    for (size_t v = 0; v < want.size(); ++v) {
        CAPTURE(v);
        CHECK(got[v] == want[v]);
    }
    for (const VertexSkin& s : skins_of(cls->low)) CHECK(s == one(0));
}

TEST_CASE("the builder's worm decodes to the blends it wrote, on a chain of four joints") {
    const moby::ClassSpec spec = mkdisc::moby_design(1, 1.0);
    const auto cls = moby::read_moby_class(moby::write_moby_class(spec));
    REQUIRE(cls.ok());
    REQUIRE(cls->joints.size() == 4);
    CHECK_FALSE(cls->rig_error);
    const auto got = skins_of(cls->high);
    REQUIRE(got.size() == 18 + 12 + 6);  // packet 0: rings 0-2; packet 1: rings 3, 4 and ring 2's duplicates
    const VertexSkin blend2 = two(0, 1, 128, 127), blend3 = three(0, 1, 2, 100, 100, 55);
    for (int k = 0; k < 6; ++k) {
        CAPTURE(k);
        CHECK(got[static_cast<size_t>(k)] == (k == 0 ? blend2 : k == 1 ? blend3 : one(0)));  // ring 0
        CHECK(got[static_cast<size_t>(6 + k)] == blend2);                                    // ring 1 loads 0x10
        CHECK(got[static_cast<size_t>(12 + k)] == (k % 2 ? blend3 : one(1)));                 // ring 2: 0x14 or 0x04
        CHECK(got[static_cast<size_t>(18 + k)] == one(2));                                   // ring 3 loads 0x08
        CHECK(got[static_cast<size_t>(24 + k)] == one(3));                                   // ring 4 0x0c
        CHECK(got[static_cast<size_t>(30 + k)] == got[static_cast<size_t>(12 + k)]);         // a duplicate keeps its original's
    }
}

TEST_CASE("glTF weights: fractions of the blend's sum, repeats merged, the largest takes the remainder") {
    auto sum = [](const gltf::JointWeights& w) { return w.weights[0] + w.weights[1] + w.weights[2] + w.weights[3]; };
    const auto a = gltf::joint_weights(two(3, 5, 128, 127));
    CHECK(a.joints[0] == 3);
    CHECK(a.joints[1] == 5);
    CHECK(a.weights[1] == doctest::Approx(127.0 / 255));
    CHECK(sum(a) == 1.0f);
    const auto b = gltf::joint_weights(three(2, 2, 4, 10, 10, 60));  // joint 2 twice: 20 of 80
    CHECK(b.joints[0] == 4);
    CHECK(b.weights[0] == doctest::Approx(0.75));
    CHECK(b.joints[1] == 2);
    CHECK(b.weights[1] == doctest::Approx(0.25));
    CHECK(b.weights[2] == 0);
    CHECK(sum(b) == 1.0f);
    const auto c = gltf::joint_weights(three(1, 2, 3, 0, 200, 55));  // a zero weight is dropped
    CHECK(c.joints[0] == 2);
    CHECK(c.joints[1] == 3);
    CHECK(c.joints[2] == 0);
    CHECK(c.weights[2] == 0);
    const auto d = gltf::joint_weights(VertexSkin{});  // a static class's identity: joint 0
    CHECK(d.joints[0] == 0);
    CHECK(d.weights[0] == 1.0f);
    for (int x = 0; x < 256; x += 5)
        for (int y = 0; y < 256; y += 7) {
            const auto w = gltf::joint_weights(three(0, 1, 2, static_cast<uint8_t>(x), static_cast<uint8_t>(y), 1));
            CHECK(std::abs(sum(w) - 1.0f) < 1e-6f);
        }
}

// Column-major 4x4 products, for chaining the joint nodes' local matrices.
std::array<double, 16> times(const std::array<double, 16>& a, const std::array<double, 16>& b) {
    std::array<double, 16> out{};
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            for (int k = 0; k < 4; ++k) out[static_cast<size_t>(4 * c + r)] += a[static_cast<size_t>(4 * k + r)] * b[static_cast<size_t>(4 * c + k)];
    return out;
}

TEST_CASE("the rig's bind pose is the stored mesh: turned, scaled joints where the builder put them, each joint's world matrix times its inverse bind the identity") {
    const moby::ClassSpec spec = mkdisc::moby_design(1, 1.0);
    const auto cls = moby::read_moby_class(moby::write_moby_class(spec));
    REQUIRE(cls.ok());
    const auto rig = gltf::moby_rig(cls->joints, cls->header.scale);
    REQUIRE(rig.size() == 4);
    for (size_t j = 0; j < rig.size(); ++j) {
        CAPTURE(j);
        CHECK(rig[j].parent == static_cast<int>(j) - 1);
        // §11 as Wrench's recover_moby_joints reads it, worked here by hand: the stored 3x3 F is
        // the joint's frame, so the joint sits at -F · m_3 × scale/1024 (common_trans holds it too).
        const auto& m = cls->joints[j].matrix;
        const double unit = cls->header.scale / 1024.0;
        for (size_t r = 0; r < 3; ++r) {
            const double at = -(m[r] * m[12] + m[4 + r] * m[13] + m[8 + r] * m[14]) * unit;
            CHECK(at == doctest::Approx(cls->joints[j].translation[r]).epsilon(1e-4));
        }
        // The frame is turned and not of unit scale: the convention shows.
        CHECK(std::abs(m[1]) + std::abs(m[2]) + std::abs(m[4]) + std::abs(m[6]) + std::abs(m[8]) + std::abs(m[9]) > 0.1);
        CHECK(std::abs(m[0] * m[0] + m[1] * m[1] + m[2] * m[2] - 1) > 0.1);
    }
    gltf::Scene scene;
    const ClassMesh high = moby::lod_mesh(*cls, cls->high);
    gltf::add_rigged_parts(scene, "moby_1", {{"moby_1_high_lod", &high}}, rig, [](int) { return -1; });
    REQUIRE(scene.skins.size() == 1);
    const gltf::Skin& skin = scene.skins[0];
    REQUIRE(skin.joints.size() == 4);
    // The joint nodes' local matrices chained from the root: world · inverse bind = identity, and
    // the world translation is where the builder put the joint.
    std::array<double, 16> world{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (size_t j = 0; j < 4; ++j) {
        CAPTURE(j);
        std::array<double, 16> local, inverse_bind;
        const gltf::Matrix& stored_local = *scene.nodes[static_cast<size_t>(skin.joints[j])].matrix;
        std::copy(stored_local.begin(), stored_local.end(), local.begin());
        std::copy(rig[j].inverse_bind.begin(), rig[j].inverse_bind.end(), inverse_bind.begin());
        world = times(world, local);
        const auto identity = times(world, inverse_bind);
        for (size_t k = 0; k < 16; ++k) CHECK(identity[k] == doctest::Approx(k % 5 == 0 ? 1.0 : 0.0).epsilon(1e-4).scale(1));
        for (size_t k = 0; k < 3; ++k) CHECK(world[12 + k] == doctest::Approx(cls->joints[j].translation[k]).epsilon(1e-4).scale(1));
    }
    const gltf::Mesh& mesh = scene.meshes[0];
    REQUIRE(mesh.joints.size() == high.positions.size());
    CHECK(gltf::mesh_problem(mesh).empty());
    CHECK(gltf::write_glb(scene, [](size_t) -> Result<Bytes> { return Bytes{}; }).ok());
}

TEST_CASE("a model's parts share one skin: the joints once, every part's mesh node bound to it (one armature)") {
    const moby::ClassSpec spec = mkdisc::moby_design(1, 1.0);
    const auto cls = moby::read_moby_class(moby::write_moby_class(spec));
    REQUIRE(cls.ok());
    const auto rig = gltf::moby_rig(cls->joints, cls->header.scale);
    const ClassMesh body = moby::lod_mesh(*cls, cls->high);
    const ClassMesh lid = body, empty;
    gltf::Scene scene;
    gltf::add_rigged_parts(scene, "moby_1", {{"body", &body}, {"lid", &lid}, {"nothing", &empty}}, rig, [](int) { return -1; });
    REQUIRE(scene.skins.size() == 1);
    CHECK(scene.skins[0].joints.size() == rig.size());
    CHECK(scene.meshes.size() == 2);  // a part without triangles adds nothing
    size_t joint_nodes = 0, bound = 0;
    for (const gltf::Node& node : scene.nodes) {
        joint_nodes += node.name.starts_with("joint_");
        if (node.mesh < 0) continue;
        CHECK(node.skin == 0);
        ++bound;
    }
    CHECK(joint_nodes == rig.size());
    CHECK(bound == 2);
    CHECK(gltf::write_glb(scene, [](size_t) -> Result<Bytes> { return Bytes{}; }).ok());
}

TEST_CASE("an empty rig gives a plain mesh; an armor model's bare rig names the joints its records use") {
    const moby::ClassSpec crate = mkdisc::moby_design(0, 1.0);
    const auto cls = moby::read_moby_class(moby::write_moby_class(crate));
    REQUIRE(cls.ok());
    gltf::Scene scene;
    const ClassMesh high = moby::lod_mesh(*cls, cls->high);
    gltf::add_rigged_parts(scene, "moby_0", {{"moby_0_high_lod", &high}}, {}, [](int) { return -1; });
    CHECK(scene.skins.empty());
    CHECK(scene.meshes[0].joints.empty());
    ClassMesh mesh;
    mesh.skins = {one(0), two(1, 4, 100, 155), VertexSkin{}};
    CHECK(gltf::joints_named(mesh) == 5);
    const auto bare = gltf::bare_rig(5);
    REQUIRE(bare.size() == 5);
    for (const auto& j : bare) CHECK(j.parent == -1);
}

}  // namespace test_moby_skin
