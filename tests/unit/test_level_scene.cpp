// LEVELnn/level.glb through the tree, without a mount: its size at stat is
// the size a read returns, the stat builds only that level's scene, every
// placed instance is a node named for it that shares its class's mesh, and a
// damaged tie class leaves its instances as empty nodes saying why.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "disc_fixture.h"
#include "formats/common/bytes.h"
#include "tree/tree_builder.h"

namespace test_level_scene {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;

namespace {

nlohmann::json scene_json(const tree::Disc& disc, const std::string& level, const std::string& file = "level.glb") {
    const tree::NodeRef n_held = node_at(disc, level + "/" + file);
    const tree::Node& n = *n_held;
    formats::Bytes bytes(n.source->size());
    const tree::ReadOutcome got = n.source->read(0, bytes);
    REQUIRE_MESSAGE(got.ok(), got.error);
    REQUIRE(got.bytes == bytes.size());
    REQUIRE(formats::u32_at(bytes, 8) == bytes.size());
    const uint32_t json_length = formats::u32_at(bytes, 12);
    return nlohmann::json::parse(bytes.begin() + 20, bytes.begin() + 20 + json_length);
}

// Instance nodes by kind ("ties", ...): the children of that group node.
std::vector<nlohmann::json> group(const nlohmann::json& j, const std::string& name) {
    for (const auto& n : j["nodes"])
        if (n["name"] == name) {
            std::vector<nlohmann::json> out;
            for (const auto& c : n["children"]) out.push_back(j["nodes"][c.get<size_t>()]);
            return out;
        }
    return {};
}

// Triangles a scene's meshes hold (each mesh once).
uint64_t mesh_triangles(const nlohmann::json& j) {
    uint64_t n = 0;
    for (const auto& m : j["meshes"])
        for (const auto& p : m["primitives"])
            if (p.value("mode", 4) == 4) n += j["accessors"][p["indices"].get<size_t>()]["count"].get<uint64_t>() / 3;
    return n;
}

const nlohmann::json& named(const nlohmann::json& j, const std::string& name) {
    for (const auto& n : j["nodes"])
        if (n["name"] == name) return n;
    FAIL("no node named " << name);
    throw;
}

}  // namespace

TEST_CASE("collision.glb: the collision alone, in level.glb's frame, every face of collision.obj") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    for (const std::string level : {"LEVEL00", "LEVEL03"}) {
        const nlohmann::json j = scene_json(*disc, level, "collision.glb"), whole = scene_json(*disc, level);
        CHECK(named(j, level)["matrix"] == named(whole, level)["matrix"]);  // one frame
        CHECK(j["scenes"][0]["extras"]["part"] == "collision");
        const auto info = nlohmann::json::parse(file_text(*disc, level + "/info.json"))["collision"];
        // collision.obj's faces: quads split in two here, as glTF draws triangles only.
        const uint64_t want = 2 * info["quads"].get<uint64_t>() + info["triangles"].get<uint64_t>() + info["hero_triangles"].get<uint64_t>();
        CHECK(want > 0);
        CHECK(mesh_triangles(j) == want);
        CHECK(j["nodes"].size() == 4);  // the level's root, "collision", the mesh, the hero groups
    }
}

TEST_CASE("level.glb's sky is centred on the level's extent and its innermost rim lies 1.5 half-diagonals out") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    const nlohmann::json j = scene_json(*disc, "LEVEL01");
    // The extent: the terrain's POSITION bounds and every instance's origin, on the game's axes.
    std::array<double, 3> lo{}, hi{};
    const auto& terrain = j["accessors"][j["meshes"][named(j, "terrain")["mesh"].get<size_t>()]["primitives"][0]["attributes"]["POSITION"].get<size_t>()];
    for (size_t i = 0; i < 3; ++i) lo[i] = terrain["min"][i], hi[i] = terrain["max"][i];
    for (const char* kind : {"ties", "shrubs", "mobies"})
        for (const auto& n : group(j, kind))
            for (size_t i = 0; i < 3; ++i) {
                lo[i] = std::min(lo[i], n["matrix"][12 + i].get<double>());
                hi[i] = std::max(hi[i], n["matrix"][12 + i].get<double>());
            }
    const double half_diagonal = std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2;
    // The rim: the innermost shell's widest reach across the game's x and y, from sky.obj (written (x, z, -y)).
    std::vector<double> reach;
    std::istringstream obj(file_text(*disc, "LEVEL01/sky/sky.obj"));
    for (std::string line; std::getline(obj, line);) {
        if (line.starts_with("o shell_")) reach.push_back(0);
        double x, y, z;
        if (std::sscanf(line.c_str(), "v %lf %lf %lf", &x, &y, &z) == 3) reach.back() = std::max(reach.back(), std::hypot(x, z));
    }
    REQUIRE(reach.size() == 3);
    const double rim = *std::min_element(reach.begin(), reach.end());
    CHECK(rim < *std::max_element(reach.begin(), reach.end()));  // the builder's shells differ in size
    const auto& m = named(j, "sky")["matrix"];
    const double scale = m[0];
    CHECK(scale == doctest::Approx(1.5 * half_diagonal / rim).epsilon(1e-5));
    CHECK(m[5] == m[0]);
    CHECK(m[10] == m[0]);
    for (size_t i = 0; i < 3; ++i) CHECK(m[12 + i].get<double>() == doctest::Approx((lo[i] + hi[i]) / 2).epsilon(1e-5));
    CHECK(scale * rim > std::hypot(hi[0] - lo[0], hi[1] - lo[1]) / 2);  // every corner inside the rim
    CHECK(named(j, "sky")["extras"]["placement"].get<std::string>().find("centred on the level's extent") == 0);
}

TEST_CASE("level.glb: stat builds one level's scene only, and a read returns that many bytes") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    CHECK(disc->cache->stats().misses == 0);  // mounting builds no scene
    const uint64_t size = node_at(*disc, "LEVEL02/level.glb")->source->size();
    CHECK(size > 1000);
    // Its sources: that level's core head, tfrag region, class window and
    // gameplay, once each; the class window shows the texels it embeds decode.
    CHECK(disc->cache->stats().misses == 4);
    const nlohmann::json j = scene_json(*disc, "LEVEL02");
    CHECK(j["scenes"][0]["extras"]["level"] == "LEVEL02");
    CHECK_FALSE(j["scenes"][0]["extras"].contains("notes"));  // nothing was left out of a clean level

    // Ties and shrubs: a node per record of gameplay/, named kind_class_index, one mesh per class.
    const auto ties = group(j, "ties"), shrubs = group(j, "shrubs"), mobies = group(j, "mobies");
    CHECK(ties.size() == 6);
    CHECK(shrubs.size() == 8);
    CHECK(mobies.size() == 14);
    std::map<int, std::set<int>> mesh_of_class;
    for (const auto& n : ties) {
        CHECK(n["name"] == fmt::format("tie_{}_{}", n["extras"]["class"].get<int>(), n["extras"]["index"].get<int>()));
        REQUIRE(n.contains("mesh"));
        mesh_of_class[n["extras"]["class"].get<int>()].insert(n["mesh"].get<int>());
    }
    CHECK(mesh_of_class.size() == 3);
    for (const auto& item : mesh_of_class) {
        const auto& cls = std::get<0>(item);
        const auto& meshes = std::get<1>(item);
        CHECK_MESSAGE(meshes.size() == 1, cls);
    }
    // Mobies: moby_uid_class; the classes without a model (every fifth, mkdisc) are empty nodes saying so.
    size_t empty = 0;
    for (const auto& n : mobies) {
        CHECK(n["name"] == fmt::format("moby_{}_{}", n["extras"]["uid"].get<int>(), n["extras"]["class"].get<int>()));
        CHECK(n["extras"].contains("pvar_index"));
        if (n.contains("mesh")) continue;
        ++empty;
        CHECK(n["extras"]["error"].get<std::string>().find("has no model") != std::string::npos);
        CHECK(n.contains("matrix"));  // still placed
    }
    CHECK(empty == 2);
    // The terrain and sky are there, the collision is not (collision.glb holds it).
    bool terrain = false;
    for (const auto& n : j["nodes"]) {
        CHECK(n["name"] != "collision");
        if (n["name"] == "terrain") terrain = n.contains("mesh");
    }
    CHECK(terrain);
    CHECK(group(j, "sky").size() == 3);
    CHECK(group(j, "cameras").size() == 3);
    // Every image embedded is a texture file of the level, by name.
    for (const auto& image : j["images"]) CHECK(image["mimeType"] == "image/png");
}

TEST_CASE("level.glb with a damaged tie class: its instances are empty nodes naming the byte, the rest is whole") {
    const DamagedDisc damaged({{mkdisc::Damage::tie_strip_slot, 1}}, 7);
    auto disc = tree::open_disc(damaged.path, 64 << 20);
    const nlohmann::json j = scene_json(*disc, "LEVEL01");
    size_t broken = 0, whole = 0;
    for (const auto& n : group(j, "ties")) {
        if (n["extras"]["class"] == 500) {
            ++broken;
            CHECK_FALSE(n.contains("mesh"));
            CHECK_MESSAGE(n["extras"]["error"].get<std::string>().find("tie class 500 at core_data.bin 0x") == 0, n["extras"]["error"]);
        } else {
            ++whole;
            CHECK(n.contains("mesh"));
        }
    }
    CHECK(broken == 2);
    CHECK(whole == 4);
    CHECK(group(j, "shrubs").size() == 8);
    // The other levels' scenes do not see the damage.
    const nlohmann::json other = scene_json(*disc, "LEVEL00");
    for (const auto& n : group(other, "ties")) CHECK(n.contains("mesh"));
}

}  // namespace test_level_scene
