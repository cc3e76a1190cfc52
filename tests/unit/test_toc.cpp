// Table of contents (formats.md §2.3): writer/reader round trip and damage.
#include <doctest/doctest.h>

#include "formats/disc/toc.h"

namespace test_toc {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs::formats;

namespace {

Bytes header_of(int32_t size) {
    Bytes h(static_cast<size_t>(size), 0);
    h[0] = static_cast<uint8_t>(size);
    h[1] = static_cast<uint8_t>(size >> 8);
    return h;
}

std::vector<TocGlobalInput> globals() {
    std::vector<TocGlobalInput> g;
    uint32_t lba = 2000;
    for (const auto& kind : gc_global_kinds()) g.push_back({header_of(kind.header_size), lba += 10});
    return g;
}

std::vector<TocLevelInput> levels(int n) {
    std::vector<TocLevelInput> out;
    for (int i = 0; i < n; ++i)
        out.push_back({{header_of(0x60), 3000u + i * 100, 40}, {header_of(0x1018), 3040u + i * 100, 10},
                       {header_of(0x137C), 3050u + i * 100, 5}});
    return out;
}

}  // namespace

TEST_CASE("TOC round trips: globals, level table and header copies") {
    const Bytes toc = write_toc(globals(), levels(5));
    CHECK(toc.size() == toc_size_sectors(globals(), levels(5)) * kSectorSize);
    auto parsed = parse_toc(toc);
    REQUIRE_MESSAGE(parsed.ok(), parsed.error().describe());
    CHECK(parsed->table_offset == 0x4FF8);  // §2.3: the nine GC globals total 0x4FF8 bytes
    REQUIRE(parsed->globals.size() == 9);
    CHECK(parsed->globals[0].name == "mpeg");
    CHECK(parsed->globals[8].name == "armor");
    CHECK(parsed->globals[2].lba == 2030);
    REQUIRE(parsed->levels.size() == 5);
    for (int i = 0; i < 5; ++i) {
        const auto& l = parsed->levels[i];
        REQUIRE(l.level);
        CHECK(l.level->file_lba == 3000 + i * 100);
        CHECK(l.level->size_sectors == 40);
        REQUIRE(l.audio);
        CHECK(l.audio->file_lba == 3040 + i * 100);
        REQUIRE(l.scene);
        CHECK(l.scene->header_size == 0x137C);
    }
    CHECK(parsed->problems.empty());
}

TEST_CASE("TOC reader rejects what is not a table of contents") {
    SUBCASE("zeros") { CHECK(parse_toc(Bytes(0x10000, 0)).error().code == Errc::bad_magic); }
    SUBCASE("truncated inside a global") {
        Bytes toc = write_toc(globals(), levels(3));
        toc.resize(0x100);
        CHECK_FALSE(parse_toc(toc).ok());
    }
    SUBCASE("a part pointing at an unknown header is reported, not trusted") {
        Bytes toc = write_toc(globals(), levels(3));
        const auto parsed = parse_toc(toc);
        REQUIRE(parsed.ok());
        const uint64_t copy = parsed->levels[2].scene->toc_offset;
        toc[copy] = 0x55;  // header_size no longer identifies a part
        const auto damaged = parse_toc(toc);
        REQUIRE(damaged.ok());
        CHECK_FALSE(damaged->levels[2].scene);
        CHECK(damaged->problems.size() == 1);
    }
}

}  // namespace test_toc
