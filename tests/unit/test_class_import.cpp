// A mesh through the class compilers, writers and readers
// (formats/tie/tie_compile.h, formats/shrub/shrub_compile.h) comes back as
// the same triangles: every corner within half a quantum (scale / 1024,
// formats-tie-sky.md A.5, formats-shrub.md 1.6), every UV within half of
// 1/4096, each triangle's slot and winding as given; a tie's LODs 1 and 2
// are smaller; what a class cannot hold is refused with the number.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "formats/shrub/shrub.h"
#include "formats/shrub/shrub_compile.h"
#include "formats/tie/tie.h"
#include "formats/tie/tie_compile.h"

using namespace gcfs::formats;

namespace class_import_test {

// A sphere of `rings` x `sectors` quads (radius 3 about (1, -2, 0.5)), the upper half slot 1, UVs spread over [0, 2).
ClassMeshIn sphere(int rings, int sectors) {
    ClassMeshIn mesh;
    for (int r = 0; r <= rings; ++r)
        for (int s = 0; s <= sectors; ++s) {
            const double el = M_PI * r / rings - M_PI / 2, az = 2 * M_PI * s / sectors;
            mesh.positions.push_back({1 + 3 * std::cos(el) * std::cos(az), -2 + 3 * std::cos(el) * std::sin(az), 0.5 + 3 * std::sin(el)});
            mesh.uvs.push_back({2.0 * s / sectors, 1.0 * r / rings});
        }
    for (int r = 0; r < rings; ++r)
        for (int s = 0; s < sectors; ++s) {
            const uint32_t a = static_cast<uint32_t>(r * (sectors + 1) + s), b = a + 1, c = a + static_cast<uint32_t>(sectors) + 1, d = c + 1;
            const int slot = r >= rings / 2 ? 1 : 0;
            if (r > 0) mesh.triangles.push_back({{a, b, d}, slot});
            if (r < rings - 1) mesh.triangles.push_back({{a, d, c}, slot});
        }
    return mesh;
}

// "" when `read` holds each of `written`'s triangles once, with its slot and
// winding, every corner in the same quantum (`quantum` units) and every UV in
// the same 1/4096; else the first triangle read back that was not written.
std::string unmatched(const ClassMeshIn& written, const ClassMesh& read, double quantum) {
    using Corner = std::array<int64_t, 5>;  // position and UV in quanta
    auto corner = [&](const std::array<double, 3>& p, const std::array<double, 2>& uv) {
        return Corner{std::llround(p[0] / quantum), std::llround(p[1] / quantum), std::llround(p[2] / quantum), std::llround(uv[0] * 4096),
                      std::llround(uv[1] * 4096)};
    };
    auto turned = [](std::array<Corner, 3> c) {  // the smallest corner leading, the winding kept
        std::rotate(c.begin(), std::min_element(c.begin(), c.end()), c.end());
        return c;
    };
    std::map<std::pair<int, std::array<Corner, 3>>, int> left;
    for (const auto& t : written.triangles)
        ++left[{t.slot, turned({corner(written.positions[t.corners[0]], written.uvs[t.corners[0]]), corner(written.positions[t.corners[1]], written.uvs[t.corners[1]]),
                                corner(written.positions[t.corners[2]], written.uvs[t.corners[2]])})}];
    for (size_t n = 0; n < read.triangles.size(); ++n) {
        const auto& t = read.triangles[n];
        const auto found = left.find({t.material, turned({corner(read.positions[t.v[0]], read.uvs[t.v[0]]), corner(read.positions[t.v[1]], read.uvs[t.v[1]]),
                                                          corner(read.positions[t.v[2]], read.uvs[t.v[2]])})});
        if (found == left.end()) return fmt::format("triangle {} read back was not written, or is wound the other way", n);
        if (--found->second == 0) left.erase(found);
    }
    return left.empty() ? "" : fmt::format("{} written triangles were not read back", left.size());
}

}  // namespace class_import_test

using class_import_test::sphere;
using class_import_test::unmatched;

TEST_CASE("a mesh through the tie compiler, writer and reader comes back as the same triangles") {
    const ClassMeshIn mesh = sphere(12, 24);
    tie::TieCompileOptions options;
    options.o_class = 77, options.texture_count = 2, options.lod1_ratio = 0.4, options.lod2_ratio = 0.15;
    options.near_dist = 10, options.mid_dist = 20, options.far_dist = 40;
    const auto spec = tie::compile_tie_class(mesh, options);
    REQUIRE_MESSAGE(spec.ok(), (spec.ok() ? "" : spec.error().describe()));
    const Bytes bytes = tie::write_tie_class(*spec);
    const auto cls = tie::read_tie_class(bytes);
    REQUIRE_MESSAGE(cls.ok(), (cls.ok() ? "" : cls.error().describe()));
    CHECK(cls->notes.empty());
    CHECK(cls->header.o_class == 77);
    CHECK(cls->header.texture_count == 2);
    CHECK(cls->header.far_dist == 40);
    const double quantum = cls->header.scale / 1024.0;
    CHECK(quantum * 32767 >= 3 * std::sqrt(2.0) - 1e-3);  // the farthest coordinate (|y| up to 5) fits
    const ClassMesh lod0 = tie::lod_mesh(*cls, 0);
    CHECK(lod0.triangles.size() == mesh.triangles.size());
    CHECK(tie::degenerate_triangles(lod0) == 0);
    CHECK(unmatched(mesh, lod0, quantum) == "");
    // The stored positions are the nearest quanta: each within half a quantum of the file's.
    double worst = 0;
    for (const auto& p : mesh.positions)
        for (int a = 0; a < 3; ++a) worst = std::max(worst, std::abs(p[a] / quantum - std::round(p[a] / quantum)));
    CHECK(worst <= 0.5);
    // The lower LODs hold fewer triangles, and every LOD's counts agree with the header's (A.8).
    CHECK(tie::lod_mesh(*cls, 1).triangles.size() < lod0.triangles.size());
    CHECK(tie::lod_mesh(*cls, 2).triangles.size() <= tie::lod_mesh(*cls, 1).triangles.size());
    CHECK(cls->header.bsphere[3] == doctest::Approx(3.0).epsilon(0.01));
}

TEST_CASE("a tie mesh past a class's limits is refused with the number") {
    SUBCASE("a UV outside 4.12 fixed point") {
        ClassMeshIn mesh = sphere(4, 8);
        mesh.uvs[3] = {9.5, 0};
        const auto spec = tie::compile_tie_class(mesh, {0, 2});
        REQUIRE_FALSE(spec.ok());
        CHECK(spec.error().message.find("9.5") != std::string::npos);
    }
    SUBCASE("70,000 triangles: more packets than a LOD's u8 count") {
        const auto spec = tie::compile_tie_class(sphere(150, 240), {0, 2, 1.0, 1.0});
        REQUIRE_FALSE(spec.ok());
        CHECK(spec.error().message.find("packets") != std::string::npos);
    }
}

TEST_CASE("a mesh through the shrub compiler, writer and reader comes back as the same triangles, each facing its normals") {
    const ClassMeshIn mesh = sphere(10, 20);
    shrub::ShrubCompileOptions options;
    options.o_class = 700, options.texture_count = 2, options.mip_distance = 45;
    const auto spec = shrub::compile_shrub_class(mesh, options);
    REQUIRE_MESSAGE(spec.ok(), (spec.ok() ? "" : spec.error().describe()));
    CHECK(spec->packets.size() > 1);
    const auto cls = shrub::read_shrub_class(shrub::write_shrub_class(*spec));
    REQUIRE_MESSAGE(cls.ok(), (cls.ok() ? "" : cls.error().describe()));
    CHECK(cls->header.o_class == 700);
    CHECK(cls->header.mip_distance == 45);
    const double quantum = cls->header.scale / 1024.0;
    const ClassMesh read = shrub::shrub_mesh(*cls);
    CHECK(read.triangles.size() == mesh.triangles.size());
    CHECK(unmatched(mesh, read, quantum) == "");
    CHECK(cls->header.bounding_sphere[3] * cls->header.scale == doctest::Approx(3.0).epsilon(0.01));
}
