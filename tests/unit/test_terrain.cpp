// The tfrag/ folder and gcfs verify without a mount: lazy decoding of the
// tfrag region only, exact sizes, rejected patches, whole-disc verdicts.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <sstream>

#include "disc_fixture.h"
#include "formats/tfrag/tfrag_read.h"
#include "tree/tree_builder.h"
#include "tree/verify.h"

namespace test_terrain {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;

namespace {

size_t count_lines(const std::string& text, const std::string& prefix) {
    size_t n = 0;
    for (size_t at = 0; at < text.size();) {
        const size_t end = text.find('\n', at);
        if (text.compare(at, prefix.size(), prefix) == 0) ++n;
        at = end == std::string::npos ? text.size() : end + 1;
    }
    return n;
}

// Every face line is "f" and three "v/vt" tokens: readers split on whitespace,
// so padding inside a token would turn a triangle into a polygon.
bool faces_are_three_tokens(const std::string& obj) {
    std::istringstream lines(obj);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("f ", 0) != 0) continue;
        std::istringstream tokens(line.substr(2));
        int count = 0;
        for (std::string token; tokens >> token; ++count)
            if (token.find('/') == std::string::npos || token.front() == '/' || token.back() == '/') return false;
        if (count != 3) return false;
    }
    return true;
}


}  // namespace

TEST_CASE("tfrag/ lists each patch at three LODs and decodes only the tfrag region, on first stat") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    const int patches = built.levels.at(1).patch_count;
    for (const char* dir : {"LEVEL01/tfrag", "LEVEL01/tfrag/lod1", "LEVEL01/tfrag/lod2"}) {
        size_t objs = 0;
        disc->tree.for_each_child(node_at(*disc, dir)->ino, 0, [&](const std::string& name, uint64_t, tree::NodeType) {
            objs += name.rfind("patch_", 0) == 0;
            return true;
        });
        CHECK(objs == static_cast<size_t>(patches));
    }
    CHECK(disc->cache->stats().misses == 0);  // mount decoded only the 16-byte tfrags header

    const uint64_t size = node_at(*disc, "LEVEL01/tfrag/patch_0003.obj")->source->size();
    CHECK(size > 0);
    const auto stats = disc->cache->stats();
    CHECK(stats.misses == 1);
    const auto& region = disc->scan.levels[1].regions.front();
    REQUIRE(region.name == "tfrag");
    CHECK(stats.loaded_bytes == region.size);  // the head of the core, not all of it
    CHECK(region.size < built.levels.at(1).core_data.size() / 2);

    // The region decoded from the stream's head equals the builder's core there.
    const auto block = disc->decoders.at("LEVEL01").terrain->block();
    REQUIRE(block.bytes);
    CHECK(std::equal(block.bytes->begin(), block.bytes->end(), built.levels.at(1).core_data.begin()));
}

TEST_CASE("OBJ and CSV texts have the sizes stat reports and the counts the index holds") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    disc->tree.build_all();
    const auto& index = disc->decoders.at("LEVEL02").terrain->index();
    REQUIRE(index.error.empty());
    const std::string terrain = file_text(*disc, "LEVEL02/tfrag/terrain.obj");
    CHECK(count_lines(terrain, "v ") == index.summary.lod0_vertices());
    CHECK(count_lines(terrain, "f ") == index.summary.lod0_triangles());
    CHECK(count_lines(terrain, "g patch_") == index.summary.patches.size());
    for (const auto& p : index.summary.patches) {
        REQUIRE(p.ok);
        CHECK(p.vertices[0] == p.vert_count);
        CHECK(p.triangles[0] == p.tri_count);
        for (int lod = 0; lod < 3; ++lod) {
            const std::string prefix = lod == 0 ? "LEVEL02/tfrag/" : "LEVEL02/tfrag/lod" + std::to_string(lod) + "/";
            const std::string obj = file_text(*disc, prefix + formats::tfrag_patch_name(p.index) + ".obj");
            CHECK(count_lines(obj, "v ") == p.vertices[lod]);
            CHECK(count_lines(obj, "vt ") == p.uvs[lod]);
            CHECK(count_lines(obj, "f ") == p.triangles[lod]);
            CHECK(obj.find(lod == 0 ? "\nmtllib terrain.mtl\n" : "\nmtllib ../terrain.mtl\n") != std::string::npos);
            CHECK(faces_are_three_tokens(obj));
        }
        CHECK(p.vertices[2] <= p.vertices[1]);
        CHECK(p.vertices[1] <= p.vertices[0]);
    }
    const std::string csv = file_text(*disc, "LEVEL02/tfrag/patches.csv");
    CHECK(count_lines(csv, "") == index.summary.patches.size() + 1);
}

TEST_CASE("gcfs verify: every invariant holds on a built disc, totals add up") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    const tree::DiscVerdict verdict = tree::verify_disc(*disc);
    CHECK(verdict.ok());
    REQUIRE(verdict.levels.size() == built.levels.size());
    uint64_t patches = 0;
    for (const auto& level : verdict.levels) {
        for (const auto& c : level.checks) CHECK_MESSAGE(c.ok, level.folder, ": ", c.name, ": ", c.detail);
        patches += level.patches;
    }
    uint64_t built_patches = 0;
    for (const auto& [index, level] : built.levels) built_patches += static_cast<uint64_t>(level.patch_count);
    CHECK(patches == built_patches);
    CHECK(tree::render_verdict(verdict).find("zero mismatches") != std::string::npos);
}

TEST_CASE("a damaged patch is rejected alone: open error for it, verify fails naming it, the rest reads") {
    const DamagedDisc damaged({{mkdisc::Damage::tfrag_count, 2}}, 9);
    auto disc = tree::open_disc(damaged.path, 64 << 20);
    const tree::NodeRef bad_held = node_at(*disc, "LEVEL02/tfrag/patch_0001.obj");
    const tree::Node& bad = *bad_held;
    CHECK(bad.source->open_error().find("vert_count") != std::string::npos);
    CHECK(node_at(*disc, "LEVEL02/tfrag/lod2/patch_0001.obj")->source->open_error() != "");
    CHECK(node_at(*disc, "LEVEL02/tfrag/patch_0000.obj")->source->open_error() == "");
    file_text(*disc, "LEVEL02/tfrag/patch_0000.obj");
    file_text(*disc, "LEVEL02/tfrag/terrain.obj");
    CHECK(node_at(*disc, "LEVEL01/tfrag/patch_0001.obj")->source->open_error() == "");  // other levels untouched

    const tree::DiscVerdict verdict = tree::verify_disc(*disc);
    CHECK_FALSE(verdict.ok());
    for (const auto& level : verdict.levels) CHECK(level.ok() == (level.folder != "LEVEL02"));
    CHECK(verdict.levels[2].rejected == 1);
    const std::string table = tree::render_verdict(verdict);
    CHECK(table.find("FAILED LEVEL02: tfrag patch counts: 1 of") != std::string::npos);
    CHECK(table.find("FAILED LEVEL02: every file reads: 3 of") != std::string::npos);  // patch_0001.obj at each of its three LODs
    CHECK(table.find("2 failed checks\n") != std::string::npos);
}

TEST_CASE("a patch read before the level's index has the size and text it has after it, and indexes nothing else") {
    const BuiltDisc& built = small_disc();
    auto alone = tree::open_disc(built.path, 64 << 20);
    auto indexed = tree::open_disc(built.path, 64 << 20);
    file_text(*indexed, "LEVEL01/tfrag/patches.csv");  // builds the full index first
    const std::string lone = file_text(*alone, "LEVEL01/tfrag/lod1/patch_0003.obj");
    CHECK(alone->cache->stats().misses == 2);  // the tfrag region, then the rendered OBJ: no index pass over the rest
    CHECK(lone == file_text(*indexed, "LEVEL01/tfrag/lod1/patch_0003.obj"));
    const auto patches = static_cast<uint64_t>(built.levels.at(1).patch_count);
    REQUIRE(patches > 3);
    for (uint64_t i = 0; i < patches; ++i)
        for (const char* lod : {"", "lod1/", "lod2/"}) {
            const std::string path = fmt::format("LEVEL01/tfrag/{}patch_{:04d}.obj", lod, i);
            CHECK_MESSAGE(file_text(*alone, path) == file_text(*indexed, path), path);
        }
}

}  // namespace test_terrain
