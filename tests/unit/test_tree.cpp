// The virtual tree without a mount: paths, sizes from headers, lazy decoding,
// errors on damaged extents.
#include <doctest/doctest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>
#include <vector>

#include "disc_fixture.h"
#include "tree/node/sources.h"
#include "tree/tree_builder.h"

namespace test_tree {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;

namespace {

formats::Bytes read_all(const tree::Disc& disc, const std::string& path) {
    const auto ino = disc.tree.resolve(path);
    REQUIRE_MESSAGE(ino, path);
    const tree::NodeRef n = disc.tree.node(*ino);
    REQUIRE(n->type == tree::NodeType::file);
    formats::Bytes out(n->source->size());
    const auto outcome = n->source->read(0, out);
    REQUIRE_MESSAGE(outcome.ok(), outcome.error);
    CHECK(outcome.bytes == out.size());
    return out;
}

// A copy of the built disc to damage, and the image offset of `level`'s
// core_data stream in it.
struct DiscCopy {
    std::string path;
    uint64_t core_stream_at = 0;
};

DiscCopy copy_disc(const BuiltDisc& built, const std::string& suffix, size_t level) {
    DiscCopy copy{built.path + suffix};
    {
        std::ifstream in(built.path, std::ios::binary);
        std::ofstream out(copy.path, std::ios::binary);
        out << in.rdbuf();
    }
    auto disc = tree::open_disc(copy.path, 64 << 20);
    const auto& scanned = disc->level(level);
    copy.core_stream_at = scanned.data_offset + static_cast<uint64_t>(scanned.lump->core_data.offset);
    return copy;
}

}  // namespace

TEST_CASE("tree shows the design's layout with header-derived sizes and no decoding") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    for (const char* path : {"README.txt", "disc/SYSTEM.CNF", "disc/RC2.HDR", "disc/LEVELS/LEVEL00.WAD",
                             "global/mpeg.wad", "global/armor.wad", "LEVEL00/header.bin", "LEVEL00/info.json",
                             "LEVEL00/data.bin", "LEVEL00/core_index.bin", "LEVEL00/core_data.wad",
                             "LEVEL00/core_data.bin", "LEVEL00/gameplay.wad", "LEVEL00/gameplay.bin",
                             "LEVEL00/sound_bank.bin", "LEVEL00/core/tfrag.bin", "LEVEL00/core/sky.bin",
                             "LEVEL04/audio.wad", "by-id/30", ".gcfs/stats"})
        CHECK_MESSAGE(disc->tree.resolve(path).has_value(), path);
    const auto ino = disc->tree.resolve("LEVEL02/core_data.bin");
    CHECK(disc->tree.node(*ino)->source->size() == built.levels.at(2).core_data.size());
    CHECK(disc->cache->stats().misses == 0);  // sizes came from headers
    const tree::NodeRef link = disc->tree.node(*disc->tree.resolve("by-id/30"));
    CHECK(link->link_target() == "../LEVEL04");
}

TEST_CASE("decompressed extents equal the builder's originals") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    for (const auto& [index, level] : built.levels) {
        const std::string folder = "LEVEL0" + std::to_string(index);
        CHECK(read_all(*disc, folder + "/core_data.bin") == level.core_data);
        CHECK(read_all(*disc, folder + "/gameplay.bin") == level.gameplay);
    }
    CHECK(disc->cache->stats().misses == 2 * built.levels.size());
}

TEST_CASE("a corrupt core stream reads as an error naming its offset; the rest still reads") {
    const BuiltDisc& built = small_disc();
    const auto [copy, stream_at] = copy_disc(built, ".corrupt", 1);
    {
        // A big match reaching far back as the first packet: lookback before the start.
        std::fstream f(copy, std::ios::binary | std::ios::in | std::ios::out);
        f.seekp(static_cast<std::streamoff>(stream_at + 16));
        const char packet[4] = {0x20, 0x10, 0x00, 0x7f};
        f.write(packet, 4);
    }
    auto disc = tree::open_disc(copy, 64 << 20);
    const tree::NodeRef bad = disc->tree.node(*disc->tree.resolve("LEVEL01/core_data.bin"));
    formats::Bytes buffer(4096);
    const auto outcome = bad->source->read(0, buffer);
    CHECK_FALSE(outcome.ok());
    CHECK(outcome.error.find("lookback") != std::string::npos);
    CHECK(outcome.error.find("0x10") != std::string::npos);  // the packet's byte offset in the stream
    CHECK(read_all(*disc, "LEVEL00/core_data.bin") == built.levels.at(0).core_data);
    CHECK(read_all(*disc, "LEVEL01/gameplay.bin") == built.levels.at(1).gameplay);
    ::unlink(copy.c_str());
}

TEST_CASE("a file that is not a disc is refused with a clear error") {
    const std::string path = "/tmp/gcfs-unit-not-iso-" + std::to_string(::getpid());
    std::ofstream(path) << std::string(100000, 'x');
    CHECK_THROWS_AS(tree::open_disc(path, 1 << 20), tree::NotAGameDisc);
    ::unlink(path.c_str());
}

namespace {

// Files "f0".."f{n-1}" whose content is their own name.
class NamedRun final : public tree::FileRun {
public:
    explicit NamedRun(uint64_t n) : n_(n) {}
    uint64_t count() const override { return n_; }
    std::string name(uint64_t i) const override { return "f" + std::to_string(i); }
    std::optional<uint64_t> position(std::string_view name) const override {
        for (uint64_t i = 0; i < n_; ++i)
            if (name == this->name(i)) return i;
        return std::nullopt;
    }
    std::shared_ptr<const tree::Source> source(uint64_t i) const override {
        return std::make_shared<tree::StaticText>(name(i));
    }
    std::shared_ptr<const tree::Provenance> provenance(uint64_t) const override { return nullptr; }

private:
    uint64_t n_;
};

}  // namespace

TEST_CASE("file runs: reserved inodes, nodes made for each caller and not kept, listed after built children") {
    tree::Tree t;
    const uint64_t dir = t.add_directory(tree::Tree::kRootIno, "d");
    t.add_file(dir, "a.txt", std::make_shared<tree::StaticText>("a"), nullptr);
    t.add_file_run(dir, std::make_shared<NamedRun>(5));
    t.add_file_run(dir, std::make_shared<NamedRun>(0));
    const uint64_t other = t.add_directory(tree::Tree::kRootIno, "e");
    t.add_file_run(other, std::make_shared<NamedRun>(3));
    CHECK(t.size() == 4 + 5 + 3);

    const auto f3 = t.lookup(dir, "f3");
    REQUIRE(f3);
    CHECK(*f3 >= tree::Tree::kRunBase);
    const tree::NodeRef node = t.node(*f3);
    REQUIRE(node);
    CHECK(node->name == "f3");
    CHECK(node->parent == dir);
    // Made afresh for each caller, the same content, let go with its last reference.
    std::weak_ptr<const tree::Node> made;
    {
        const tree::NodeRef again = t.node(*f3);
        made = again;
        CHECK(again != node);
        CHECK((again->ino == node->ino && again->name == node->name && again->parent == node->parent));
    }
    CHECK(made.expired());
    CHECK(t.path_of(*f3) == "d/f3");
    CHECK(t.resolve("e/f2") == t.lookup(other, "f2"));
    CHECK(t.resolve("e/f2") != t.resolve("d/f2"));
    CHECK_FALSE(t.lookup(dir, "f5"));
    CHECK_FALSE(t.node(tree::Tree::kRunBase + 8));  // past every run

    std::vector<std::string> names;
    t.for_each_child(dir, 0, [&](const std::string& name, uint64_t, tree::NodeType) {
        names.push_back(name);
        return true;
    });
    CHECK(names == std::vector<std::string>{"a.txt", "f0", "f1", "f2", "f3", "f4"});
    names.clear();
    t.for_each_child(dir, 3, [&](const std::string& name, uint64_t, tree::NodeType) {
        names.push_back(name);
        return names.size() < 2;
    });
    CHECK(names == std::vector<std::string>{"f2", "f3"});

    CHECK_THROWS(t.add_file(dir, "f1", std::make_shared<tree::StaticText>("x"), nullptr));  // a run already names it
    CHECK_THROWS(t.add_file_run(dir, std::make_shared<NamedRun>(1)));  // "f0" twice
}

TEST_CASE("tfrag patch runs accept only the canonical file name") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 16 << 20);
    CHECK(disc->tree.resolve("LEVEL00/tfrag/patch_0007.obj"));
    CHECK(disc->tree.resolve("LEVEL00/tfrag/lod2/patch_0000.obj"));
    for (const char* bad : {"patch_7.obj", "patch_00007.obj", "patch_0007.OBJ", "patch_-001.obj", "patch_9999.obj",
                            "patch_.obj", "patch_0007.obj.bak"})
        CHECK_MESSAGE(!disc->tree.resolve(std::string("LEVEL00/tfrag/") + bad), bad);
}

TEST_CASE("opening reads only the table of contents; a level folder is built when something inside it is needed") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 16 << 20);
    const size_t levels = disc->scan.levels.size();
    REQUIRE(levels >= 3);
    auto read_headers = [&] {
        size_t n = 0;
        for (const auto& level : disc->scan.levels) n += level.header.has_value();
        return n;
    };
    CHECK(read_headers() == 0);

    // The root lists every level folder; stating one builds nothing.
    std::set<std::string> names;
    disc->tree.for_each_child(tree::Tree::kRootIno, 0, [&](const std::string& name, uint64_t ino, tree::NodeType type) {
        names.insert(name);
        if (name.starts_with("LEVEL")) {
            CHECK(type == tree::NodeType::directory);
            CHECK(disc->tree.node(ino)->lazy);
        }
        return true;
    });
    CHECK(names.contains("LEVEL01"));
    CHECK(read_headers() == 0);
    CHECK_FALSE(disc->decoders.at("LEVEL01").core_data);

    // A lookup inside LEVEL01 reads its headers and builds it, and only it.
    const auto folder = disc->tree.lookup(tree::Tree::kRootIno, "LEVEL01");
    REQUIRE(folder);
    const auto core = disc->tree.lookup(*folder, "core_data.bin");
    REQUIRE(core);
    CHECK(disc->scan.levels[1].header.has_value());
    CHECK(read_headers() == 1);
    CHECK(disc->tree.folder_error(*folder).empty());
    CHECK(disc->decoders.at("LEVEL01").core_data);
    CHECK_FALSE(disc->decoders.at("LEVEL00").core_data);
    CHECK((*core >> tree::Tree::kTreeShift) != 0);  // the subtree's own inodes
    CHECK(disc->tree.path_of(*core) == "LEVEL01/core_data.bin");
    CHECK(disc->tree.lookup(*folder, "..") == tree::Tree::kRootIno);
    CHECK(disc->tree.node(*core)->source->size() == built.levels.at(1).core_data.size());
    CHECK(disc->cache->stats().misses == 0);  // built, nothing decoded

    // by-id reads every level's headers for the ids, and builds no other folder.
    const auto by_id = disc->tree.resolve("by-id");
    REQUIRE(by_id);
    size_t links = 0;
    disc->tree.for_each_child(*by_id, 0, [&](const std::string&, uint64_t, tree::NodeType type) {
        links += type == tree::NodeType::symlink;
        return true;
    });
    CHECK(links == levels);
    CHECK(read_headers() == levels);
    CHECK_FALSE(disc->decoders.at("LEVEL02").core_data);

    // Threads racing into one unbuilt folder build it once and agree.
    std::vector<uint64_t> found(4);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < found.size(); ++t)
        threads.emplace_back([&, t] { found[t] = disc->tree.resolve("LEVEL02/tfrag/terrain.obj").value_or(0); });
    for (auto& t : threads) t.join();
    CHECK(found[0] != 0);
    CHECK(std::set<uint64_t>(found.begin(), found.end()).size() == 1);
    const uint64_t before = disc->tree.size();
    disc->tree.build_all();
    CHECK(disc->tree.size() > before);
    for (const auto& level : disc->scan.levels) CHECK(disc->decoders.at(level.folder).core_data);
}

TEST_CASE("a level folder first opened after the image changed under it answers an error, not the new bytes") {
    const BuiltDisc& built = small_disc();
    const std::string copy = built.path + ".changed.iso";
    std::filesystem::copy_file(built.path, copy, std::filesystem::copy_options::overwrite_existing);
    auto disc = tree::open_disc(copy, 16 << 20);
    REQUIRE(disc->tree.resolve("LEVEL00/core_data.bin"));  // LEVEL00 built before the change
    {
        std::ofstream grow(copy, std::ios::binary | std::ios::app);
        grow << "more bytes";
    }
    const auto level01 = disc->tree.resolve("LEVEL01");
    REQUIRE(level01);
    const std::string error = disc->tree.folder_error(*level01);
    CHECK(error.find("Stale file handle") != std::string::npos);
    CHECK_FALSE(disc->tree.lookup(*level01, "core_data.bin"));
    CHECK(disc->scan.levels[1].stale);
    CHECK(disc->tree.folder_error(*disc->tree.resolve("LEVEL00")).empty());  // built from the image as it was
    CHECK(disc->tree.resolve("LEVEL00/core_data.bin"));
    ::unlink(copy.c_str());
}

TEST_CASE("a core stream is served while it decodes: readers at scattered offsets see the builder's bytes") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    const formats::Bytes& expected = built.levels.at(3).core_data;
    const tree::NodeRef core = disc->tree.node(*disc->tree.resolve("LEVEL03/core_data.bin"));
    std::atomic<int> wrong{0};
    std::vector<std::thread> readers;
    for (int t = 0; t < 6; ++t)
        readers.emplace_back([&, t] {
            // Each reader starts at its own sixth of the stream, the last
            // ones asking for bytes the decode has not reached yet.
            const uint64_t step = expected.size() / 6;
            for (uint64_t at = step * static_cast<uint64_t>(t); at < expected.size(); at += 70001) {
                formats::Bytes chunk(std::min<uint64_t>(4096, expected.size() - at));
                const auto outcome = core->source->read(at, chunk);
                if (!outcome.ok() || outcome.bytes != chunk.size() ||
                    !std::equal(chunk.begin(), chunk.end(), expected.begin() + static_cast<std::ptrdiff_t>(at)))
                    ++wrong;
            }
        });
    for (auto& r : readers) r.join();
    CHECK(wrong == 0);
    CHECK(disc->cache->stats().misses == 1);  // one decode served them all
    CHECK(read_all(*disc, "LEVEL03/core_data.bin") == expected);
}

TEST_CASE("a core stream found damaged near its end is rejected whole from then on, bytes before the damage too") {
    const BuiltDisc& built = small_disc();
    const auto [copy, stream_at] = copy_disc(built, ".short", 2);
    {
        // The stream's own header (formats.md §5.1) declares 64 bytes fewer:
        // the decode stops short of the core's declared size, at its end.
        std::fstream f(copy, std::ios::binary | std::ios::in | std::ios::out);
        f.seekg(static_cast<std::streamoff>(stream_at + 3));
        int32_t declared = 0;
        f.read(reinterpret_cast<char*>(&declared), 4);
        declared -= 64;
        f.seekp(static_cast<std::streamoff>(stream_at + 3));
        f.write(reinterpret_cast<const char*>(&declared), 4);
    }
    auto disc = tree::open_disc(copy, 64 << 20);
    const tree::NodeRef bad = disc->tree.node(*disc->tree.resolve("LEVEL02/core_data.bin"));
    formats::Bytes whole(bad->source->size());
    const auto outcome = bad->source->read(0, whole);
    CHECK_FALSE(outcome.ok());
    CHECK_MESSAGE(outcome.error.find(fmt::format("image byte 0x{:x}", stream_at)) != std::string::npos, outcome.error);
    formats::Bytes head(4096);
    CHECK_FALSE(bad->source->read(0, head).ok());
    CHECK(bad->source->open_error() == outcome.error);
    CHECK(read_all(*disc, "LEVEL00/core_data.bin") == built.levels.at(0).core_data);

    // A region before the damage reads in full whatever was read first: after
    // the whole stream failed (above), and on a fresh open before it.
    const auto& tfrag_region = *disc->level(2).region("tfrag");
    const formats::Bytes expected(built.levels.at(2).core_data.begin() + static_cast<std::ptrdiff_t>(tfrag_region.offset),
                                  built.levels.at(2).core_data.begin() + static_cast<std::ptrdiff_t>(tfrag_region.offset + tfrag_region.size));
    CHECK(read_all(*disc, "LEVEL02/core/tfrag.bin") == expected);
    auto fresh = tree::open_disc(copy, 64 << 20);
    CHECK(read_all(*fresh, "LEVEL02/core/tfrag.bin") == expected);
    ::unlink(copy.c_str());
}

TEST_CASE("a core damaged partway: level.glb reads at its stat size, and no texture's outcome depends on what was read first") {
    const BuiltDisc& built = small_disc();
    const DiscCopy made = copy_disc(built, ".partway", 2);  // plain names: the lambdas below use them (clang 14)
    const std::string copy = made.path;
    const uint64_t stream_at = made.core_stream_at;
    const formats::Bytes clean = [&] {
        std::ifstream in(copy, std::ios::binary);
        return formats::Bytes(std::istreambuf_iterator<char>(in), {});
    }();
    const uint64_t stream_bytes = static_cast<uint64_t>(tree::open_disc(copy, 64 << 20)->level(2).lump->core_data.size);
    struct Outcome {
        std::string glb;                            // level.glb's bytes
        std::map<std::string, std::string> textures;  // "" when it read, else its error
    };
    // Reads level.glb and every texture in either order; level.glb must read.
    auto read_level = [&](bool scene_first) {
        auto disc = tree::open_disc(copy, 64 << 20);
        Outcome out;
        auto read_scene = [&] {
            const formats::Bytes glb = read_all(*disc, "LEVEL02/level.glb");
            out.glb.assign(glb.begin(), glb.end());
        };
        if (scene_first) read_scene();
        disc->tree.for_each_child(*disc->tree.resolve("LEVEL02/textures"), 0, [&](const std::string& name, uint64_t ino, tree::NodeType) {
            const tree::NodeRef n = disc->tree.node(ino);
            formats::Bytes png(n->source->size());
            const auto got = n->source->read(0, png);
            out.textures[name] = got.ok() ? "" : got.error;
            return true;
        });
        if (!scene_first) read_scene();
        return out;
    };
    int failed_cores = 0, failed_textures = 0, noted_textures = 0;
    for (int i = 1; i <= 60; ++i) {
        // 16 bytes overwritten at i/200 of the compressed stream, through its
        // first 30%: the texels end early in it (13% on seed 1; the builder's
        // classes after them compress worse), so some of these land after the
        // terrain and before the texels' end.
        const uint64_t at = stream_at + stream_bytes * static_cast<uint64_t>(i) / 200;
        CAPTURE(at);
        formats::Bytes damaged = clean;
        for (uint64_t k = 0; k < 16; ++k) damaged[at + k] = static_cast<uint8_t>(0x5a ^ (k * 37 + static_cast<uint64_t>(i)));
        std::ofstream(copy, std::ios::binary).write(reinterpret_cast<const char*>(damaged.data()), static_cast<std::streamsize>(damaged.size()));
        const Outcome scene_first = read_level(true), textures_first = read_level(false);
        CHECK(scene_first.glb == textures_first.glb);
        CHECK(scene_first.textures == textures_first.textures);
        // What the scene embeds read; what it left out failed, and its notes say so.
        const std::string& glb = scene_first.glb;
        REQUIRE(glb.size() > 20);
        uint32_t json_bytes = 0;
        std::memcpy(&json_bytes, glb.data() + 12, 4);
        const nlohmann::json j = nlohmann::json::parse(glb.substr(20, json_bytes));
        for (const auto& image : j.value("images", nlohmann::json::array()))
            if (const auto it = scene_first.textures.find(image["name"].get<std::string>() + ".png"); it != scene_first.textures.end())
                CHECK(it->second.empty());  // (sky images come from sky/)
        for (const auto& note : j["scenes"][0]["extras"].value("notes", std::vector<std::string>{})) {
            if (note.rfind("textures/", 0) != 0) continue;
            const std::string name = note.substr(9, note.find(" left out: ") - 9);
            CHECK_MESSAGE(!scene_first.textures.at(name).empty(), note);
            ++noted_textures;
        }
        for (const auto& [name, error] : scene_first.textures) failed_textures += !error.empty();
        auto disc = tree::open_disc(copy, 64 << 20);
        const tree::NodeRef core = disc->tree.node(*disc->tree.resolve("LEVEL02/core_data.bin"));
        formats::Bytes whole(core->source->size());
        failed_cores += !core->source->read(0, whole).ok();
    }
    // The damage reached: most cores fail whole, and some textures with them.
    CHECK(failed_cores >= 3);
    CHECK(failed_textures > 0);
    CHECK(noted_textures > 0);
    ::unlink(copy.c_str());
}

}  // namespace test_tree
