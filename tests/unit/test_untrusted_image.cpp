// Names from an untrusted image never become more than one path step, and
// two records with one name stay apart (tree/node/safe_name.h).
#include <doctest/doctest.h>

#include <unistd.h>

#include <fstream>
#include <iterator>

#include "tests/unit/disc_fixture.h"
#include "tree/node/log_escape.h"
#include "tree/node/safe_name.h"

#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

namespace test_untrusted_image {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;

namespace {

// An altered copy of the small disc, removed when the test case ends.
struct ScratchImage {
    std::string path;
    ScratchImage(const std::string& suffix, const std::string& bytes) : path(small_disc().path + suffix) {
        std::ofstream(path, std::ios::binary) << bytes;
    }
    ~ScratchImage() { ::unlink(path.c_str()); }
    ScratchImage(const ScratchImage&) = delete;
    ScratchImage& operator=(const ScratchImage&) = delete;
};

// The small disc's bytes with `from` (a directory record's name bytes, same
// length as `to`) renamed to `to` wherever it is recorded.
std::string renamed_bytes(const std::string& from, const std::string& to) {
    REQUIRE(from.size() == to.size());
    std::ifstream in(small_disc().path, std::ios::binary);
    std::string bytes(std::istreambuf_iterator<char>(in), {});
    // Only the ISO9660 directories (LBA 16 to the first file) are searched.
    const size_t end = std::min<size_t>(bytes.size(), 2048 * 400);
    size_t hits = 0;
    for (size_t at = bytes.find(from, 16 * 2048); at != std::string::npos && at < end; at = bytes.find(from, at + 1), ++hits)
        bytes.replace(at, from.size(), to);
    REQUIRE(hits > 0);
    return bytes;
}

}  // namespace

TEST_CASE("safe_name escapes what could be more than one path step, reversibly") {
    CHECK(tree::safe_name("SYSTEM.CNF") == "SYSTEM.CNF");
    CHECK(tree::safe_name("../../PWNED1") == "..%2F..%2FPWNED1");
    CHECK(tree::safe_name("..") == "%2E%2E");
    CHECK(tree::safe_name(".") == "%2E");
    CHECK(tree::safe_name("") == "%");
    CHECK(tree::safe_name(std::string("A\0B", 3)) == "A%00B");
    CHECK(tree::safe_name("A\x01\x7f\xe9") == "A%01%7F%E9");
    CHECK(tree::safe_name("50%") == "50%25");  // so an escape in the name cannot be mistaken for ours
}

TEST_CASE("an escaped name longer than NAME_MAX is cut, never inside an escape, and ends in a hash of the record") {
    const std::string ff(221, '\xff');
    const std::string name = tree::safe_name(ff);  // 663 bytes escaped
    CHECK(name.size() <= tree::kNameMax);
    REQUIRE(name.size() > 13);
    CHECK(name.substr(name.size() - 13, 5) == "%FF~h");  // whole escapes, then "~h" and 8 hex digits
    CHECK((name.size() - 10) % 3 == 0);
    std::string other = ff;
    other.back() = '\xfe';  // differs only past the cut
    CHECK(tree::safe_name(other) != name);
    CHECK(tree::safe_name(other).size() <= tree::kNameMax);
    CHECK(tree::safe_name(std::string(255, 'A')) == std::string(255, 'A'));  // a name that fits is kept whole
    tree::FolderNames names;
    CHECK(names.claim(std::string(255, 'A')) == std::string(255, 'A'));
    CHECK(names.claim(std::string(255, 'A')) == std::string(253, 'A') + "~2");  // the suffix fits too
}

TEST_CASE("FolderNames gives every copy of a name a visible, stable suffix") {
    tree::FolderNames names;
    CHECK(names.claim("A") == "A");
    CHECK(names.claim("A~2") == "A~2");
    CHECK(names.claim("A") == "A~3");  // A~2 is taken by a real record
    CHECK(names.claim("A") == "A~4");
    CHECK(names.claim("B") == "B");
}

TEST_CASE("a record renamed ../../PWNED1 shows escaped inside disc/, never at the root") {
    const ScratchImage image(".pwned.iso", renamed_bytes("SYSTEM.CNF;1", "../../PWNED1"));
    const auto disc = tree::open_disc(image.path, 16 << 20);
    CHECK(!disc->tree.resolve("PWNED1"));
    CHECK(!disc->tree.resolve("disc/PWNED1"));
    const auto escaped = node_at(*disc, "disc/..%2F..%2FPWNED1");
    CHECK(escaped->type == tree::NodeType::file);
    CHECK(escaped->source->size() == node_at(*tree::open_disc(small_disc().path, 16 << 20), "disc/SYSTEM.CNF")->source->size());
}

TEST_CASE("two records with one name in a folder both show, the second with a suffix") {
    const ScratchImage image(".twice.iso", renamed_bytes("LEVEL01.WAD;1", "LEVEL00.WAD;1"));
    const auto disc = tree::open_disc(image.path, 16 << 20);
    const auto first = node_at(*disc, "disc/LEVELS/LEVEL00.WAD");
    const auto second = node_at(*disc, "disc/LEVELS/LEVEL00.WAD~2");
    CHECK(first->provenance->image_offset != second->provenance->image_offset);
}

TEST_CASE("directory records that point back at a walked directory cannot multiply the walk") {
    // disc/LEVELS's record made to point at the root directory (LBA 259): a loop.
    std::ifstream in(small_disc().path, std::ios::binary);
    std::string bytes(std::istreambuf_iterator<char>(in), {});
    const size_t record = bytes.find("LEVELS", 259 * 2048) - 33;  // the name sits at +33 of its record
    REQUIRE(record < 260 * 2048);
    for (int i = 0; i < 4; ++i) {
        bytes[record + 2 + i] = static_cast<char>((259u >> (8 * i)) & 0xff);      // LBA, little-endian
        bytes[record + 9 - i] = static_cast<char>((259u >> (8 * i)) & 0xff);      // and big-endian
    }
    const ScratchImage image(".loop.iso", bytes);
    const auto disc = tree::open_disc(image.path, 16 << 20);
    CHECK(disc->tree.resolve("disc/SYSTEM.CNF"));
    CHECK(!disc->tree.resolve("disc/LEVELS/SYSTEM.CNF"));  // the root is not walked a second time
    CHECK(disc->scan.files.size() < 40);
    CHECK(disc->tree.resolve("disc/LEVELS"));  // shown empty, named in disc/.damaged
    REQUIRE(disc->scan.iso_damage.size() == 1);
    CHECK(disc->scan.iso_damage[0].folder == "disc/LEVELS");
    CHECK(disc->tree.resolve("disc/.damaged"));
}

TEST_CASE("a directory whose extent holds file data shows empty; the mount, global/ and the levels do not depend on it") {
    std::ifstream in(small_disc().path, std::ios::binary);
    std::string bytes(std::istreambuf_iterator<char>(in), {});
    const size_t record = bytes.find("LEVELS", 259 * 2048) - 33;
    REQUIRE(record < 260 * 2048);
    const uint32_t lba = 1000;  // SYSTEM.CNF's sector: text, not records
    for (int i = 0; i < 4; ++i) {
        bytes[record + 2 + i] = static_cast<char>((lba >> (8 * i)) & 0xff);
        bytes[record + 9 - i] = static_cast<char>((lba >> (8 * i)) & 0xff);
    }
    const ScratchImage image(".filedata.iso", bytes);
    const auto disc = tree::open_disc(image.path, 16 << 20);
    const auto clean = tree::open_disc(small_disc().path, 16 << 20);
    CHECK(!disc->tree.resolve("disc/LEVELS/LEVEL00.WAD"));
    CHECK(disc->tree.resolve("disc/LEVELS"));
    REQUIRE(disc->scan.iso_damage.size() == 1);
    CHECK(disc->scan.iso_damage[0].byte == lba * 2048);
    CHECK(node_at(*disc, "LEVEL00/data.bin")->source->size() == node_at(*clean, "LEVEL00/data.bin")->source->size());
    CHECK(node_at(*disc, "global/misc.wad")->source->size() == node_at(*clean, "global/misc.wad")->source->size());
}

TEST_CASE("log lines escape the control bytes they quote: one line each, no terminal sequence") {
    CHECK(tree::escape_log_text("plain: LEVEL05/mobies/moby_100.obj") == "plain: LEVEL05/mobies/moby_100.obj");
    CHECK(tree::escape_log_text("evil\nname\x1b[31m") == "evil\\x0aname\\x1b[31m");
    CHECK(tree::escape_log_text("\xff\xfe") == "\\xff\\xfe");                      // not UTF-8
    CHECK(tree::escape_log_text("caf\xc3\xa9 \xe2\x80\x94") == "caf\xc3\xa9 \xe2\x80\x94");  // UTF-8 stays
    CHECK(tree::escape_log_text("\xc2\x9b" "2J") == "\\xc2\\x9b2J");                    // C1 CSI, as UTF-8
    CHECK(tree::escape_log_text("tab\there\x7f") == "tab\\x09here\\x7f");
    auto ring = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(4);
    ring->set_pattern("%v");
    spdlog::logger logger("escape-test", tree::escaping_sink(ring));
    logger.warn("the record named \"{}\" is shown as {}", "A\nB\x1b[2J", "A%0AB%1B%5B2J");
    const auto lines = ring->last_formatted();
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].find('\x1b') == std::string::npos);
    CHECK(lines[0].find('\n') == lines[0].size() - 1);  // only the line's own end
    CHECK(lines[0].find("A\\x0aB\\x1b[2J") != std::string::npos);
}

}  // namespace test_untrusted_image
