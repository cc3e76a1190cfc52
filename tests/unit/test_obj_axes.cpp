// Every OBJ gcfs writes is y-up, in level.glb's frame (formats/export/axes.h):
// the conversion is a rotation, the glTF root applies the same one, each OBJ
// says so on its first line, and terrain.obj spans what level.glb's terrain
// spans once the root's rotation is applied.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "disc_fixture.h"
#include "formats/common/bytes.h"
#include "formats/export/axes.h"
#include "formats/gltf/level_meshes.h"
#include "tree/tree_builder.h"

namespace test_obj_axes {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;

namespace {

// Every file under `path` whose name ends with `suffix`.
std::vector<std::string> files_under(const tree::Disc& disc, const std::string& path, const std::string& suffix) {
    std::vector<std::string> out;
    std::function<void(const std::string&)> walk = [&](const std::string& dir) {
        disc.tree.for_each_child(*disc.tree.resolve(dir), 0, [&](const std::string& name, uint64_t, tree::NodeType type) {
            if (type == tree::NodeType::directory) walk(dir + "/" + name);
            else if (type == tree::NodeType::file && name.ends_with(suffix)) out.push_back(dir + "/" + name);
            return true;
        });
    };
    walk(path);
    return out;
}

}  // namespace

TEST_CASE("the OBJ conversion is a rotation to y-up, and level.glb's root applies the same one") {
    const auto v = formats::obj_axes(std::array<double, 3>{1, 2, 3});
    CHECK(v == std::array<double, 3>{1, 3, -2});
    CHECK(formats::obj_axes(std::array<double, 3>{0, 0, 0})[2] == 0.0);
    CHECK_FALSE(std::signbit(formats::obj_axes(std::array<double, 3>{0, 0, 0})[2]));  // no "-0" in the text
    const auto m = formats::gltf::game_to_gltf();  // column-major
    for (int axis = 0; axis < 3; ++axis) {
        std::array<double, 3> unit{};
        unit[static_cast<size_t>(axis)] = 1;
        const auto to = formats::obj_axes(unit);
        for (int row = 0; row < 3; ++row) CHECK(m[static_cast<size_t>(4 * axis + row)] == to[static_cast<size_t>(row)]);
    }
    // A rotation: determinant +1, so faces keep their winding.
    const double det = m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
    CHECK(det == 1.0);
}

TEST_CASE("every OBJ of a level and of global/armor says it is y-up on its first line") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    size_t seen = 0;
    for (const char* root : {"LEVEL00", "global/armor"})
        for (const std::string& path : files_under(*disc, root, ".obj")) {
            const std::string text = file_text(*disc, path);
            CHECK_MESSAGE(text.starts_with(formats::kObjAxesLine), path);
            ++seen;
        }
    CHECK(seen > 50);
}

TEST_CASE("terrain.obj spans level.glb's terrain turned by the root's rotation") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    const std::string glb = file_text(*disc, "LEVEL02/level.glb");
    const auto j = nlohmann::json::parse(glb.begin() + 20, glb.begin() + 20 + formats::u32_at(
                                             {reinterpret_cast<const uint8_t*>(glb.data()), glb.size()}, 12));
    std::array<double, 3> game_min{}, game_max{};
    for (const auto& n : j["nodes"])
        if (n["name"] == "terrain") {
            const auto& a = j["accessors"][j["meshes"][n["mesh"].get<size_t>()]["primitives"][0]["attributes"]["POSITION"].get<size_t>()];
            for (size_t i = 0; i < 3; ++i) game_min[i] = a["min"][i], game_max[i] = a["max"][i];
        }
    std::array<double, 3> lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    std::istringstream lines(file_text(*disc, "LEVEL02/tfrag/terrain.obj"));
    for (std::string line; std::getline(lines, line);) {
        std::array<double, 3> p{};
        if (std::sscanf(line.c_str(), "v %lf %lf %lf", &p[0], &p[1], &p[2]) != 3) continue;
        for (size_t i = 0; i < 3; ++i) lo[i] = std::min(lo[i], p[i]), hi[i] = std::max(hi[i], p[i]);
    }
    // OBJ (x, y, z) = game (x, z, -y): height on OBJ y.
    const double eps = 1e-4;
    CHECK(lo[0] == doctest::Approx(game_min[0]).epsilon(eps));
    CHECK(hi[0] == doctest::Approx(game_max[0]).epsilon(eps));
    CHECK(lo[1] == doctest::Approx(game_min[2]).epsilon(eps));
    CHECK(hi[1] == doctest::Approx(game_max[2]).epsilon(eps));
    CHECK(lo[2] == doctest::Approx(-game_max[1]).epsilon(eps));
    CHECK(hi[2] == doctest::Approx(-game_min[1]).epsilon(eps));
    // The level is wider than it is high: upright, height is the short side.
    CHECK(hi[1] - lo[1] < hi[0] - lo[0]);
    CHECK(hi[1] - lo[1] < hi[2] - lo[2]);
}

}  // namespace test_obj_axes
