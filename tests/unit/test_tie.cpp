// Tie classes (formats-tie-sky.md Part A): the vectors decode as Wrench's
// reader listed them, the writer's classes read back, and each A.8 check
// rejects the class once with the byte it names.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "formats/tie/tie.h"
#include "tests/unit/gameplay_vectors.h"
#include "tests/unit/rejection.h"

namespace test_tie {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats;
using gcfs::test::set_u8;

namespace {

Bytes vector_bytes(const char* name) { return test::read_bytes(test::shared_path(fmt::format("vectors/tie/{}.bin", name))); }
std::string listing(const char* name) { return test::read_text(test::shared_path(fmt::format("vectors/tie/{}.wrench.txt", name))); }

std::string g(double v) { return fmt::format("{:g}", v); }

// "lod N: packets=.. strips=.. verts=.. tris=.. degenerate_tris=.. stored_dinky=.. stored_fat=..
// declared_strip_verts=.. materials=[..] bbox=.." in Wrench's words, from our decode.
std::string lod_line(const tie::TieClass& cls, int lod) {
    const tie::Lod& l = cls.lods[lod];
    const ClassMesh mesh = tie::lod_mesh(cls, lod);
    std::vector<int> materials;
    for (const auto& s : l.strips)
        if (std::find(materials.begin(), materials.end(), s.material) == materials.end()) materials.push_back(s.material);
    std::string bbox = "none";
    if (!mesh.positions.empty()) {
        std::array<double, 3> lo = mesh.positions[0], hi = lo;
        for (const auto& p : mesh.positions)
            for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
        bbox = fmt::format("({},{},{})-({},{},{})", g(lo[0]), g(lo[1]), g(lo[2]), g(hi[0]), g(hi[1]), g(hi[2]));
    }
    return fmt::format("  lod {}: packets={} strips={} verts={} tris={} degenerate_tris={} stored_dinky={} stored_fat={} "
                       "declared_strip_verts={} materials=[{}] bbox={}",
                       lod, l.packets, l.strips.size(), l.vertices(), l.triangles(), tie::degenerate_triangles(mesh), l.stored_dinky,
                       l.stored_fat, l.vertices(), fmt::join(materials, ","), bbox);
}

std::vector<std::string> listed_lod_lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        if (std::regex_match(line, std::regex(R"(  lod \d: packets=.*)"))) out.push_back(line);
    return out;
}

void set_u16(Bytes& b, size_t at, uint16_t v) { b.at(at) = v & 0xff, b.at(at + 1) = static_cast<uint8_t>(v >> 8); }

void rejected_at(const Bytes& bytes, uint64_t offset, const char* says) { test::expect_rejected_at(tie::read_tie_class, bytes, offset, says); }

}  // namespace

TEST_CASE("tie vectors decode to what Wrench's reader listed, LOD by LOD") {
    for (const char* name : {"tie_example", "tie_example2"}) {
        CAPTURE(name);
        auto cls = tie::read_tie_class(vector_bytes(name));
        REQUIRE_MESSAGE(cls.ok(), cls.error().describe());
        const auto listed = listed_lod_lines(listing(name));
        REQUIRE(listed.size() == 3);
        for (int lod = 0; lod < 3; ++lod) CHECK(lod_line(*cls, lod) == listed[lod]);
        CHECK(cls->notes.empty());  // their declared lods[] agree
    }
}

TEST_CASE("tie_example's LOD 0 triangles are the ones A.9 lists, with the parity flip") {
    auto cls = tie::read_tie_class(vector_bytes("tie_example"));
    REQUIRE(cls.ok());
    const ClassMesh mesh = tie::lod_mesh(*cls, 0);
    std::vector<std::string> got;
    for (const auto& t : mesh.triangles) {
        std::string s;
        for (uint32_t v : t.v) s += fmt::format("({},{},{})", g(mesh.positions[v][0]), g(mesh.positions[v][1]), g(mesh.positions[v][2]));
        got.push_back(s);
    }
    CHECK(got == std::vector<std::string>{"(0,0,0)(0,1,0)(1,0,0)", "(1,1,0.5)(1,0,0)(0,1,0)", "(1,0,0)(1,1,0.5)(2,0,0)"});
    CHECK(mesh.uvs[4] == std::array<double, 2>{2.0, 0.0});  // s = 0x2000: tiling past 1 (A.5)
    CHECK(cls->header.o_class == 500);
    CHECK(cls->end == 0x260);
}

TEST_CASE("tie_example2: a shared vertex serves both strips, a fat vertex closes strip 1, materials 0 then 1") {
    auto cls = tie::read_tie_class(vector_bytes("tie_example2"));
    REQUIRE(cls.ok());
    const auto& strips = cls->lods[0].strips;
    REQUIRE(strips.size() == 2);
    CHECK(strips[0].material == 0);
    CHECK(strips[1].material == 1);
    CHECK(strips[0].vertices.back() == strips[1].vertices.front());
    CHECK(cls->materials == std::vector<int>{0, 1});
}

TEST_CASE("the bad tie vectors are rejected, one naming the material Wrench lets through") {
    rejected_at(vector_bytes("bad_material"), 0x90 + 0x14, "ad-gif table");  // ad_gif_src[1] = 0xa0: record 2 of 2
    auto bad_tag = tie::read_tie_class(vector_bytes("bad_gif_tag"));
    REQUIRE_FALSE(bad_tag.ok());
    CHECK(bad_tag.error().message.find("slot 6") != std::string::npos);  // Wrench: "expected next offset 0x6"
}

TEST_CASE("each A.8 check rejects tie_example once") {
    const Bytes good = vector_bytes("tie_example");
    Bytes b = good;
    set_u8(b, 0xb8, 0x0d);  // dinky size byte odd
    rejected_at(b, 0xb8, "even number");
    b = good;
    set_u8(b, 0xb8, 0x10);  // 6 dinky vertices in a 5-qword region
    rejected_at(b, 0xb8, "overrun");
    b = good;
    set_u8(b, 0xbc, 4);  // strip declares 4 vertices, the walk gives 5
    rejected_at(b, 0xbc, "declares 4 vertices");
    b = good;
    set_u8(b, 0x84, 2);  // shader_count 2, one block placed
    rejected_at(b, 0x84, "shader_count");
    b = good;
    set_u16(b, 0xd6, 7);  // second vertex claims slot 7 with other data
    rejected_at(b, 0xc0, "slot 7");
    b = good;
    set_u16(b, 0xce, 300);  // a second GS slot past 255
    rejected_at(b, 0xc6, "past 255");
    b = good;
    set_u8(b, 0x0f, 9);  // nine ad-gifs overrun the class
    CHECK(tie::read_tie_class(b).error().code == Errc::truncated);
    b = good;
    set_u8(b, 0x0c, 40);  // LOD 0 table of 40 packets past the class
    CHECK_FALSE(tie::read_tie_class(b).ok());
    b = good;
    set_u8(b, 0x88, 0x02);  // vertex region over the strips
    rejected_at(b, 0x88, "overlaps");
    b = good;
    set_u16(b, 0x42, 0x7fc0);  // scale NaN
    rejected_at(b, 0x40, "scale");
    b = good;
    set_u16(b, 0x60, 6);  // lods[0] vert_count: reported, not rejected (A.8: unverified for GC)
    auto noted = tie::read_tie_class(b);
    REQUIRE(noted.ok());
    CHECK(noted->notes == std::vector<std::string>{"LOD 0 declares 6 vertices, decodes 5"});
}

TEST_CASE("written tie classes read back: shared slots, fat vertices, material switches, all three LODs") {
    tie::ClassSpec spec;
    spec.o_class = 501;
    spec.scale = 4;
    spec.texture_count = 3;
    auto v = [](int16_t x, int16_t y, int16_t z, int16_t s, int16_t t) { return tie::Vertex{x, y, z, s, t, 0x1000}; };
    tie::PacketSpec p;
    p.strips.push_back({0, {v(0, 0, 0, 0, 0), v(0, 256, 0, 0, 4096), v(256, 0, 0, 4096, 0), v(256, 256, 0, 4096, 4096)}});
    p.strips.push_back({0, {v(256, 256, 0, 4096, 4096), v(512, 0, 0, 8192, 0), v(512, 256, 0, 8192, 4096)}});  // shares its head
    p.strips.push_back({2, {v(0, 0, 512, 0, 0), v(0, 256, 512, 0, 4096), v(256, 0, 512, 4096, 0)}});           // material switch
    p.fat_vertices = 2;
    p.reverse_dinky = true;
    spec.lods[0] = {p, p};
    tie::PacketSpec small;
    small.strips.push_back({1, {v(0, 0, 0, 0, 0), v(0, 256, 0, 0, 4096), v(256, 0, 0, 4096, 0)}});  // padded to 4 stored
    spec.lods[1] = {small};
    const Bytes bytes = tie::write_tie_class(spec);
    CHECK(bytes.size() % 0x40 == 0);
    auto cls = tie::read_tie_class(bytes);
    REQUIRE_MESSAGE(cls.ok(), cls.error().describe());
    CHECK(cls->notes.empty());
    CHECK(cls->header.o_class == 501);
    REQUIRE(cls->lods[0].strips.size() == 6);
    for (int packet = 0; packet < 2; ++packet)
        for (int s = 0; s < 3; ++s) {
            CHECK(cls->lods[0].strips[3 * packet + s].material == p.strips[s].material);
            CHECK(cls->lods[0].strips[3 * packet + s].vertices == p.strips[s].vertices);
        }
    CHECK(cls->lods[0].stored_fat == 4);
    CHECK(cls->lods[0].stored_dinky == 2 * (4 + 2 + 3 - 2));  // the shared head is stored once, 2 of 9 go fat
    CHECK(cls->lods[1].vertices() == 3);
    CHECK(cls->lods[1].stored_dinky == 4);
    CHECK(cls->lods[2].packets == 0);
    CHECK(cls->materials == std::vector<int>{0, 1, 2});
}

TEST_CASE("the winding flag (A.4): a strip written reversed with it set draws the faces the strip in order draws") {
    auto v = [](int16_t x, int16_t y, int16_t z) { return tie::Vertex{x, y, z, 0, 0, 0x1000}; };
    const std::vector<tie::Vertex> fan = {v(0, 0, 0), v(256, 0, 0), v(0, 256, 0), v(256, 256, 64), v(0, 512, 0)};
    auto faces = [&](bool flipped) {
        tie::ClassSpec spec;
        spec.o_class = 7;
        spec.scale = 4;
        tie::PacketSpec p;
        std::vector<tie::Vertex> order = fan;
        if (flipped) std::reverse(order.begin(), order.end());
        p.strips.push_back({0, order, flipped});
        spec.lods[0] = {p};
        auto cls = tie::read_tie_class(tie::write_tie_class(spec));
        REQUIRE(cls.ok());
        CHECK(cls->lods[0].strips.front().flip == flipped);
        const ClassMesh mesh = tie::lod_mesh(*cls, 0);
        std::set<std::array<std::array<double, 3>, 3>> out;  // each face from its smallest corner on, keeping its turn
        for (const auto& t : mesh.triangles) {
            std::array<std::array<double, 3>, 3> f = {mesh.positions[t.v[0]], mesh.positions[t.v[1]], mesh.positions[t.v[2]]};
            std::rotate(f.begin(), std::min_element(f.begin(), f.end()), f.end());
            out.insert(f);
        }
        return out;
    };
    const auto plain = faces(false);
    CHECK(plain.size() == 3);
    CHECK(faces(true) == plain);
}

TEST_CASE("[ext-RAC1]'s colour-index and slot-step regions after the vertices (A.10 item 11) are counted, and change no strip") {
    auto v = [](int16_t x, int16_t y, int16_t z) { return tie::Vertex{x, y, z, 0, 0, 0x1000}; };
    tie::ClassSpec spec;
    spec.o_class = 9;
    spec.scale = 4;
    tie::PacketSpec p;
    p.strips.push_back({0, {v(0, 0, 0), v(256, 0, 0), v(0, 256, 0), v(256, 256, 0), v(0, 512, 0)}});
    spec.lods[0] = {p, p};
    auto plain = tie::read_tie_class(tie::write_tie_class(spec));
    for (auto& packet : spec.lods[0]) packet.rac1_regions = true;
    const Bytes bytes = tie::write_tie_class(spec);
    auto with = tie::read_tie_class(bytes);
    REQUIRE(plain.ok());
    REQUIRE(with.ok());
    CHECK(plain->lods[0].packets_with_rac1_regions == 0);
    CHECK(with->lods[0].packets_with_rac1_regions == 2);
    REQUIRE(with->lods[0].strips.size() == plain->lods[0].strips.size());
    for (size_t i = 0; i < with->lods[0].strips.size(); ++i) CHECK(with->lods[0].strips[i].vertices == plain->lods[0].strips[i].vertices);
    // A.3: byte 0xa names the qword after the vertex region; 0xb counts the 5 stored vertices.
    const auto table = static_cast<uint64_t>(s32_at(bytes, 0));
    CHECK(bytes[table + 0xa] == bytes[table + 8] + bytes[table + 9]);
    CHECK(bytes[table + 0xb] == 5);
}

}  // namespace test_tie
