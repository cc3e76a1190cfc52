// mobies/, ties/, shrubs/ and the class texture tables through the tree,
// without a mount: every file reads at the size stat gave, the class index is
// built on the first stat inside (never by mounting or by info.json), stashed
// moby textures come from GS RAM, and a damaged class is rejected alone,
// naming its byte in core_data.bin.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "disc_fixture.h"
#include "formats/export/csv_read.h"
#include "formats/moby/moby.h"
#include "formats/shrub/shrub.h"
#include "tree/node/sources.h"
#include "tree/tree_builder.h"

namespace test_class_models {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;

namespace {

// Reads a file whole; its size must be the size stat reports.
tree::ReadOutcome read_whole(const tree::Disc& disc, const std::string& path, formats::Bytes& out) {
    const tree::NodeRef n_held = node_at(disc, path);
    const tree::Node& n = *n_held;
    out.assign(n.source->size(), 0);
    return n.source->read(0, out);
}

std::vector<std::string> children(const tree::Disc& disc, const std::string& dir) {
    std::vector<std::string> names;
    disc.tree.for_each_child(node_at(disc, dir)->ino, 0, [&](const std::string& name, uint64_t, tree::NodeType) {
        names.push_back(name);
        return true;
    });
    return names;
}

nlohmann::json info(const tree::Disc& disc, const std::string& level) {
    formats::Bytes bytes;
    REQUIRE(read_whole(disc, level + "/info.json", bytes).ok());
    return nlohmann::json::parse(bytes.begin(), bytes.end());
}


}  // namespace

TEST_CASE("ties/ and shrubs/ list every class, index on first stat, and read at their listed sizes") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    CHECK(children(*disc, "LEVEL02/ties") ==
          std::vector<std::string>{"lod1", "lod2", "tie_500.obj", "tie_501.obj", "tie_502.obj", "ties.csv", "ties.mtl"});
    CHECK(children(*disc, "LEVEL02/shrubs") == std::vector<std::string>{"shrub_700.obj", "shrub_700_billboard.png", "shrub_701.obj",
                                                                        "shrub_701_billboard.png", "shrubs.csv", "shrubs.mtl"});
    CHECK(disc->cache->stats().misses == 0);  // listing names decodes nothing
    const nlohmann::json ties = info(*disc, "LEVEL02")["ties"];  // extents from the table alone
    REQUIRE(ties["classes"].size() == 3);
    CHECK(ties["classes"][0]["name"] == "tie class 500");
    CHECK(ties["status"] == "ties/ties.csv");

    const uint64_t misses_before = disc->cache->stats().misses;  // info.json decoded the core head and gameplay
    for (const std::string folder : {"LEVEL02/ties", "LEVEL02/ties/lod1", "LEVEL02/ties/lod2", "LEVEL02/shrubs"})
        for (const std::string& file : children(*disc, folder)) {
            if (file.starts_with("lod")) continue;
            const std::string path = folder + "/" + file;
            formats::Bytes bytes;
            const auto outcome = read_whole(*disc, path, bytes);
            CHECK_MESSAGE(outcome.ok(), (path + ": " + outcome.error));
            CHECK_MESSAGE(outcome.bytes == bytes.size(), path);
        }
    // One prefix decode of the core serves both folders' classes.
    CHECK(disc->cache->stats().misses - misses_before == 1 + 3 * 3 + 2 + 2);  // the class window, 9 tie OBJs, 2 shrub OBJs, 2 billboards
}

TEST_CASE("textures/ holds every texture table of the core, particle and fx ones included, at its listed sizes") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    size_t tie = 0, shrub = 0, moby = 0, part = 0, fx = 0;
    for (const std::string& name : children(*disc, "LEVEL00/textures")) {
        tie += name.starts_with("tie_"), shrub += name.starts_with("shrub_"), moby += name.starts_with("moby_");
        part += name.starts_with("part_"), fx += name.starts_with("fx_");
        formats::Bytes bytes;
        const std::string path = "LEVEL00/textures/" + name;
        const auto outcome = read_whole(*disc, path, bytes);
        CHECK_MESSAGE(outcome.ok(), (path + ": " + outcome.error));
        CHECK(bytes.size() > 8);
        CHECK(std::string(bytes.begin() + 1, bytes.begin() + 4) == "PNG");
    }
    CHECK(tie == 6);
    CHECK(shrub == 3);
    CHECK(moby == 5);
    CHECK(part == 8);  // particle (the builder's eight frames) and fx textures, from their banks in the core
    CHECK(fx == 2);
    // formats-moby.md §10.2: the pyramids are on the stash list, so their row's texels come from gs_ram.
    const tree::LevelScan& level = disc->scan.levels.at(0);
    CHECK(level.stashed_moby_rows == std::set<size_t>{4});
    REQUIRE(level.moby_stash_address.has_value());
    CHECK(node_at(*disc, "LEVEL00/textures/moby_004.png")->provenance->detail.find("stashed: gs_ram.bin") != std::string::npos);
}

TEST_CASE("a full-scale disc names the stashed row from stashed classes only, model-less ones too") {
    // formats-moby.md §10.2: a class on the stash list reads its rows from the stash, one off it from
    // the core; a row both kinds name would have its texels in two places.
    const std::string path = "/tmp/gcfs-unit-full-stash-" + std::to_string(::getpid()) + ".iso";
    mkdisc::build_disc({2, 1, mkdisc::Scale::full, {}}, path);
    auto disc = tree::open_disc(path, 64 << 20);
    for (size_t l = 0; l < 2; ++l) {
        CAPTURE(l);
        children(*disc, fmt::format("LEVEL{:02d}", l));  // scans the level
        const tree::LevelScan& level = disc->scan.levels.at(l);
        REQUIRE_FALSE(level.stashed_moby_rows.empty());
        int modelless_stashed = 0;
        for (const auto& entry : level.classes[0]) {
            const bool names_stashed_row = std::any_of(entry.textures.begin(), entry.textures.end(),
                                                       [&](uint8_t row) { return level.stashed_moby_rows.contains(row); });
            CHECK_MESSAGE(names_stashed_row == level.stashed_moby_classes.contains(entry.o_class), entry.o_class);
            modelless_stashed += names_stashed_row && entry.offset_in_asset_wad == 0;
        }
        CHECK(modelless_stashed > 0);
        const auto stash = std::find_if(level.checks.begin(), level.checks.end(), [](const auto& c) { return c.name == "moby stash"; });
        REQUIRE(stash != level.checks.end());
        CHECK_MESSAGE(stash->ok, stash->detail);
    }
    ::unlink(path.c_str());
}

TEST_CASE("a class naming the stashed row off the stash list fails the level's stash check, named") {
    const DamagedDisc damaged({{mkdisc::Damage::stash_row_unlisted, 1}}, 7);
    auto disc = tree::open_disc(damaged.path, 64 << 20);
    children(*disc, "LEVEL01");
    const tree::LevelScan& level = disc->scan.levels.at(1);
    const auto stash = std::find_if(level.checks.begin(), level.checks.end(), [](const auto& c) { return c.name == "moby stash"; });
    REQUIRE(stash != level.checks.end());
    CHECK_FALSE(stash->ok);
    CHECK_MESSAGE(stash->detail.find("moby class 100 is not stashed but names row 4") != std::string::npos, stash->detail);
}

TEST_CASE("a damaged tie class and a damaged shrub class are rejected alone, naming their bytes") {
    const DamagedDisc damaged({{mkdisc::Damage::tie_strip_slot, 1}, {mkdisc::Damage::shrub_packet_size, 1}}, 7);
    auto disc = tree::open_disc(damaged.path, 64 << 20);
    formats::Bytes bytes;
    const auto tie = read_whole(*disc, "LEVEL01/ties/tie_500.obj", bytes);
    CHECK_FALSE(tie.ok());
    CHECK_MESSAGE(tie.error.find("tie class 500 at core_data.bin 0x") == 0, tie.error);
    CHECK_MESSAGE(tie.error.find("nothing is placed at slot 6") != std::string::npos, tie.error);
    // Rejected whole: its lower LODs are not listed, as their triangles are not known.
    CHECK_FALSE(disc->tree.resolve("LEVEL01/ties/lod2/tie_500.obj"));
    CHECK(children(*disc, "LEVEL01/ties/lod1") == std::vector<std::string>{"tie_501.obj", "tie_502.obj"});
    const auto shrub = read_whole(*disc, "LEVEL01/shrubs/shrub_700.obj", bytes);
    CHECK_MESSAGE(shrub.error.find("runs past the class") != std::string::npos, shrub.error);
    for (const char* fine : {"LEVEL01/ties/tie_501.obj", "LEVEL01/ties/lod1/tie_502.obj", "LEVEL01/shrubs/shrub_701.obj",
                             "LEVEL01/shrubs/shrub_700_billboard.png", "LEVEL01/ties/ties.csv", "LEVEL00/ties/tie_500.obj"}) {
        const auto outcome = read_whole(*disc, fine, bytes);
        CHECK_MESSAGE(outcome.ok(), (std::string(fine) + ": " + outcome.error));
    }
    REQUIRE(read_whole(*disc, "LEVEL01/ties/ties.csv", bytes).ok());
    const std::string csv(bytes.begin(), bytes.end());
    CHECK(csv.find("\n500,") != std::string::npos);
    CHECK(csv.find(",rejected,") != std::string::npos);
    // info.json names the class's extent; the mount adds the failed read to its
    // read_errors (tests/mount/corpus.sh), as for any damaged file.
    CHECK(info(*disc, "LEVEL01")["ties"]["classes"][0]["name"] == "tie class 500");
}

TEST_CASE("mobies/ lists every class with a model, its low LOD, the skeletons and the rigged .glb files, each at its listed size") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    // Class 288 has no model (offset 0, formats-moby.md 1.1): no file. The crate, the worms and
    // the pickup have joints; the pyramid has none. Every class with a model has its .glb;
    // class 296 (a second worm) has an id past 255.
    CHECK(children(*disc, "LEVEL02/mobies") ==
          std::vector<std::string>{"low", "mobies.csv", "mobies.mtl", "moby_100.obj", "moby_101.obj", "moby_102.obj", "moby_103.obj",
                                   "moby_296.obj", "moby_100.skeleton.json", "moby_100.glb", "moby_101.skeleton.json", "moby_101.glb",
                                   "moby_102.glb", "moby_103.skeleton.json", "moby_103.glb", "moby_296.skeleton.json", "moby_296.glb"});
    // Only the pickup has a low LOD (its low_triangles); low/ lists no empty OBJ, and its rigged .glb.
    CHECK(children(*disc, "LEVEL02/mobies/low") == std::vector<std::string>{"moby_103.obj", "moby_103.glb"});
    for (const std::string folder : {"LEVEL02/mobies", "LEVEL02/mobies/low"})
        for (const std::string& file : children(*disc, folder)) {
            if (file == "low") continue;
            const std::string path = folder + "/" + file;
            formats::Bytes bytes;
            const auto outcome = read_whole(*disc, path, bytes);
            CHECK_MESSAGE(outcome.ok(), (path + ": " + outcome.error));
        }
    formats::Bytes skeleton;
    REQUIRE(read_whole(*disc, "LEVEL02/mobies/moby_101.skeleton.json", skeleton).ok());
    const auto joints = nlohmann::json::parse(skeleton.begin(), skeleton.end())["joints"];
    REQUIRE(joints.size() == 4);
    CHECK(joints[2]["parent"] == 1);
    CHECK(joints[3]["parent"] == 2);
}

// The JSON chunk of a .glb (glTF 2.0 §4.4.3.1: it follows the 12-byte header and its 8-byte chunk header).
nlohmann::json glb_json(const formats::Bytes& glb) {
    REQUIRE(glb.size() > 20);
    const uint32_t length = glb[12] | glb[13] << 8 | glb[14] << 16 | static_cast<uint32_t>(glb[15]) << 24;
    REQUIRE(20 + uint64_t{length} <= glb.size());
    return nlohmann::json::parse(glb.begin() + 20, glb.begin() + 20 + length);
}

TEST_CASE("a moby .glb travels alone and is one armature: its PNGs embedded, the main mesh and its bangle on one skin") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    // The crate (class 100): a lid bangle on its high LOD; the pickup (103): both LODs.
    for (const char* path : {"LEVEL02/mobies/moby_100.glb", "LEVEL02/mobies/moby_103.glb", "LEVEL02/mobies/low/moby_103.glb"}) {
        CAPTURE(path);
        formats::Bytes glb;
        REQUIRE(read_whole(*disc, path, glb).ok());
        const nlohmann::json doc = glb_json(glb);
        REQUIRE(doc.contains("images"));
        for (const auto& image : doc["images"]) {
            CHECK_FALSE(image.contains("uri"));
            CHECK(image.contains("bufferView"));
        }
        for (const auto& buffer : doc["buffers"]) CHECK_FALSE(buffer.contains("uri"));
        REQUIRE(doc["skins"].size() == 1);
        size_t skinned = 0;
        for (const auto& node : doc["nodes"]) {
            if (!node.contains("mesh")) continue;
            CHECK(node.value("skin", -1) == 0);
            ++skinned;
        }
        CHECK(skinned == doc["meshes"].size());
        if (std::string(path) == "LEVEL02/mobies/moby_100.glb") CHECK(skinned == 2);  // the crate and its lid
        if (std::string(path).find("/low/") != std::string::npos) CHECK(doc["scenes"][0]["extras"]["source"].get<std::string>().find("low LOD") != std::string::npos);
    }
    // The embedded PNG is the one textures/ shows, byte for byte.
    formats::Bytes glb, png;
    REQUIRE(read_whole(*disc, "LEVEL02/mobies/moby_100.glb", glb).ok());
    const nlohmann::json doc = glb_json(glb);
    const auto& image = doc["images"][0];
    REQUIRE(read_whole(*disc, "LEVEL02/textures/" + image["name"].get<std::string>(), png).ok());
    const auto& view = doc["bufferViews"][image["bufferView"].get<size_t>()];
    CHECK(view["byteLength"].get<size_t>() == png.size());
    const uint32_t json_length = glb[12] | glb[13] << 8 | glb[14] << 16 | static_cast<uint32_t>(glb[15]) << 24;
    const size_t at = 20 + json_length + 8 + view.value("byteOffset", size_t{0});
    REQUIRE(at + png.size() <= glb.size());
    CHECK(std::equal(png.begin(), png.end(), glb.begin() + static_cast<std::ptrdiff_t>(at)));
}

// A CSV's rows as column name -> cell.
std::vector<std::map<std::string, std::string>> csv_records(const std::string& text) {
    const auto rows = formats::csv::parse(text);
    REQUIRE(rows.ok());
    std::vector<std::map<std::string, std::string>> out;
    for (size_t r = 1; r < rows->size(); ++r) {
        std::map<std::string, std::string> record;
        for (size_t c = 0; c < (*rows)[0].cells.size() && c < (*rows)[r].cells.size(); ++c) record[(*rows)[0].cells[c]] = (*rows)[r].cells[c];
        out.push_back(std::move(record));
    }
    return out;
}

TEST_CASE("each count column has one rule: a moby's main mesh apart from its bangles, a shrub's strips apart from its lists") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    formats::Bytes core, text;
    REQUIRE(read_whole(*disc, "LEVEL02/core_data.bin", core).ok());
    auto class_bytes = [&](const std::map<std::string, std::string>& row) {
        const uint64_t at = std::stoull(row.at("core_offset"), nullptr, 16), size = std::stoull(row.at("extent"));
        REQUIRE(at + size <= core.size());
        return formats::ByteSpan(core).subspan(at, size);
    };
    // The rows of a class table that decoded.
    auto ok_rows = [&](const std::string& path) {
        REQUIRE(read_whole(*disc, path, text).ok());
        auto rows = csv_records(std::string(text.begin(), text.end()));
        std::erase_if(rows, [](const auto& row) { return row.at("status") != "ok"; });
        return rows;
    };
    size_t bangled = 0;
    for (const auto& row : ok_rows("LEVEL02/mobies/mobies.csv")) {
        CAPTURE(row.at("class"));
        const auto cls = formats::moby::read_moby_class(class_bytes(row));
        REQUIRE(cls.ok());
        for (auto [lod, main] : {std::pair{"high_", &cls->high}, std::pair{"low_", &cls->low}}) {
            const std::string p = lod;
            CHECK(row.at(p + "packets") == std::to_string(main->packets));
            CHECK(row.at(p + "strips") == std::to_string(main->strips));
            CHECK(row.at(p + "triangles") == std::to_string(main->triangles.size()));
            int packets = 0, strips = 0;
            size_t triangles = 0;
            for (const auto& bangle : cls->bangles) {
                const formats::moby::Lod& l = p == "high_" ? bangle.high : bangle.low;
                packets += l.packets, strips += l.strips, triangles += l.triangles.size();
            }
            CHECK(row.at(p + "bangle_packets") == std::to_string(packets));
            CHECK(row.at(p + "bangle_strips") == std::to_string(strips));
            CHECK(row.at(p + "bangle_triangles") == std::to_string(triangles));
            bangled += triangles > 0;
        }
    }
    CHECK(bangled >= 2);  // the crate's lid and the pickup's bangles
    size_t with_lists = 0;
    for (const auto& row : ok_rows("LEVEL02/shrubs/shrubs.csv")) {
        CAPTURE(row.at("class"));
        const auto cls = formats::shrub::read_shrub_class(class_bytes(row));
        REQUIRE(cls.ok());
        int strips = 0, lists = 0;
        for (const auto& primitive : cls->primitives) (primitive.strip ? strips : lists)++;
        CHECK(row.at("strips") == std::to_string(strips));
        CHECK(row.at("lists") == std::to_string(lists));
        with_lists += lists > 0;
    }
    CHECK(with_lists >= 1);  // the builder's bush draws one primitive as a list (formats-shrub.md 1.5)
}

TEST_CASE("a damaged moby class is rejected alone, naming its byte") {
    const DamagedDisc damaged({{mkdisc::Damage::moby_cache_index, 1}}, 7);
    auto disc = tree::open_disc(damaged.path, 64 << 20);
    formats::Bytes bytes;
    const auto bad = read_whole(*disc, "LEVEL01/mobies/moby_100.obj", bytes);
    CHECK_MESSAGE(bad.error.find("moby class 100 at core_data.bin 0x") == 0, bad.error);
    CHECK_MESSAGE(bad.error.find("names vertex 126 of 24") != std::string::npos, bad.error);
    for (const char* fine : {"LEVEL01/mobies/moby_101.obj", "LEVEL01/mobies/low/moby_103.obj", "LEVEL01/mobies/mobies.csv"}) {
        const auto outcome = read_whole(*disc, fine, bytes);
        CHECK_MESSAGE(outcome.ok(), (std::string(fine) + ": " + outcome.error));
    }
}

}  // namespace test_class_models
