// Sizing level folders ahead of a listing (tree/index/index_ahead.h): which folders
// the helpers take, and on a built disc, that a listing of one level leaves
// the next ones' indexes built.
#include <doctest/doctest.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "disc_fixture.h"
#include "tree/index/index_ahead.h"

namespace test_index_ahead {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;

namespace {

std::vector<uint64_t> sorted(std::vector<uint64_t> v) {
    std::sort(v.begin(), v.end());
    return v;
}

}  // namespace

TEST_CASE("helpers size one folder past a listing of their own, two past one of theirs, each once, and ask for nothing themselves") {
    std::mutex mutex;
    std::vector<uint64_t> calls;
    tree::IndexAhead* self = nullptr;
    tree::IndexAhead ahead({1, 2, 3, 4, 5, 6}, [&](uint64_t folder) {
        self->listed(folder);  // a helper listing what it sizes: ignored, no chain through the disc
        std::lock_guard lock(mutex);
        calls.push_back(folder);
    });
    self = &ahead;

    ahead.listed(1);  // the listing sizes 1 itself: one helper beside it
    ahead.wait_idle();
    CHECK(sorted(ahead.sized()) == std::vector<uint64_t>{2});
    ahead.listed(2);  // a folder the helpers sized: two ahead
    ahead.listed(1);  // asked again: 2 is taken
    ahead.wait_idle();
    CHECK(sorted(ahead.sized()) == std::vector<uint64_t>{2, 3, 4});
    ahead.listed(6);   // the last folder: nothing after it
    ahead.listed(99);  // not a folder of the list
    ahead.wait_idle();
    CHECK(sorted(calls) == std::vector<uint64_t>{2, 3, 4});
}

TEST_CASE("with size_listed, a listed folder no helper took is sized whole too, after the one ahead") {
    std::mutex mutex;
    std::vector<uint64_t> calls;
    tree::IndexAhead ahead({1, 2, 3, 4}, [&](uint64_t folder) {
        std::lock_guard lock(mutex);
        calls.push_back(folder);
    }, true);
    ahead.listed(1);  // one ahead (2), then 1 itself
    ahead.wait_idle();
    CHECK(sorted(ahead.sized()) == std::vector<uint64_t>{1, 2});
    ahead.listed(2);  // taken already: two ahead, nothing of its own
    ahead.wait_idle();
    CHECK(sorted(calls) == std::vector<uint64_t>{1, 2, 3, 4});
}

TEST_CASE("listing a level folder leaves the next levels' sizes computed: a stat of them decodes nothing more") {
    const BuiltDisc& built = small_disc();
    // Without helpers: what sizing level 1, then levels 2 to 4, decodes.
    uint64_t level_1 = 0, levels_2_4 = 0;
    {
        auto plain = tree::open_disc(built.path, 256ull << 20);
        REQUIRE(plain->scan.levels.size() >= 5);
        tree::size_every_file(plain->tree, *plain->tree.resolve(plain->scan.levels[1].folder));
        level_1 = plain->cache->stats().misses;
        for (size_t level : {2, 3, 4}) tree::size_every_file(plain->tree, *plain->tree.resolve(plain->scan.levels[level].folder));
        levels_2_4 = plain->cache->stats().misses - level_1;
    }
    REQUIRE(level_1 > 0);
    REQUIRE(levels_2_4 > 0);

    auto disc = tree::open_disc(built.path, 256ull << 20);
    disc->start_index_ahead();
    auto folder = [&](size_t level) { return *disc->tree.resolve(disc->scan.levels[level].folder); };
    disc->tree.for_each_child(folder(0), 0, [](const std::string&, uint64_t, tree::NodeType) { return true; });
    disc->ahead->wait_idle();
    CHECK(sorted(disc->ahead->sized()) == std::vector<uint64_t>{folder(1)});
    CHECK(disc->cache->stats().misses == level_1);  // a helper decoded what level 1 needs

    // Sizing levels 1 and 2 here: level 1 decodes nothing more; listing
    // them has the helpers size levels 2, 3 and 4, each once.
    for (size_t level : {1, 2}) tree::size_every_file(disc->tree, folder(level));
    disc->ahead->wait_idle();
    CHECK(sorted(disc->ahead->sized()) == sorted({folder(1), folder(2), folder(3), folder(4)}));
    CHECK(disc->cache->stats().misses == level_1 + levels_2_4);
}

}  // namespace test_index_ahead
