// The premise of edit/texel_checks.h: no check an edit is held to reads a
// level's texels or palettes, so an edit that changed only those is checked
// by the new core's decode, the new scan and the base level's decoder checks
// carried, and that gives what every decoder's index would.
#include <doctest/doctest.h>

#include <map>
#include <memory>

#include "cache/lru_cache.h"
#include "disc_fixture.h"
#include "edit/edited_disc.h"
#include "edit/level_parts.h"
#include "edit/texel_checks.h"
#include "tree/verify.h"

using namespace gcfs;
using formats::Bytes;

namespace {

// The level's core_data with every byte of its textures region flipped, and its gs_ram with every byte flipped.
void flip_texels(edit::LevelParts& parts, const formats::CoreRegion& textures) {
    Bytes core = *parts.content("core_data"), gs_ram = *parts.content("gs_ram");
    REQUIRE(textures.offset + textures.size <= core.size());
    for (uint64_t i = textures.offset; i < textures.offset + textures.size; ++i) core[i] ^= 0xA5;
    for (auto& b : gs_ram) b ^= 0x5A;
    parts.replace("core_data", std::move(core));
    parts.replace("gs_ram", std::move(gs_ram));
}

std::map<std::string, std::string> failing(const std::vector<tree::Check>& checks) {
    std::map<std::string, std::string> out;
    for (const auto& c : checks)
        if (!c.ok) out.emplace(c.name, c.detail);
    return out;
}

}  // namespace

TEST_CASE("every check an edit is held to reads as before when all texels and palettes change") {
    const auto disc = tree::open_disc(small_disc().path, 64 << 20);
    size_t levels_tried = 0;
    for (size_t i = 0; i < disc->scan.levels.size(); ++i) {
        const formats::CoreRegion* textures = disc->level(i).region("textures");
        if (!textures || textures->size == 0) continue;
        CAPTURE(disc->level(i).folder);
        edit::LevelParts parts(level_container(*disc, i));
        flip_texels(parts, *textures);
        CHECK(parts.only_texels_differ(*textures));
        const auto rebuilt = parts.rebuild();
        REQUIRE_MESSAGE(rebuilt.ok(), (rebuilt.ok() ? "" : rebuilt.error().describe()));
        const auto next = edit::open_edited_disc(small_disc().path, *disc, {{edit::ContainerKey{edit::ContainerKey::level, i}, *rebuilt}},
                                                 std::make_shared<cache::LruCache>(64 << 20), [] { return std::string(); });
        tree::LevelVerdict before, after;
        tree::decoder_checks(*disc, i, tree::LevelDepth::indexes, before);
        tree::decoder_checks(*next, i, tree::LevelDepth::indexes, after);
        REQUIRE(before.checks.size() == after.checks.size());
        REQUIRE(before.checks.size() > 3);  // the decoders made their checks
        for (size_t c = 0; c < before.checks.size(); ++c) {
            CAPTURE(before.checks[c].name);
            CHECK(after.checks[c].name == before.checks[c].name);
            CHECK(after.checks[c].ok == before.checks[c].ok);
            CHECK(after.checks[c].detail == before.checks[c].detail);
        }
        // The short way gives what the long way does.
        Bytes scratch;
        CHECK(edit::texel_edit_failing_checks(before.checks, *next, i, *rebuilt, *parts.view("core_data"), scratch) ==
              edit::failing_checks(*next, i));
        ++levels_tried;
    }
    CHECK(levels_tried >= 2);
}

TEST_CASE("a change outside the texels and palettes is no texel-only edit") {
    const auto disc = tree::open_disc(small_disc().path, 64 << 20);
    const formats::CoreRegion* textures = disc->level(0).region("textures");
    REQUIRE(textures);
    REQUIRE(textures->offset > 0);
    const Bytes container = level_container(*disc, 0);
    SUBCASE("a core byte just before the textures region") {
        edit::LevelParts parts(container);
        Bytes core = *parts.content("core_data");
        core[textures->offset - 1] ^= 1;
        parts.replace("core_data", core);
        CHECK_FALSE(parts.only_texels_differ(*textures));
    }
    SUBCASE("a core byte just past it") {
        edit::LevelParts parts(container);
        Bytes core = *parts.content("core_data");
        REQUIRE(textures->offset + textures->size < core.size());
        core[textures->offset + textures->size] ^= 1;
        parts.replace("core_data", core);
        CHECK_FALSE(parts.only_texels_differ(*textures));
    }
    SUBCASE("a core of another size") {
        edit::LevelParts parts(container);
        Bytes core = *parts.content("core_data");
        core.push_back(0);
        parts.replace("core_data", core);
        CHECK_FALSE(parts.only_texels_differ(*textures));
    }
    SUBCASE("another part") {
        edit::LevelParts parts(container);
        Bytes gameplay = *parts.content("gameplay");
        gameplay.back() ^= 1;
        parts.replace("gameplay", gameplay);
        CHECK_FALSE(parts.only_texels_differ(*textures));
    }
    SUBCASE("a part replaced by its own bytes, beside texels") {
        edit::LevelParts parts(container);
        parts.replace("gameplay", *parts.content("gameplay"));
        flip_texels(parts, *textures);
        CHECK(parts.only_texels_differ(*textures));
    }
}

TEST_CASE("a written core that does not decode to what the edits made fails its check") {
    const auto disc = tree::open_disc(small_disc().path, 64 << 20);
    const formats::CoreRegion* textures = disc->level(0).region("textures");
    REQUIRE(textures);
    edit::LevelParts parts(level_container(*disc, 0));
    flip_texels(parts, *textures);
    const auto rebuilt = parts.rebuild();
    REQUIRE(rebuilt.ok());
    const auto next = edit::open_edited_disc(small_disc().path, *disc, {{edit::ContainerKey{edit::ContainerKey::level, 0}, *rebuilt}},
                                             std::make_shared<cache::LruCache>(64 << 20), [] { return std::string(); });
    tree::LevelVerdict before;
    tree::decoder_checks(*disc, 0, tree::LevelDepth::indexes, before);
    Bytes other = Bytes(parts.view("core_data")->begin(), parts.view("core_data")->end());
    other[textures->offset] ^= 1;
    Bytes scratch;
    const auto failed = edit::texel_edit_failing_checks(before.checks, *next, 0, *rebuilt, other, scratch);
    CHECK(failed.count(tree::kCoreDecodesCheck) == 1);
    CHECK(failing(before.checks).count(tree::kCoreDecodesCheck) == 0);
}
