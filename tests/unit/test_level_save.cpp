// level.glb saved back (formats/gltf/scene_read.h, level_import.h): a scene
// read through TinyGLTF, each instance node matched by its name or extras,
// its transform taken back to the game's axes in either frame an exporter
// keeps, and the changes written as the instance tables' CSVs; every
// refusal names its node.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

#include "formats/export/csv_read.h"
#include "formats/gameplay/export.h"
#include "formats/gameplay/gameplay.h"
#include "formats/gameplay/import.h"
#include "formats/gameplay/volume_mesh.h"
#include "formats/gltf/level_import.h"
#include "formats/gltf/level_instances.h"
#include "formats/gltf/level_meshes.h"
#include "formats/gltf/scene_read.h"
#include "mkdisc/gameplay.h"

namespace test_level_save {  // apart from the other test files' names (unity builds)

using namespace gcfs;
using namespace gcfs::formats;
using namespace gcfs::formats::gltf;

namespace {

Bytes built() {
    mkdisc::Random random(12);
    mkdisc::GameplaySpec spec{0, false, [](double x, double y) { return 0.01 * x - 0.02 * y; }, 400, {100, 101, 102}, {500, 501}, {700}, 8};
    return mkdisc::build_gameplay(spec, random, nullptr);
}

WorldMatrix times(const Matrix& a, const Matrix& b) {
    WorldMatrix out{};
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            for (int k = 0; k < 4; ++k) out[static_cast<size_t>(4 * c + r)] += double{a[static_cast<size_t>(4 * k + r)]} * b[static_cast<size_t>(4 * c + k)];
    return out;
}

// The scene level.glb shows, as an exporter keeping y up (G · M) or Blender's z up (M · G) saves it.
SavedScene shown_scene(const gameplay::Gameplay& g, bool z_up = false) {
    SavedScene scene;
    const Matrix root = game_to_gltf();
    for (InstanceKind kind : kInstanceKinds) {
        const auto& table = *gameplay::table_of(g, info(kind).block).value;
        const auto names = node_names(kind, table);
        for (size_t i = 0; i < table.count(); ++i) {
            const Matrix m = record_matrix(kind, table, i);
            scene.nodes.push_back({names[i], nullptr, z_up ? times(m, root) : times(root, m)});
        }
    }
    const Matrix identity{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    // Volumes are drawn in world space: their nodes carry no matrix.
    for (int kind = 0; kind < 4; ++kind)
        for (size_t i = 0; i < g.volumes(kind).value->count(); ++i)
            scene.nodes.push_back({fmt::format("{}_{}", gameplay::kVolumeKindNames[static_cast<size_t>(kind)], i), nullptr,
                                   z_up ? times(identity, root) : times(root, identity)});
    scene.nodes.push_back({"terrain", nullptr, times(root, identity)});
    return scene;
}

SavedNode& named(SavedScene& scene, const std::string& name) {
    for (auto& n : scene.nodes)
        if (n.name == name) return n;
    FAIL("no node ", name);
    return scene.nodes.front();
}

std::vector<csv::Row> rows_of(const std::string& text) {
    auto rows = csv::parse(text);
    REQUIRE(rows.ok());
    return *rows;
}

size_t column(const std::vector<csv::Row>& rows, const std::string& name) {
    const auto& h = rows.front().cells;
    const auto it = std::find(h.begin(), h.end(), name);
    REQUIRE(it != h.end());
    return static_cast<size_t>(it - h.begin());
}

const std::string* file_of(const LevelSave& save, const std::string& name) {
    for (const auto& [n, text] : save.files)
        if (n == name) return &text;
    return nullptr;
}

std::string moby_name(const gameplay::Gameplay& g, size_t i) { return node_names(InstanceKind::moby, *g.mobies.value)[i]; }

}  // namespace

TEST_CASE("a scene saved as shown changes nothing, in the y-up frame and in Blender's z-up one") {
    const gameplay::Gameplay g = gameplay::read_gameplay(built());
    for (bool z_up : {false, true}) {
        const auto save = level_save(g, shown_scene(g, z_up));
        REQUIRE_MESSAGE(save.ok(), save.error().message);
        CHECK(save->files.empty());
        CHECK(save->status.find(z_up ? "z-up frame" : "y-up frame") != std::string::npos);
        CHECK(save->status.find("mobies: unchanged") != std::string::npos);
        CHECK(save->status.find("1 other node ignored (terrain)") != std::string::npos);
    }
}

TEST_CASE("a moved moby changes the cells that moved, and only those") {
    const gameplay::Gameplay g = gameplay::read_gameplay(built());
    SavedScene scene = shown_scene(g);
    SavedNode& moby = named(scene, moby_name(g, 3));
    // glTF's x is the game's x, glTF's y the game's z (the root's (x, y, z) -> (x, z, -y)).
    moby.world[12] += 5;
    moby.world[13] += 2;
    const auto save = level_save(g, scene);
    REQUIRE_MESSAGE(save.ok(), save.error().message);
    REQUIRE(file_of(*save, "mobies.csv"));
    CHECK(save->files.size() == 1);
    const auto before = rows_of(gameplay::shown_file(g, "mobies.csv")), after = rows_of(*file_of(*save, "mobies.csv"));
    REQUIRE(after.size() == before.size());
    for (size_t r = 0; r < before.size(); ++r)
        for (size_t c = 0; c < before[r].cells.size(); ++c) {
            const bool moved = r == 4 && (c == column(before, "pos_x") || c == column(before, "pos_z"));
            CHECK_MESSAGE((after[r].cells[c] == before[r].cells[c]) != moved, r, " ", before[0].cells[c]);
        }
    CHECK(std::abs(std::stod(after[4].cells[column(before, "pos_x")]) - g.mobies.value->f32(3, 0x40) - 5) < 1e-4);
    CHECK(std::abs(std::stod(after[4].cells[column(before, "pos_z")]) - g.mobies.value->f32(3, 0x48) - 2) < 1e-4);
    // The table imports as a CSV save would.
    CHECK(gameplay::import_file(built(), "mobies.csv", *file_of(*save, "mobies.csv")).ok());
}

TEST_CASE("a turned moby's rotation and scale come back as the record keeps them") {
    const gameplay::Gameplay g = gameplay::read_gameplay(built());
    SavedScene scene = shown_scene(g);
    const auto& t = *g.mobies.value;
    const Matrix turned = euler_matrix(t.floats<3>(2, 0x40), {0.25f, -0.5f, 1.0f}, 1.5f);
    named(scene, moby_name(g, 2)).world = times(game_to_gltf(), turned);
    const auto save = level_save(g, scene);
    REQUIRE_MESSAGE(save.ok(), save.error().message);
    const auto after = rows_of(*file_of(*save, "mobies.csv"));
    CHECK(std::abs(std::stod(after[3].cells[column(after, "rot_x")]) - 0.25) < 1e-5);
    CHECK(std::abs(std::stod(after[3].cells[column(after, "rot_y")]) + 0.5) < 1e-5);
    CHECK(std::abs(std::stod(after[3].cells[column(after, "rot_z")]) - 1.0) < 1e-5);
    CHECK(std::abs(std::stod(after[3].cells[column(after, "scale")]) - 1.5) < 1e-5);
}

TEST_CASE("Blender's duplicate adds a copy after every kept row; a node gone removes its row") {
    const gameplay::Gameplay g = gameplay::read_gameplay(built());
    SavedScene scene = shown_scene(g);
    const auto ties = node_names(InstanceKind::tie, *g.ties.value);
    SavedNode copy = named(scene, ties[0]);
    copy.name += ".001";
    copy.world[12] += 3;
    scene.nodes.push_back(copy);
    const auto shrubs = node_names(InstanceKind::shrub, *g.shrubs.value);
    std::erase_if(scene.nodes, [&](const SavedNode& n) { return n.name == shrubs[1]; });
    const auto save = level_save(g, scene);
    REQUIRE_MESSAGE(save.ok(), save.error().message);
    const auto tie_rows = rows_of(*file_of(*save, "ties.csv")), tie_before = rows_of(gameplay::shown_file(g, "ties.csv"));
    REQUIRE(tie_rows.size() == tie_before.size() + 1);
    CHECK(std::equal(tie_before.begin(), tie_before.end(), tie_rows.begin(), [](const auto& a, const auto& b) { return a.cells == b.cells; }));
    CHECK(tie_rows.back().cells[0] == "0");  // a second line naming tie 0: its copy
    const auto shrub_rows = rows_of(*file_of(*save, "shrubs.csv"));
    CHECK(shrub_rows.size() == rows_of(gameplay::shown_file(g, "shrubs.csv")).size() - 1);
    CHECK(save->status.find("ties: 1 added as copies") != std::string::npos);
    CHECK(save->status.find("shrubs: 1 removed") != std::string::npos);
}

TEST_CASE("a volume's node moved by T makes its matrix T times its matrix in volumes.csv; the import computes the inverse") {
    const Bytes file = built();
    const gameplay::Gameplay g = gameplay::read_gameplay(file);
    REQUIRE(g.volumes(0).value->count() > 0);
    SavedScene scene = shown_scene(g);
    named(scene, "cuboid_0").world[12] += 3;  // glTF x: the game's x
    const auto save = level_save(g, scene);
    REQUIRE_MESSAGE(save.ok(), save.error().message);
    REQUIRE(file_of(*save, "volumes.csv"));
    CHECK(save->status.find("cuboids: 1 moved or turned") != std::string::npos);
    const auto before = rows_of(gameplay::shown_file(g, "volumes.csv")), after = rows_of(*file_of(*save, "volumes.csv"));
    REQUIRE(after.size() == before.size());
    for (size_t r = 0; r < before.size(); ++r)
        for (size_t c = 0; c < before[r].cells.size(); ++c)
            CHECK_MESSAGE((after[r].cells[c] == before[r].cells[c]) != (r == 1 && c == column(before, "col3_x")), r, " ", before[0].cells[c]);
    const auto imported = gameplay::import_file(file, "volumes.csv", *file_of(*save, "volumes.csv"));
    REQUIRE_MESSAGE(imported.ok(), imported.error().message);
    const gameplay::Gameplay moved = gameplay::read_gameplay(imported->gameplay);
    CHECK(std::abs(moved.volumes(0).value->f32(0, 0x30) - g.volumes(0).value->f32(0, 0x30) - 3) < 1e-4);
}

TEST_CASE("a turned sound changes its matrix and the inverse's three columns; its rotation field stays as stored") {
    const Bytes file = built();
    const gameplay::Gameplay g = gameplay::read_gameplay(file);
    REQUIRE(g.sounds.value->count() > 0);
    SavedScene scene = shown_scene(g);
    const Matrix stored = record_matrix(InstanceKind::sound, *g.sounds.value, 0);
    const Matrix quarter{0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  // 90 degrees about the game's z
    Matrix turned = stored;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) {
            double v = 0;
            for (int k = 0; k < 3; ++k) v += double{quarter[static_cast<size_t>(4 * k + r)]} * stored[static_cast<size_t>(4 * c + k)];
            turned[static_cast<size_t>(4 * c + r)] = static_cast<float>(v);
        }
    named(scene, "sound_0").world = times(game_to_gltf(), turned);
    const auto save = level_save(g, scene);
    REQUIRE_MESSAGE(save.ok(), save.error().message);
    const auto rows = rows_of(*file_of(*save, "sounds.csv"));
    const auto before = rows_of(gameplay::shown_file(g, "sounds.csv"));
    CHECK(rows[1].cells[column(rows, "rot_z")] == before[1].cells[column(before, "rot_z")]);
    CHECK(rows[1].cells[column(rows, "col3_x")] == before[1].cells[column(before, "col3_x")]);
    const auto imported = gameplay::import_file(file, "sounds.csv", *file_of(*save, "sounds.csv"));
    REQUIRE_MESSAGE(imported.ok(), imported.error().message);
    const gameplay::Gameplay after = gameplay::read_gameplay(imported->gameplay);
    const auto& sound = *after.sounds.value;
    // The matrix times its stored inverse's 3x3 is the identity.
    const auto m = sound.floats<16>(0, 0x10);
    const auto inverse = sound.floats<12>(0, 0x50);
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) {
            double v = 0;
            for (int k = 0; k < 3; ++k) v += double{m[static_cast<size_t>(4 * k + r)]} * inverse[static_cast<size_t>(4 * c + k)];
            CHECK(std::abs(v - (r == c ? 1 : 0)) < 1e-5);
        }
    CHECK(std::abs(m[0] - turned[0]) < 1e-5);
}

TEST_CASE("a kind with no node is left; more than half of a kind gone is refused unless the scene allows it") {
    const gameplay::Gameplay g = gameplay::read_gameplay(built());
    SavedScene scene = shown_scene(g);
    std::erase_if(scene.nodes, [](const SavedNode& n) { return n.name.starts_with("camera_"); });
    auto save = level_save(g, scene);
    REQUIRE(save.ok());
    CHECK(save->files.empty());
    CHECK(save->status.find("cameras: no camera node in the file, so they are left as they are") != std::string::npos);
    const std::string keep = moby_name(g, 0);
    std::erase_if(scene.nodes, [&](const SavedNode& n) { return n.name.starts_with("moby_") && n.name != keep; });
    save = level_save(g, scene);
    REQUIRE_FALSE(save.ok());
    CHECK(save.error().message.find("the file holds 1 of the level's") != std::string::npos);
    scene.extras = {{"gcfs_allow_delete", true}};
    save = level_save(g, scene);
    REQUIRE_MESSAGE(save.ok(), save.error().message);
    CHECK(rows_of(*file_of(*save, "mobies.csv")).size() == 2);
}

TEST_CASE("transforms a record cannot hold are refused naming the node") {
    const gameplay::Gameplay g = gameplay::read_gameplay(built());
    const std::string name = moby_name(g, 1);
    auto refused = [&](auto change) {
        SavedScene scene = shown_scene(g);
        change(named(scene, name).world);
        const auto save = level_save(g, scene);
        REQUIRE_FALSE(save.ok());
        CHECK(save.error().message.find(name) != std::string::npos);
        return save.error().message;
    };
    CHECK(refused([](WorldMatrix& m) { m[0] *= 2, m[1] *= 2, m[2] *= 2; }).find("scaled unevenly") != std::string::npos);
    CHECK(refused([](WorldMatrix& m) { m[4] += 0.5 * m[0], m[5] += 0.5 * m[1], m[6] += 0.5 * m[2]; }).find("sheared") != std::string::npos);
    CHECK(refused([](WorldMatrix& m) { m[0] = -m[0], m[1] = -m[1], m[2] = -m[2]; }).find("mirrored") != std::string::npos);
    SavedScene scene = shown_scene(g);
    for (int k = 0; k < 11; ++k)
        if (k % 4 != 3) named(scene, "camera_0").world[static_cast<size_t>(k)] *= 2;
    const auto camera = level_save(g, scene);
    REQUIRE_FALSE(camera.ok());
    CHECK(camera.error().message.find("a camera record keeps no scale") != std::string::npos);
}

TEST_CASE("a renamed node is found by its extras; names and extras of another state are refused") {
    const gameplay::Gameplay g = gameplay::read_gameplay(built());
    SavedScene scene = shown_scene(g);
    SavedNode& moby = named(scene, moby_name(g, 4));
    moby.name = "my crate";
    moby.extras = {{"kind", "moby"}, {"index", 4}, {"class", g.mobies.value->s32(4, 0x28)}};
    moby.world[12] += 1;
    auto save = level_save(g, scene);
    REQUIRE_MESSAGE(save.ok(), save.error().message);
    CHECK(save->status.find("mobies: 1 moved or turned") != std::string::npos);
    moby.extras["class"] = g.mobies.value->s32(4, 0x28) + 1;
    save = level_save(g, scene);
    REQUIRE_FALSE(save.ok());
    CHECK(save.error().message.find("my crate") != std::string::npos);
    for (const char* stale : {"tie_999_0", "sound_99", "cuboid_99", "moby_5_7_i3"}) {
        scene = shown_scene(g);
        scene.nodes.push_back({stale, nullptr, scene.nodes.front().world});
        save = level_save(g, scene);
        REQUIRE_FALSE(save.ok());
        CHECK(save.error().message.find(stale) != std::string::npos);
    }
}

TEST_CASE("a saved glTF read through TinyGLTF: translation, rotation and scale under a parent; outside files and cycles refused") {
    const std::string text = R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0], "extras": {"gcfs_allow_delete": 1}}],
        "nodes": [{"name": "root", "translation": [1, 2, 3], "children": [1]},
                  {"name": "child", "rotation": [0, 0, 0.7071067811865476, 0.7071067811865476], "scale": [2, 2, 2],
                   "translation": [1, 0, 0], "extras": {"kind": "moby", "index": 3}}]})";
    const auto scene = read_saved_scene(ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    REQUIRE_MESSAGE(scene.ok(), scene.error().message);
    REQUIRE(scene->nodes.size() == 2);
    const WorldMatrix& m = scene->nodes[1].world;
    CHECK(scene->nodes[1].parent == 0);
    CHECK(scene->nodes[1].extras["index"] == 3);
    CHECK(scene->extras["gcfs_allow_delete"] == 1);
    // 90 degrees about z, scaled 2: x goes to 2y; at (1, 0, 0) under the parent's (1, 2, 3).
    CHECK(std::abs(m[0]) < 1e-9);
    CHECK(std::abs(m[1] - 2) < 1e-9);
    CHECK(std::abs(m[12] - 2) < 1e-9);
    CHECK(std::abs(m[13] - 2) < 1e-9);
    CHECK(std::abs(m[14] - 3) < 1e-9);
    auto refused = [](const std::string& t) {
        const auto s = read_saved_scene(ByteSpan(reinterpret_cast<const uint8_t*>(t.data()), t.size()));
        REQUIRE_FALSE(s.ok());
        return s.error().message;
    };
    CHECK(refused(R"({"asset": {"version": "2.0"}, "buffers": [{"uri": "/etc/passwd", "byteLength": 4}]})").find("outside file") != std::string::npos);
    CHECK(refused(R"({"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": [{"children": [1]}, {"children": [0]}]})")
              .find("reached twice") != std::string::npos);
    CHECK(refused("glTF\x02\x00\x00\x00garbage").find("not a glTF 2.0 file") != std::string::npos);
    CHECK(refused(R"({"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": [{"translation": [1e400, 0, 0]}]})").size() > 0);
}

}  // namespace test_level_save
