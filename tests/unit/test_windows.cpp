// Issue 43, item 1: a small file costs a small decode. A texture PNG decodes
// the core region its neighbours share (tree/level/texel_regions.h), not the core
// and not a span from the level's tables to its particle banks 25 MB on; a
// class model its level's class window;
// counted in what the loaders produced (cache loaded_bytes) and in what
// window walks decoded only to reach their start (bytes_walked).
#include <doctest/doctest.h>
#include <unistd.h>

#include <string>

#include "disc_fixture.h"
#include "formats/wad_lz/wad_lz.h"
#include "mkdisc/disc_builder.h"
#include "tree/index/restart_points.h"
#include "tree/node/sources.h"
#include "tree/tree_builder.h"

namespace test_windows {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;

namespace {

struct Cost {
    uint64_t loaded = 0, walked = 0;
};

// What reading `path` whole cost: the decoders' output and the walks.
Cost read_cost(const tree::Disc& disc, const std::string& path) {
    const uint64_t loaded = disc.cache->stats().loaded_bytes, walked = tree::window_walk_bytes();
    const tree::NodeRef n_held = node_at(disc, path);
    const tree::Node& n = *n_held;
    formats::Bytes out(n.source->size());
    const tree::ReadOutcome got = n.source->read(0, out);
    REQUIRE_MESSAGE(got.ok(), path, ": ", got.error);
    CHECK(got.bytes == out.size());
    return {disc.cache->stats().loaded_bytes - loaded, tree::window_walk_bytes() - walked};
}

}  // namespace

TEST_CASE("a texture or a class model decodes its own region of the core: not the core, not the span to the particle banks") {
    const std::string path = "/tmp/gcfs-unit-windows-" + std::to_string(::getpid()) + ".iso";
    mkdisc::build_disc({2, 1, mkdisc::Scale::full, {}}, path);
    auto disc = tree::open_disc(path, 512 << 20);  // room for the whole core: the texture must not want it anyway
    const uint64_t core = node_at(*disc, "LEVEL00/core_data.bin")->source->size();
    REQUIRE(core > (20u << 20));
    const tree::LevelScan& level = disc->scan.levels.at(0);
    REQUIRE(level.core.has_value());
    const formats::TextureEntry& first = level.texture_table("tfrag").at(0);
    const uint64_t at = static_cast<uint64_t>(level.core->textures_base_offset) + static_cast<uint64_t>(first.data_offset);
    const uint64_t bank = static_cast<uint64_t>(level.core->part_bank_offset);
    // The builder's layout this test stands on: the tables' texels near the
    // core's head, the particle bank near its end.
    REQUIRE(at < (8u << 20));
    REQUIRE(bank > (20u << 20));

    const Cost tfrag = read_cost(*disc, "LEVEL00/textures/tfrag_000.png");
    // Its region (the level tables' texels, under 1 MB here) and the PNG; the
    // walk from the stream's head to the region (no index: no saved points).
    CHECK(tfrag.loaded < (1u << 20));
    CHECK(tfrag.walked <= at);
    CHECK(tfrag.loaded + tfrag.walked < (4u << 20));  // issue 43's bound for tfrag_000.png

    // Its neighbour shares the decoded region: only its PNG is new.
    const Cost next = read_cost(*disc, "LEVEL00/textures/tfrag_001.png");
    CHECK(next.walked == 0);
    CHECK(next.loaded == node_at(*disc, "LEVEL00/textures/tfrag_001.png")->source->size());

    // A particle texture: its bank, not the 20 MB between the tables and it.
    // With no saved points the walk to the bank is long; what is kept is small.
    const Cost part = read_cost(*disc, "LEVEL00/textures/part_000.png");
    CHECK(part.loaded < (256u << 10));
    CHECK(part.walked <= bank);
    // A particle's animation reads the same bank region (its frames' texels
    // and palettes; the region begins inside the bank, past its first byte).
    const Cost animation = read_cost(*disc, "LEVEL00/particles/000.png");
    CHECK(animation.walked == 0);
    CHECK(animation.loaded == node_at(*disc, "LEVEL00/particles/000.png")->source->size());

    // None of it decoded the core whole.
    CHECK(disc->cache->stats().loaded_bytes < core / 8);

    // A class model: the class window (the core from its first class to its
    // last, 55 KB at full scale) and the level's class index, not the core;
    // its walk starts at a point the walk to the particle bank left (they lie
    // near each other at the core's end): at most the points' spacing and a step.
    const Cost tie = read_cost(*disc, "LEVEL00/ties/tie_500.obj");
    CHECK(tie.loaded < (256u << 10));
    CHECK(tie.walked <= tree::RestartPoints::kSpacing + formats::wad_lz::kWindowStep);
    CHECK(disc->cache->stats().loaded_bytes < core / 8);
    ::unlink(path.c_str());
}

}  // namespace test_windows
