// formats/gltf: the .glb container as glTF 2.0 §4.4 lays it out, accessors
// that describe their bytes (bounds, counts, views inside the buffer), the
// checks write_glb makes before it writes, and the level-part conversions.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "formats/common/bytes.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/level_meshes.h"

namespace test_gltf {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs::formats;
using namespace gcfs::formats::gltf;

namespace {

struct Glb {
    nlohmann::json json;
    ByteSpan bin;
};

// Splits a .glb as a reader would, checking the header and chunk framing.
Glb split(const Bytes& file) {
    REQUIRE(file.size() >= 20);
    CHECK(u32_at(file, 0) == 0x46546c67);  // "glTF"
    CHECK(u32_at(file, 4) == 2);
    CHECK(u32_at(file, 8) == file.size());
    const uint32_t json_length = u32_at(file, 12);
    CHECK(u32_at(file, 16) == 0x4e4f534a);  // JSON
    CHECK(json_length % 4 == 0);
    Glb out{nlohmann::json::parse(file.begin() + 20, file.begin() + 20 + json_length), {}};
    const size_t bin_at = 20 + json_length;
    if (bin_at < file.size()) {
        const uint32_t bin_length = u32_at(file, bin_at);
        CHECK(u32_at(file, bin_at + 4) == 0x004e4942);  // BIN
        CHECK(bin_length % 4 == 0);
        CHECK(bin_at + 8 + bin_length == file.size());
        out.bin = ByteSpan(file).subspan(bin_at + 8, bin_length);
    }
    return out;
}

Scene sample_scene() {
    Scene s;
    s.name = "sample";
    Mesh a{.name = "quad",
           .positions = {{0, 0, 0}, {2, 0, 0}, {2, 3, 0}, {0, 3, -1}},
           .uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}},
           .colours = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {9, 9, 9, 9}},
           .primitives = {{0, Mode::triangles, {0, 1, 2}}, {-1, Mode::triangles, {0, 2, 3}}}};
    Mesh b{.name = "line", .positions = {{5, 5, 5}, {6, 7, 8}, {-1, 0, 2}}, .primitives = {{-1, Mode::line_strip, {}}}};
    s.meshes = {a, b};
    s.images = {{"seven", 7}};  // not a multiple of 4: padded
    s.materials = {{.name = "m", .image = 0, .alpha = Material::Alpha::mask, .double_sided = true}};
    s.cameras = {{"cam", 1.0f, 0.1f}};
    s.lights = {{"sun", true, {1, 0.5f, 0.25f}, 2.0f, std::nullopt}};
    s.nodes = {{.name = "root", .matrix = game_to_gltf(), .children = {1, 2, 3, 4}},
               {.name = "quad", .mesh = 0, .extras = {{"uid", 7}}},
               {.name = "line", .mesh = 1},
               {.name = "cam", .camera = 0},
               {.name = "sun", .light = 0}};
    s.roots = {0};
    return s;
}

Result<Bytes> seven(size_t) { return Bytes{1, 2, 3, 4, 5, 6, 7}; }

}  // namespace

TEST_CASE("a .glb has the size glb_size says, framed chunks, and accessors that describe its bytes") {
    const Scene scene = sample_scene();
    const auto file = write_glb(scene, seven);
    REQUIRE_MESSAGE(file.ok(), file.error().describe());
    CHECK(file->size() == glb_size(scene));
    const Glb glb = split(*file);
    const auto& j = glb.json;
    CHECK(j["asset"]["version"] == "2.0");
    CHECK(j["buffers"][0]["byteLength"] == glb.bin.size());
    for (const auto& view : j["bufferViews"]) {
        CHECK(view["byteOffset"].get<uint64_t>() % 4 == 0);
        CHECK(view["byteOffset"].get<uint64_t>() + view["byteLength"].get<uint64_t>() <= glb.bin.size());
    }
    // Every accessor's view holds exactly count elements.
    for (const auto& a : j["accessors"]) {
        const auto& view = j["bufferViews"][a["bufferView"].get<size_t>()];
        const uint64_t width = a["type"] == "VEC3" ? 12 : a["type"] == "VEC2" ? 8 : a["type"] == "VEC4" ? 4 : 4;
        CHECK(view["byteLength"].get<uint64_t>() == a["count"].get<uint64_t>() * width);
    }
    // POSITION bounds are the data's own (the validator compares them exactly).
    const auto& position = j["accessors"][j["meshes"][0]["primitives"][0]["attributes"]["POSITION"].get<size_t>()];
    CHECK(position["min"] == nlohmann::json::array({0.0, 0.0, -1.0}));
    CHECK(position["max"] == nlohmann::json::array({2.0, 3.0, 0.0}));
    const auto& line = j["accessors"][j["meshes"][1]["primitives"][0]["attributes"]["POSITION"].get<size_t>()];
    CHECK(line["min"] == nlohmann::json::array({-1.0, 0.0, 2.0}));
    CHECK(j["meshes"][1]["primitives"][0]["mode"] == 3);
    CHECK_FALSE(j["meshes"][1]["primitives"][0].contains("indices"));
    // Both primitives of the quad share its attributes; each has its own indices.
    CHECK(j["meshes"][0]["primitives"][0]["attributes"] == j["meshes"][0]["primitives"][1]["attributes"]);
    CHECK(j["meshes"][0]["primitives"][0]["indices"] != j["meshes"][0]["primitives"][1]["indices"]);
    CHECK(j["accessors"][j["meshes"][0]["primitives"][0]["attributes"]["COLOR_0"].get<size_t>()]["normalized"] == true);
    // The image sits in its view byte for byte.
    const auto& image_view = j["bufferViews"][j["images"][0]["bufferView"].get<size_t>()];
    CHECK(image_view["byteLength"] == 7);
    CHECK(std::memcmp(glb.bin.data() + image_view["byteOffset"].get<size_t>(), seven(0)->data(), 7) == 0);
    CHECK(j["materials"][0]["alphaMode"] == "MASK");
    CHECK(j["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"] == 0);
    CHECK(j["extensionsUsed"] == nlohmann::json::array({"KHR_lights_punctual"}));
    CHECK(j["nodes"][4]["extensions"]["KHR_lights_punctual"]["light"] == 0);
    CHECK(j["extensions"]["KHR_lights_punctual"]["lights"][0]["type"] == "directional");
    CHECK(j["nodes"][1]["extras"]["uid"] == 7);
    CHECK(j["scenes"][0]["nodes"] == nlohmann::json::array({0}));
}

TEST_CASE("write_glb refuses what a glTF reader would reject, naming the mesh") {
    auto refused = [](Scene s, const char* what) {
        const auto file = write_glb(s, seven);
        REQUIRE_FALSE(file.ok());
        CHECK_MESSAGE(file.error().message.find(what) != std::string::npos, file.error().message);
    };
    Scene s = sample_scene();
    s.meshes[0].primitives[0].indices[2] = 4;
    refused(s, "index 4 past its 4 vertices");
    s = sample_scene();
    s.meshes[0].positions[1][2] = std::nanf("");
    refused(s, "not finite");
    s = sample_scene();
    s.meshes[0].primitives[1].indices.pop_back();
    refused(s, "2 triangle corners");
    s = sample_scene();
    s.meshes[0].uvs.pop_back();
    refused(s, "3 uvs for 4 positions");
    s = sample_scene();
    s.meshes[1].positions.resize(1);
    refused(s, "a line strip of 1 vertices");
    s = sample_scene();
    s.images[0].size = 8;  // the listed size must be the bytes given
    refused(s, "is 7 bytes, 8 were listed");
    s = sample_scene();
    s.meshes[1].positions.clear();
    refused(s, "mesh 1 (line): no vertices");
}

TEST_CASE("node matrices: only rotation, scale and translation pass") {
    CHECK(trs_decomposable({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1}));
    CHECK(trs_decomposable(euler_matrix({1, 2, 3}, {0.3f, -1.2f, 2.5f}, 0.75f)));
    CHECK(trs_decomposable(game_to_gltf()));
    CHECK_FALSE(trs_decomposable({1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));        // shear
    CHECK_FALSE(trs_decomposable({0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));        // a zero axis
    CHECK_FALSE(trs_decomposable({1, 0, 0, 0.5f, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));     // projective row
    CHECK_FALSE(trs_decomposable({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0.01f}));   // the stored 0.01 w
    CHECK_FALSE(trs_decomposable({std::nanf(""), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
    // formats-gameplay.md §3.2: the stored w's are not part of the transform.
    const std::array<float, 16> stored = {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 10, 20, 30, 0.01f};
    const Matrix m = instance_matrix(stored);
    CHECK(m[15] == 1);
    CHECK(m[12] == 10);
    CHECK(trs_decomposable(m));
}

TEST_CASE("axes and rotations: z up becomes y up; T S Rz Ry Rx; lights point along their direction") {
    const Matrix axes = game_to_gltf();
    auto apply = [](const Matrix& m, std::array<float, 3> v) {
        return std::array<float, 3>{m[0] * v[0] + m[4] * v[1] + m[8] * v[2] + m[12], m[1] * v[0] + m[5] * v[1] + m[9] * v[2] + m[13],
                                    m[2] * v[0] + m[6] * v[1] + m[10] * v[2] + m[14]};
    };
    CHECK(apply(axes, {0, 0, 1}) == std::array<float, 3>{0, 1, 0});   // game up is glTF up
    CHECK(apply(axes, {0, 1, 0}) == std::array<float, 3>{0, 0, -1});
    CHECK(apply(axes, {1, 0, 0}) == std::array<float, 3>{1, 0, 0});
    // A quarter turn about z takes x to y; scale 2, then the translation.
    const auto p = apply(euler_matrix({10, 20, 30}, {0, 0, static_cast<float>(M_PI / 2)}, 2), {1, 0, 0});
    CHECK(p[0] == doctest::Approx(10));
    CHECK(p[1] == doctest::Approx(22));
    CHECK(p[2] == doctest::Approx(30));
    // Rx applies first: x quarter turn takes y to z, then z quarter turn leaves z.
    const auto q = apply(euler_matrix({0, 0, 0}, {static_cast<float>(M_PI / 2), 0, static_cast<float>(M_PI / 2)}, 1), {0, 1, 0});
    CHECK(q[2] == doctest::Approx(1));
    const auto down = pointing_along({0, 3, -4});
    REQUIRE(down);
    CHECK(trs_decomposable(*down));
    const auto d = apply(*down, {0, 0, -1});
    CHECK(d[1] == doctest::Approx(0.6));
    CHECK(d[2] == doctest::Approx(-0.8));
    CHECK_FALSE(pointing_along({0, 0, 0}));
}

TEST_CASE("terrain: a vertex per distinct position and texture coordinate of a patch, a primitive per texture") {
    TfragMesh patch;
    patch.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0.5}};
    patch.colours = {{10, 20, 30, 0x80}, {1, 1, 1, 0x80}, {2, 2, 2, 0x80}, {3, 3, 3, 0x80}};
    patch.uvs = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0.5, 0.5}};
    patch.triangles = {{0, 1, 2}, {1, 3, 2}, {0, 1, 2}};
    patch.triangle_uvs = {{0, 1, 2}, {1, 3, 2}, {4, 1, 2}};  // position 0 also seen with uv 4
    patch.triangle_texture = {5, 5, 9};
    std::vector<int> asked;
    const Mesh m = terrain_mesh({patch, patch}, [&](int t) {
        asked.push_back(t);
        return t == 5 ? 0 : 1;
    });
    CHECK(m.positions.size() == 2 * 5);  // (0,0) (1,1) (2,2) (3,3) (0,4) per patch
    CHECK(m.colours[0] == std::array<uint8_t, 4>{10, 20, 30, 255});
    REQUIRE(m.primitives.size() == 2);
    CHECK(asked == std::vector<int>{5, 9});
    CHECK(m.primitives[0].indices.size() == 2 * 2 * 3);
    CHECK(m.primitives[1].indices.size() == 2 * 3);
    CHECK(m.primitives[1].indices[0] == 4);  // the (0, 4) pair is its own vertex
    CHECK(m.uvs[4] == std::array<float, 2>{0.5f, 0.5f});
}

}  // namespace test_gltf
