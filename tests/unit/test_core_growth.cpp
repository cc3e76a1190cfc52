// Room made inside a level core (formats/core/core_growth.h): every file a
// level shows that does not show the core's raw layout reads as before.
#include <doctest/doctest.h>

#include <regex>
#include <set>

#include "cache/lru_cache.h"
#include "disc_fixture.h"
#include "edit/edited_disc.h"
#include "edit/level_parts.h"
#include "formats/core/core_growth.h"

using namespace gcfs;
using formats::Bytes;

namespace {

// The files that show the core's or the container's raw bytes, its offsets or its sizes.
bool shows_layout(const std::string& path) {
    static const std::set<std::string> kLayout = {"core_data.bin", "core_index.bin", "data.bin", "header.bin", "info.json", "core/collision.bin"};
    return kLayout.count(path) || path.ends_with(".wad");
}

// The class files name where each class lies in the core ("core_data.bin 0x31e00", a core_offset
// column): those moved. Every other byte, the geometry's numbers included, must not have.
std::string without_core_offsets(const std::string& text) {
    static const std::regex kHex("0x[0-9a-f]+");
    return std::regex_replace(text, kHex, "0x?");
}

}  // namespace

TEST_CASE("a core grown by nothing is the same core") {
    const auto disc = tree::open_disc(small_disc().path, 64 << 20);
    edit::LevelParts parts(level_container(*disc, 0));
    Bytes index = *parts.content("core_index"), core = *parts.content("core_data");
    const Bytes index_before = index, core_before = core;
    REQUIRE(formats::grow_core(index, core, disc->level(0).region("textures")->offset, 0).ok());
    CHECK(index == index_before);  // the header written again reads back its own bytes
    CHECK(core == core_before);
}

TEST_CASE("every file of a level reads as before once its core grows after the collision") {
    const auto disc = tree::open_disc(small_disc().path, 64 << 20);
    for (size_t level : {size_t{0}, size_t{1}}) {
        const formats::CoreRegion* collision = disc->level(level).region("collision");
        REQUIRE(collision);
        CAPTURE(disc->level(level).folder);
        edit::LevelParts parts(level_container(*disc, level));
        Bytes index = *parts.content("core_index"), core = *parts.content("core_data");
        const auto grown = formats::grow_core(index, core, collision->offset + collision->size, 3 * formats::kCoreGrowthAlign);
        REQUIRE_MESSAGE(grown.ok(), (grown.ok() ? "" : grown.error().describe()));
        parts.replace("core_index", index);
        parts.replace("core_data", core);
        const auto rebuilt = parts.rebuild();
        REQUIRE(rebuilt.ok());
        const auto next = edit::open_edited_disc(small_disc().path, *disc, {{edit::ContainerKey{edit::ContainerKey::level, level}, *rebuilt}},
                                                 std::make_shared<cache::LruCache>(64 << 20), [] { return std::string(); });
        CHECK(next->level(level).region("collision")->size == collision->size + 3 * formats::kCoreGrowthAlign);
        const auto before = folder_files(*disc, disc->level(level).folder), after = folder_files(*next, disc->level(level).folder);
        std::set<std::string> names_before, names_after, compared;
        for (const auto& [path, bytes] : before) names_before.insert(path);
        for (const auto& [path, bytes] : after) names_after.insert(path);
        CHECK(names_before == names_after);
        for (const auto& file : before) {
            const std::string& path = file.first;  // named, not bound: CAPTURE takes it into a lambda
            if (shows_layout(path) || !after.count(path)) continue;
            CAPTURE(path);
            CHECK(without_core_offsets(after.at(path)) == without_core_offsets(file.second));
            compared.insert(path);
        }
        // The textures, every class model and the scenes were among them.
        CHECK(compared.size() > 40);
        for (const char* must : {"textures/tfrag_000.png", "level.glb", "collision.obj", "preview.png", "core/textures.bin"}) CHECK(compared.count(must));
        CHECK(std::any_of(compared.begin(), compared.end(), [](const std::string& p) { return p.starts_with("ties/") && p.ends_with(".obj"); }));
        CHECK(std::any_of(compared.begin(), compared.end(), [](const std::string& p) { return p.starts_with("mobies/") && p.ends_with(".glb"); }));
    }
}

TEST_CASE("a core whose header names what the references do not place is not grown") {
    const auto disc = tree::open_disc(small_disc().path, 64 << 20);
    edit::LevelParts parts(level_container(*disc, 0));
    Bytes index = *parts.content("core_index"), core = *parts.content("core_data");
    const Bytes core_before = core;
    SUBCASE("heightmap_offset set") {
        index[0xA4] = 0x40;  // §6.1 0xA4: no "where"
        const auto grown = formats::grow_core(index, core, core.size() / 2, formats::kCoreGrowthAlign);
        REQUIRE_FALSE(grown.ok());
        CHECK(grown.error().message.find("heightmap_offset") != std::string::npos);
    }
    SUBCASE("a growth of other than whole 0x100s") {
        CHECK_FALSE(formats::grow_core(index, core, core.size() / 2, 0x40).ok());
    }
    CHECK(core == core_before);  // nothing half done
}
