// Shrub classes (formats-shrub.md): the five vectors Wrench's writer made
// decode to the counts and meshes Wrench's reader gave, re-encode byte for
// byte, and each §2 check rejects a damaged card once, naming its byte.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "formats/shrub/shrub.h"
#include "tests/unit/gameplay_vectors.h"
#include "tests/unit/obj_text.h"
#include "tests/unit/rejection.h"

namespace test_shrub {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats;
using gcfs::test::set_u8;

namespace {

const char* const kShrubVectors[] = {"card", "card_nobb", "grid3", "grid2_6", "grid16"};

Bytes vector_bytes(const std::string& name) { return test::read_bytes(test::shared_path("vectors/shrub/" + name + ".bin")); }

// The value after `key` on its line of the listing.
std::string field(const std::string& listing, const std::string& key) {
    std::istringstream in(listing);
    std::string line;
    while (std::getline(in, line))
        if (line.starts_with(key + " ")) {
            const size_t at = line.find_first_not_of(' ', key.size());
            return at == std::string::npos ? "" : line.substr(at);
        }
    return "<missing " + key + ">";
}

std::string g(double v) { return fmt::format("{:g}", v); }

shrub::ClassSpec respec(const shrub::ShrubClass& cls) {
    shrub::ClassSpec spec;
    spec.o_class = cls.header.o_class;
    spec.scale = cls.header.scale;
    spec.mip_distance = cls.header.mip_distance;
    spec.bounding_sphere = cls.header.bounding_sphere;
    spec.billboard = cls.billboard;
    spec.normals = cls.normals;
    for (size_t p = 0; p < cls.packet_starts.size(); ++p) {
        const size_t end = p + 1 < cls.packet_starts.size() ? cls.packet_starts[p + 1] : cls.primitives.size();
        shrub::PacketSpec packet;
        for (size_t i = cls.packet_starts[p]; i < end; ++i) {
            const auto& prim = cls.primitives[i];
            packet.strips.push_back({prim.texture, prim.clamp_s, prim.clamp_t, prim.vertices});
        }
        spec.packets.push_back(packet);
    }
    return spec;
}

void rejected_at(const Bytes& bytes, uint64_t offset, const char* says) { test::expect_rejected_at(shrub::read_shrub_class, bytes, offset, says); }

}  // namespace

TEST_CASE("shrub vectors decode to the counts Wrench's reader listed") {
    for (const char* name : kShrubVectors) {
        CAPTURE(name);
        const std::string listing = test::read_text(test::shared_path(fmt::format("vectors/shrub/{}.wrench.txt", name)));
        auto cls = shrub::read_shrub_class(vector_bytes(name));
        REQUIRE_MESSAGE(cls.ok(), cls.error().describe());
        const ClassMesh mesh = shrub::shrub_mesh(*cls);
        int drawn = 0, strips = 0, lists = 0;
        for (const auto& p : cls->primitives) drawn += static_cast<int>(p.vertices.size()), (p.strip ? strips : lists)++;
        CHECK(field(listing, "packet_count") == std::to_string(cls->packet_starts.size()));
        CHECK(field(listing, "vertex_count") == fmt::format("{} (drawn) / {} (declared in packet headers, incl. padding)", drawn, cls->stored_vertices));
        CHECK(field(listing, "gif_tags") == fmt::format("{} (strips {}, lists {})  ad_gifs {}", cls->gif_tags, strips, lists, cls->texture_changes));
        CHECK(field(listing, "triangle_count") ==
              fmt::format("{} (raw: strip n-2 + list n/3) / {} (after recover_shrub_class dedup+degenerate removal)",
                          shrub::raw_triangles(*cls), mesh.triangles.size()));
        CHECK(field(listing, "recovered_vertices") == fmt::format("{} (unique after dedup)", mesh.positions.size()));
        CHECK(field(listing, "texture_slots") == fmt::format("{} (TEX0 data_lo = index into ShrubClassEntry.textures[])", fmt::join(cls->textures, " ")));
        std::array<double, 3> lo = mesh.positions[0], hi = lo;
        for (const auto& p : mesh.positions)
            for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
        CHECK(field(listing, "bbox_world") == fmt::format("min {} {} {}  max {} {} {}", g(lo[0]), g(lo[1]), g(lo[2]), g(hi[0]), g(hi[1]), g(hi[2])));
        if (cls->billboard) {
            const auto& b = *cls->billboard;
            CHECK(field(listing, "billboard") == fmt::format("fade_distance {} width {} height {} z_ofs {}", g(b.fade_distance), g(b.width),
                                                             g(b.height), g(b.z_ofs)));
        } else {
            CHECK(field(listing, "header.billboard_offset") == "0x0");
        }
    }
}

TEST_CASE("shrub vectors decode to Wrench's recovered meshes: positions, UVs and triangles in order") {
    for (const char* name : kShrubVectors) {
        CAPTURE(name);
        auto cls = shrub::read_shrub_class(vector_bytes(name));
        REQUIRE(cls.ok());
        const ClassMesh mesh = shrub::shrub_mesh(*cls);
        const test::ObjText wrench = test::parse_obj_text(test::read_text(test::shared_path(fmt::format("vectors/shrub/{}.wrench.obj", name))));
        REQUIRE(wrench.v.size() == mesh.positions.size());
        REQUIRE(wrench.vt.size() == mesh.uvs.size());
        for (size_t i = 0; i < mesh.positions.size(); ++i) {
            CAPTURE(i);
            for (int k = 0; k < 3; ++k) CHECK(std::abs(wrench.v[i][k] - mesh.positions[i][k]) < 2e-5 * std::max(1.0, std::abs(wrench.v[i][k])));
            CHECK(std::abs(wrench.vt[i][0] - mesh.uvs[i][0]) < 2e-5);
            CHECK(std::abs(wrench.vt[i][1] - (1.0 - mesh.uvs[i][1])) < 2e-5);  // the listing writes vt = (s, 1 - t)
        }
        REQUIRE(wrench.faces.size() == mesh.triangles.size());
        for (size_t t = 0; t < mesh.triangles.size(); ++t) CHECK(wrench.faces[t].v == mesh.triangles[t].v);
    }
}

TEST_CASE("shrub vectors re-encode to Wrench's bytes exactly") {
    for (const char* name : kShrubVectors) {
        CAPTURE(name);
        const Bytes original = vector_bytes(name);
        auto cls = shrub::read_shrub_class(original);
        REQUIRE(cls.ok());
        CHECK(cls->end == original.size());
        CHECK(shrub::write_shrub_class(respec(*cls)) == original);
    }
    CHECK(shrub::lod_k(30) == 0xff68);  // §1.5's example
    CHECK(shrub::lod_k(60) == 0xff58);
}

TEST_CASE("each shrub check rejects the card once, naming the byte (Wrench accepts the first four)") {
    const Bytes good = vector_bytes("card");
    Bytes b = good;
    set_u8(b, 0x70, 1);  // NLOOP 5 -> 1
    rejected_at(b, 0x70, "NLOOP");
    b = good;
    set_u8(b, 0xc4, 7);  // UNPACK #2 ADDR 6 -> 7
    rejected_at(b, 0xc4, "UNPACK");
    b = good;
    set_u8(b, 0x117, 0x00), set_u8(b, 0x11f, 0x80);  // stop flag v2 -> v3
    rejected_at(b, 0x116, "stop flag");
    b = good;
    set_u8(b, 0x75, 0xc0);  // PRIM strip -> fan
    rejected_at(b, 0x70, "type 5");
    b = good;
    set_u8(b, 0xde, 13);  // vertex 2 GS offset 12 -> 13
    rejected_at(b, 0x50, "offset 12");
    b = good;
    set_u8(b, 0x106, 24);  // normal index past the table
    rejected_at(b, 0x106, "normal 24");
    b = good;
    set_u8(b, 0x6c, 7);  // vertex_offset != 1 + G + 4T
    rejected_at(b, 0x60, "vertex_offset");
    b = good;
    set_u8(b, 0x88, 0x15);  // TEX1 register byte
    rejected_at(b, 0x88, "register");
    b = good;
    set_u8(b, 0xb0, 16);  // TEX0 slot 16
    rejected_at(b, 0xb0, "slot 16");
    b = good;
    set_u8(b, 0x44, 0xf0);  // packet size 0xe0 -> 0xf0
    CHECK_FALSE(shrub::read_shrub_class(b).ok());
    b = good;
    set_u8(b, 0x1c, 0x38);  // billboard not 16-aligned
    rejected_at(b, 0x1c, "billboard_offset");
    b = good;
    b.resize(0x200);  // cut: the normal table runs past the end
    CHECK(shrub::read_shrub_class(b).error().code == Errc::truncated);
    b = good;
    set_u8(b, 0x28, 0x30);  // 48 packets: the table overruns the first packet
    CHECK_FALSE(shrub::read_shrub_class(b).ok());
}

}  // namespace test_shrub
