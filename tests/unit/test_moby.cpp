// Moby classes (formats-moby.md): the vectors Wrench's writer made decode to
// the counts and meshes Wrench's reader gave, the two unpatched outputs are
// rejected as §16.3 explains, and each §14 check rejects a class once.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "formats/moby/moby.h"
#include "mkdisc/mobies.h"
#include "tests/unit/gameplay_vectors.h"
#include "tests/unit/obj_text.h"
#include "tests/unit/rejection.h"

namespace test_moby {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats;
using gcfs::test::set_u8;

namespace {

Bytes vector_bytes(const std::string& name) { return test::read_bytes(test::shared_path("vectors/moby/" + name + ".bin")); }
std::string g(double v) { return fmt::format("{:g}", v); }

// "high_lod: packets=.. vertices=.. (table=.. [2way=.. 3way=.. main=..] dupes=..) merged_unique=.. strips=..
// triangles=.. matrix_transfers=.. textures=[..] materials_used=[..] bbox=.." in Wrench's words, from our decode.
std::string lod_line(const char* name, const moby::MobyClass& cls, const moby::Lod& lod) {
    const ClassMesh mesh = moby::lod_mesh(cls, lod);
    std::vector<int> textures;
    for (const auto& t : lod.triangles)
        if (std::find(textures.begin(), textures.end(), t.texture) == textures.end()) textures.push_back(t.texture);
    std::sort(textures.begin(), textures.end());
    std::string bbox = "none";
    if (!mesh.positions.empty()) {
        std::array<double, 3> lo = mesh.positions[0], hi = lo;
        for (const auto& p : mesh.positions)
            for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
        bbox = fmt::format("({} {} {})-({} {} {})", g(lo[0]), g(lo[1]), g(lo[2]), g(hi[0]), g(hi[1]), g(hi[2]));
    }
    const int table = lod.two_way + lod.three_way + lod.main;
    return fmt::format("{}: packets={} vertices={} (table={} [2way={} 3way={} main={}] dupes={}) merged_unique={} strips={} triangles={} "
                       "matrix_transfers={} textures=[{}] materials_used=[{}] bbox={}",
                       name, lod.packets, lod.vertices.size(), table, lod.two_way, lod.three_way, lod.main, lod.duplicates, lod.vertices.size(),
                       lod.strips, lod.triangles.size(), lod.matrix_transfers, fmt::join(textures, ","), fmt::join(textures, ","), bbox);
}

std::string listed(const std::string& listing, const std::string& prefix) {
    std::istringstream in(listing);
    std::string line;
    while (std::getline(in, line))
        if (line.starts_with(prefix)) return line;
    return "<missing " + prefix + ">";
}

// Triangles as sorted corner tuples (position and uv, rounded) with their material, per object.
using Corner = std::array<long, 5>;
using Tri = std::pair<std::array<Corner, 3>, int>;

std::map<std::string, std::vector<Tri>> obj_triangles(const std::string& text) {
    const test::ObjText obj = test::parse_obj_text(text);
    std::map<std::string, std::vector<Tri>> out;
    for (const auto& f : obj.faces) {
        std::array<Corner, 3> corners{};
        for (int k = 0; k < 3; ++k) {
            const auto& p = obj.v[f.v[k]];
            const auto& t = obj.vt[f.vt[k]];
            corners[k] = {std::lround(p[0] * 1e4), std::lround(p[1] * 1e4), std::lround(p[2] * 1e4), std::lround(t[0] * 1e4), std::lround(t[1] * 1e4)};
        }
        std::sort(corners.begin(), corners.end());
        out[f.object].push_back({corners, std::stoi(f.material.substr(f.material.find('_') + 1))});  // "mat_K": class slot K
    }
    for (auto& [name, tris] : out) std::sort(tris.begin(), tris.end());
    return out;
}

std::vector<Tri> our_triangles(const moby::MobyClass& cls, const moby::Lod& lod) {
    const ClassMesh mesh = moby::lod_mesh(cls, lod);
    std::vector<Tri> out;
    for (const auto& t : mesh.triangles) {
        std::array<Corner, 3> corners{};
        for (int k = 0; k < 3; ++k) {
            const auto& p = mesh.positions[t.v[k]];
            const auto& uv = mesh.uvs[t.v[k]];
            corners[k] = {std::lround(p[0] * 1e4), std::lround(p[1] * 1e4), std::lround(p[2] * 1e4), std::lround(uv[0] * 1e4),
                          std::lround((1.0 - uv[1]) * 1e4)};
        }
        std::sort(corners.begin(), corners.end());
        out.push_back({corners, t.material});
    }
    std::sort(out.begin(), out.end());
    return out;
}

void rejected_at(const Bytes& bytes, uint64_t offset, const char* says) { test::expect_rejected_at(moby::read_moby_class, bytes, offset, says); }

}  // namespace

TEST_CASE("moby vectors decode to the LOD counts Wrench's reader listed") {
    for (const char* name : {"example_fixed", "two_packets", "two_packets_rac1"}) {
        CAPTURE(name);
        const std::string listing = test::read_text(test::shared_path(fmt::format("vectors/moby/{}.wrench.txt", name)));
        auto cls = moby::read_moby_class(vector_bytes(name));
        REQUIRE_MESSAGE(cls.ok(), cls.error().describe());
        CHECK(lod_line("high_lod", *cls, cls->high) == listed(listing, "high_lod:"));
        CHECK(lod_line("low_lod", *cls, cls->low) == listed(listing, "low_lod:"));
        CHECK(cls->rac1_layout == (std::string(name) == "two_packets_rac1"));
    }
    auto seq = moby::read_moby_class(vector_bytes("example_fixed_seq"));  // the dummy sequence changes nothing of the mesh
    REQUIRE(seq.ok());
    CHECK(seq->high.triangles.size() == 3);
}

TEST_CASE("moby vectors decode to Wrench's bind-pose meshes: the same triangles, positions, UVs and materials") {
    for (const char* name : {"example_fixed", "two_packets", "two_packets_rac1"}) {
        CAPTURE(name);
        auto cls = moby::read_moby_class(vector_bytes(name));
        REQUIRE(cls.ok());
        const auto wrench = obj_triangles(test::read_text(test::shared_path(fmt::format("vectors/moby/{}.wrench.obj", name))));
        CHECK(our_triangles(*cls, cls->high) == wrench.at("high_lod"));
        if (!cls->low.triangles.empty()) CHECK(our_triangles(*cls, cls->low) == wrench.at("low_lod"));
    }
}

TEST_CASE("two_packets: duplicates from the cache, blends over three joints, a metal packet, the skeleton") {
    auto cls = moby::read_moby_class(vector_bytes("two_packets"));
    REQUIRE(cls.ok());
    CHECK(cls->high.duplicates == 2);
    // packet 1's duplicates copy the vertices in cache slots 12 and 15: vertices 2 and 5 of packet 0
    CHECK(cls->high.vertices[14].x == cls->high.vertices[2].x);
    CHECK(cls->high.vertices[15].y == cls->high.vertices[5].y);
    CHECK(cls->high.vertices[14].s == 2048);  // with their own texture coordinates
    CHECK(cls->metal_packets == 1);
    CHECK(cls->metal_vertices == 3);
    REQUIRE(cls->joints.size() == 3);
    CHECK(cls->joints[0].parent == -1);
    CHECK(cls->joints[1].parent == 0);
    CHECK(cls->joints[2].parent == 1);
    CHECK(cls->joints[1].translation == std::array<float, 3>{0, 100, 0});
    CHECK(cls->gif_usage_entries == 2);
    CHECK(cls->textures == std::vector<int>{0, 1});
}

TEST_CASE("the unpatched Wrench outputs are rejected as formats-moby.md 16.3 says") {
    // The static skin bytes are all zero: a record stores to and loads from VU0 0x00 (Wrench: the same).
    auto raw = moby::read_moby_class(vector_bytes("example_wrench_raw"));
    REQUIRE_FALSE(raw.ok());
    CHECK_MESSAGE(raw.error().message.find("VU0 address 0x00") != std::string::npos, raw.error().describe());
    // The index UNPACK stops before the terminator: Wrench reads a fourth, bogus triangle; we refuse.
    auto unpadded = moby::read_moby_class(vector_bytes("example_skinfix_unpadded"));
    REQUIRE_FALSE(unpadded.ok());
    CHECK_MESSAGE(unpadded.error().message.find("terminating 0") != std::string::npos, unpadded.error().describe());
}

TEST_CASE("each moby check rejects example_fixed once, naming the byte") {
    const Bytes good = vector_bytes("example_fixed");
    REQUIRE(moby::read_moby_class(good).ok());
    Bytes b = good;
    set_u8(b, 0x5f, 6);  // entry T
    rejected_at(b, 0x5d, "d/e/T");
    b = good;
    set_u8(b, 0x5d, 3);  // entry d
    rejected_at(b, 0x5d, "d/e/T");
    b = good;
    set_u8(b, 0xec, 0x30);  // vertex_table_offset
    rejected_at(b, 0xec, "vertex_table_offset");
    b = good;
    set_u8(b, 0x8f, 1);  // index header byte 3
    rejected_at(b, 0x8c, "index header");
    b = good;
    set_u8(b, 0x93, 0x07);  // index 7 of 5 vertices
    rejected_at(b, 0x93, "names vertex 6 of 5");
    b = good;
    set_u8(b, 0xac, 0x83);  // the terminator's secret is not 0: a second switch with no ad-gif
    rejected_at(b, 0x98, "no ad-gif block");
    b = good;
    set_u8(b, 0xc0, 0xfe), set_u8(b, 0xc1, 0xff), set_u8(b, 0xc2, 0xff), set_u8(b, 0xc3, 0xff);  // TEX0 -2 in a regular packet
    rejected_at(b, 0xc0, "TEX0 slot -2");
    b = good;
    set_u8(b, 0x56, 8);  // texture unpack offset for 2 blocks
    rejected_at(b, 0x56, "texture unpack offset");
    b = good;
    set_u8(b, 0x17c, 0xa0);  // GIF usage offset
    rejected_at(b, 0x170, "GIF usage");
    b = good;
    set_u8(b, 0x103, 0x00);  // v0 stores its joint where it loads its matrix
    rejected_at(b, 0x100, "VU0 address 0x00");
    b = good;
    set_u8(b, 0x102, 0x02);  // a load from a VU0 address that is no multiple of 4
    rejected_at(b, 0x100, "multiple of 4");
    b = good;
    set_u8(b, 0x102, 0x08);  // a load from a slot nothing stored
    rejected_at(b, 0x100, "before anything is stored");
    b = good;
    set_u8(b, 0x1c, 0);  // no joint list
    rejected_at(b, 0x1c, "joint list");
    b = good;
    set_u8(b, 0x08, 0x70);  // 112 joints
    rejected_at(b, 0x08, "0x6f");
    b = good;
    set_u8(b, 0x27, 0x7f), set_u8(b, 0x26, 0xc0);  // scale NaN
    rejected_at(b, 0x24, "scale");
}

TEST_CASE("the writer reproduces example_fixed byte for byte from its mesh") {
    moby::ClassSpec spec;
    moby::PacketSpec packet;
    const int16_t xy[5][2] = {{0, 0}, {4096, 0}, {0, 4096}, {4096, 4096}, {0, 8192}};
    const int16_t st[5][2] = {{0, 0}, {4096, 0}, {0, 2048}, {4096, 2048}, {0, 4096}};
    for (int i = 0; i < 5; ++i) {
        moby::RecordSpec r;
        r.vertex = {xy[i][0], xy[i][1], 0, 0x80, 0x40, st[i][0], st[i][1]};
        packet.records.push_back(r);
    }
    packet.strips = {{0, {0, 1, 2, 3, 4}}};
    spec.high = {packet};
    CHECK(moby::write_moby_class(spec) == vector_bytes("example_fixed"));
    spec.dummy_sequence = true;
    CHECK(moby::write_moby_class(spec) == vector_bytes("example_fixed_seq"));
}

TEST_CASE("bangles (formats-moby.md 12): written after the metal packets, read back as LODs of their own, with their vectors") {
    moby::ClassSpec spec = mkdisc::moby_design(3, 1.0);  // the pickup: two bangles, the first with a low LOD
    REQUIRE(spec.bangles.size() == 2);
    const Bytes bytes = moby::write_moby_class(spec);
    CHECK(bytes[0x2c] != 0);
    auto cls = moby::read_moby_class(bytes);
    REQUIRE(cls.ok());
    REQUIRE(cls->bangles.size() == 2);
    CHECK(cls->bangles[0].entry == 0);
    CHECK(cls->bangles[0].high.packets == 1);
    CHECK(cls->bangles[0].low.packets == 1);
    CHECK(cls->bangles[1].low.packets == 0);
    CHECK(cls->bangles[1].high.triangles.size() == 2);
    CHECK(cls->bangles[0].vectors == spec.bangles[0].vectors);
    CHECK(cls->bangles[1].vectors == spec.bangles[1].vectors);
    // The main LODs are unchanged by the bangles around them.
    CHECK(cls->high.triangles.size() == 8);
    CHECK(cls->metal_packets == 1);
    // §10.3: the GIF usage table lists the bangle packets too (two LOD packets, three bangle packets).
    CHECK(cls->gif_usage_entries == 5);
    // The second bangle's plate is drawn in the class's second texture slot.
    CHECK(std::all_of(cls->bangles[1].high.triangles.begin(), cls->bangles[1].high.triangles.end(),
                      [](const moby::Triangle& t) { return t.texture == 1; }));

    SUBCASE("a bangle whose packets begin inside the LOD packets is rejected, naming its entry") {
        Bytes bad = bytes;
        bad[static_cast<size_t>(bytes[0x2c]) * 16 + 4] = 1;  // entry 0's high begin: the low LOD packet
        auto got = moby::read_moby_class(bad);
        REQUIRE_FALSE(got.ok());
        CHECK(got.error().message.find("bangle 0 packets begin at entry 1") != std::string::npos);
    }
    SUBCASE("a bangle count past the packet table's bytes is rejected") {
        Bytes bad = bytes;
        bad[static_cast<size_t>(bytes[0x2c]) * 16 + 5] = 200;
        CHECK_FALSE(moby::read_moby_class(bad).ok());
    }
    SUBCASE("an ARMOR mesh-only class cannot carry them") {
        CHECK_THROWS(moby::write_mesh_only_class(spec));
    }
}

TEST_CASE("a class OBJ gives each bangle a group of its own, at the size its counts predict") {
    moby::ClassSpec spec = mkdisc::moby_design(3, 1.0);
    auto cls = moby::read_moby_class(moby::write_moby_class(spec));
    REQUIRE(cls.ok());
    std::vector<NamedClassMesh> parts;
    for (const auto& b : cls->bangles) parts.push_back({fmt::format("bangle_{}", b.entry), moby::lod_mesh(*cls, b.high)});
    const MaterialName name = [](int slot) { return fmt::format("moby_{:03d}", slot); };
    const ClassMesh main = moby::lod_mesh(*cls, cls->high);
    const ClassObjCounts counts = class_obj_counts(main, name, parts);
    CHECK(counts.triangles == main.triangles.size() + 4);
    const std::string text = class_obj(main, "o x\n", name, parts);
    CHECK(text.size() == class_obj_size(4, counts));
    CHECK(text.find("\ng bangle_0\n") != std::string::npos);
    CHECK(text.find("\ng bangle_1\n") != std::string::npos);
}

TEST_CASE("the non-mesh sections (formats-moby.md 4): collision, sound defs, corncob and shadows read back, each checked") {
    const moby::ClassSpec worm = mkdisc::moby_design(1, 1.0), crate = mkdisc::moby_design(0, 1.0), pyramid = mkdisc::moby_design(2, 1.0);
    const Bytes worm_bytes = moby::write_moby_class(worm), crate_bytes = moby::write_moby_class(crate);
    auto w = moby::read_moby_class(worm_bytes);
    auto c = moby::read_moby_class(crate_bytes);
    auto p = moby::read_moby_class(moby::write_moby_class(pyramid));
    REQUIRE(w.ok());
    REQUIRE(c.ok());
    REQUIRE(p.ok());
    CHECK(w->sections.shadows == 2);
    CHECK(w->sections.corncob_kernels == 2);
    CHECK(w->sections.corncob_vertices == 3);  // the zero-vector kernel holds none (Wrench reads none for it)
    CHECK_FALSE(w->sections.collision);
    CHECK(c->sections.collision);
    CHECK(c->sections.collision_points == 8);
    CHECK(c->sections.collision_first == 8);
    CHECK(c->sections.collision_third == 4);
    CHECK(c->sections.sound_defs == 2);
    CHECK(p->sections.sound_defs == 0);  // the pyramid has none of them
    CHECK_FALSE(p->sections.collision);
    // The mesh is what it was without them.
    CHECK(c->high.triangles.size() == 12);

    const auto collision_at = static_cast<size_t>(s32_at(crate_bytes, 0x10));
    Bytes bad = crate_bytes;
    bad[collision_at + 12] = 12;  // second part 12 bytes: not whole points
    CHECK(moby::read_moby_class(bad).error().message.find("multiple of 8") != std::string::npos);
    bad = crate_bytes;
    bad[collision_at + 7] = 0x10;  // a first part of 256 MiB
    CHECK_FALSE(moby::read_moby_class(bad).ok());
    bad = crate_bytes;
    bad[0x0d] = 200;  // 200 sound defs
    CHECK(moby::read_moby_class(bad).error().message.find("sound defs") != std::string::npos);
    bad = worm_bytes;
    bad[0x0f] = 200;  // 200 shadow records before the skeleton
    CHECK_FALSE(moby::read_moby_class(bad).ok());
    bad = worm_bytes;
    const uint64_t corncob = 16ull * static_cast<uint64_t>(s16_at(worm_bytes, 0x2e));
    const uint64_t kernel = corncob + 16ull * worm_bytes[corncob + 2];
    bad[kernel + 0x16] = 0xff, bad[kernel + 0x17] = 0x7f;  // 32767 vertices
    CHECK(moby::read_moby_class(bad).error().message.find("corncob") != std::string::npos);
}

}  // namespace test_moby
