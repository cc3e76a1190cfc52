// user.gcfs.* attributes without a mount: each file says where its bytes come
// from, and the numbers agree with the file itself.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "disc_fixture.h"
#include "formats/tfrag/tfrag_read.h"
#include "tree/node/xattrs.h"

namespace test_xattrs {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;

namespace {

std::string value(tree::Disc& disc, const std::string& path, const char* name) {
    const auto v = tree::xattr_value(disc, *node_at(disc, path), name);
    REQUIRE_MESSAGE(v, path, " has no ", name);
    return *v;
}

}  // namespace

TEST_CASE("a raw extent's attributes give its container and exactly its image bytes") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    const tree::NodeRef data_held = node_at(*disc, "LEVEL00/data.bin");
    const tree::Node& data = *data_held;
    CHECK(tree::xattr_names(*disc, data).size() == 6);
    CHECK(value(*disc, "LEVEL00/data.bin", "user.gcfs.container") == "LEVELS/LEVEL00.WAD");
    CHECK(value(*disc, "LEVEL00/data.bin", "user.gcfs.decoder").starts_with("none"));
    CHECK(value(*disc, "LEVEL00/data.bin", "user.gcfs.status").starts_with("ok"));
    // The range is the file: same length, same bytes as the image there.
    const auto& p = *data.provenance;
    CHECK(p.image_length == data.source->size());
    std::ifstream image(built.path, std::ios::binary);
    const std::string bytes(std::istreambuf_iterator<char>(image), {});
    formats::Bytes content(data.source->size());
    REQUIRE(data.source->read(0, content).ok());
    REQUIRE(p.image_offset + content.size() <= bytes.size());
    CHECK(std::memcmp(content.data(), bytes.data() + p.image_offset, content.size()) == 0);
    CHECK(value(*disc, "LEVEL00/data.bin", "user.gcfs.sectors") ==
          fmt::format("image LBA [{}, {}), bytes [0x{:x}, 0x{:x})", p.image_offset / 2048,
                      (p.image_offset + p.image_length + 2047) / 2048, p.image_offset, p.image_offset + p.image_length));
}

TEST_CASE("decoded files name the stream they come from and where in it") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    const auto& stream = *disc->tree.provenance(*node_at(*disc, "LEVEL00/core_data.wad"));
    for (const char* path : {"LEVEL00/core_data.bin", "LEVEL00/collision.obj", "LEVEL00/tfrag/lod2/patch_0004.obj",
                             "LEVEL00/textures/tfrag_000.png", "LEVEL00/core/sky.bin"}) {
        const auto origin = disc->tree.provenance(*node_at(*disc, path));  // a run's file makes it now
        REQUIRE(origin);
        const auto& p = *origin;
        CHECK_MESSAGE(p.image_offset == stream.image_offset, path);
        CHECK_MESSAGE(p.image_length == stream.image_length, path);
        CHECK_MESSAGE(p.decoder.starts_with("WAD LZ"), path);
    }
    // A patch names its own header, where the tfrags header puts it (§7.2).
    const auto& level = disc->scan.levels[0];
    const uint64_t header = level.region("tfrag")->offset + formats::tfrag_patch_header_offset(*level.tfrags, 4);
    CHECK(value(*disc, "LEVEL00/tfrag/lod2/patch_0004.obj", "user.gcfs.source")
              .starts_with(fmt::format("tfrag patch 4 (header at core_data.bin 0x{:x}), LOD 2;", header)));
    CHECK(value(*disc, "LEVEL00/collision.obj", "user.gcfs.source").find("collision block") != std::string::npos);
    // What gcfs derives names what it reads: the table of contents, the level's container.
    CHECK(value(*disc, "README.txt", "user.gcfs.container") == "RC2.HDR");
    CHECK(value(*disc, "LEVEL00/level.glb", "user.gcfs.container") == "LEVELS/LEVEL00.WAD");
    CHECK(value(*disc, "LEVEL00/level.glb", "user.gcfs.decoder").ends_with("then a glTF 2.0 binary scene"));
    CHECK(value(*disc, "LEVEL00/collision.glb", "user.gcfs.source").find("collision block") != std::string::npos);
    CHECK(value(*disc, "LEVEL00/tfrag/terrain.mtl", "user.gcfs.decoder") == "MTL written from the tfrag texture table's row count");
    CHECK(value(*disc, ".gcfs/stats", "user.gcfs.container") == "none: made by gcfs");
}

TEST_CASE("directories, symlinks and unknown names have no attributes") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    CHECK(tree::xattr_names(*disc, *node_at(*disc, "LEVEL00")).empty());
    CHECK_FALSE(tree::xattr_value(*disc, *node_at(*disc, "LEVEL00"), "user.gcfs.container"));
    CHECK_FALSE(tree::xattr_value(*disc, *node_at(*disc, "LEVEL00/data.bin"), "user.gcfs.colour"));
    CHECK(tree::xattr_names(*disc, *disc->tree.node(*disc->tree.resolve("by-id"))).empty());
}

}  // namespace test_xattrs
