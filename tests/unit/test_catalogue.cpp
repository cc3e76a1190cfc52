// The catalogue (tree/catalogue.h) describes the mount name for name: every
// path of a built disc's tree fits an entry, every entry but the ones that
// need damage or a rare disc is met, README.txt carries the list, and each
// file's user.gcfs.what is its entry.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <set>

#include "disc_fixture.h"
#include "tree/catalogue.h"
#include "tree/tree_builder.h"
#include "tree/node/xattrs.h"

namespace test_catalogue {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;

namespace {

// Every path of the tree, folders with a trailing '/', every level folder built.
std::vector<std::string> every_path(const tree::Disc& disc) {
    std::vector<std::string> out;
    std::function<void(uint64_t, const std::string&)> walk = [&](uint64_t dir, const std::string& prefix) {
        disc.tree.for_each_child(dir, 0, [&](const std::string& name, uint64_t ino, tree::NodeType type) {
            if (type == tree::NodeType::directory) {
                out.push_back(prefix + name + "/");
                walk(ino, prefix + name + "/");
            } else {
                out.push_back(prefix + name);
            }
            return true;
        });
    };
    walk(tree::Tree::kRootIno, "");
    return out;
}

}  // namespace

TEST_CASE("catalogue patterns: digits, one step, any steps, and the ~N a second claimant gets") {
    CHECK(tree::matches("LEVEL<nn>/tfrag/patch_<NNNN>.obj", "LEVEL03/tfrag/patch_0012.obj"));
    CHECK_FALSE(tree::matches("LEVEL<nn>/tfrag/patch_<NNNN>.obj", "LEVEL03/tfrag/patch_00x2.obj"));
    CHECK_FALSE(tree::matches("LEVEL<nn>/tfrag/patch_<NNNN>.obj", "LEVEL03/tfrag/lod1/patch_0012.obj"));
    CHECK(tree::matches("LEVEL<nn>/ties/tie_<class>.obj", "LEVEL00/ties/tie_-3.obj"));
    CHECK_FALSE(tree::matches("LEVEL<nn>/ties/tie_<class>.obj", "LEVEL00/ties/lod1/tie_3.obj"));
    CHECK(tree::matches("disc/<path>", "disc/LEVELS/LEVEL00.WAD"));
    CHECK(tree::matches("disc/<path>", "disc/LEVELS/"));
    CHECK(tree::matches("LEVEL<nn>/ties/tie_<class>.obj", "LEVEL00/ties/tie_500.obj~2"));
    CHECK(tree::matches("LEVEL<nn>/", "LEVEL00~2/"));
    CHECK_FALSE(tree::matches("LEVEL<nn>/", "LEVEL00~/"));
    CHECK_FALSE(tree::matches("LEVEL<nn>/info.json", "LEVEL00/info.json~x"));
    CHECK(tree::describe("LEVEL00/hud_bank_2.bin")->pattern == "LEVEL<nn>/hud_bank_<N>.bin");
    CHECK(tree::describe("nonsense") == nullptr);
}

TEST_CASE("every name of a built disc fits the catalogue, and every entry but the conditional ones is met") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    std::map<std::string_view, size_t> met;
    const auto paths = every_path(*disc);
    CHECK(paths.size() > 1000);
    for (const std::string& path : paths) {
        const tree::CatalogueEntry* entry = tree::describe(path);
        CHECK_MESSAGE(entry, (path + " is not in the catalogue"));
        if (entry) ++met[entry->pattern];
    }
    for (const tree::CatalogueEntry& e : tree::catalogue())
        if (e.only_when.empty()) CHECK_MESSAGE(met.count(e.pattern), (std::string(e.pattern) + " describes no name of the built disc"));
    // Patterns are unique, and each describes something.
    std::set<std::string_view> seen;
    for (const tree::CatalogueEntry& e : tree::catalogue()) {
        CHECK_MESSAGE(seen.insert(e.pattern).second, e.pattern);
        CHECK(!e.what.empty());
    }
}

TEST_CASE("damage changes no name outside the catalogue: unreadable extents, sounds, pictures, executables, classes") {
    using mkdisc::Damage;
    for (const Damage kind : {Damage::extents_in_bytes, Damage::core_lookback, Damage::moby_cache_index, Damage::vag_size,
                              Damage::pif_magic, Damage::exe_block}) {
        const DamagedDisc damaged({{kind, 1}}, 7);
        auto disc = tree::open_disc(damaged.path, 64 << 20);
        for (const std::string& path : every_path(*disc)) CHECK_MESSAGE(tree::describe(path), (path + " is not in the catalogue"));
    }
}

TEST_CASE("README.txt carries the catalogue, and user.gcfs.what gives a file its line") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    const std::string readme = file_text(*disc, "README.txt");
    CHECK(readme.find(tree::catalogue_text()) != std::string::npos);
    for (const tree::CatalogueEntry& e : tree::catalogue()) CHECK_MESSAGE(readme.find(e.pattern) != std::string::npos, e.pattern);
    const auto what = tree::xattr_value(*disc, *node_at(*disc, "LEVEL01/tfrag/lod2/patch_0003.obj"), "user.gcfs.what");
    REQUIRE(what);
    CHECK(*what == "LEVEL<nn>/tfrag/lod<N>/patch_<NNNN>.obj: one patch at that LOD");
}

}  // namespace test_catalogue
