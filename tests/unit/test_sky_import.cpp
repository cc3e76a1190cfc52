// The sky from a mesh (issue 56): shells through the sky compiler, the
// writer and the reader come back as the same faces, and sky/sky.obj saved
// as a model file becomes the level's sky shells.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <string>

#include "cache/lru_cache.h"
#include "disc_fixture.h"
#include "edit/edit_kinds.h"
#include "edit/edited_disc.h"
#include "edit/level_parts.h"
#include "edit/sky_edit.h"
#include "formats/sky/sky_compile.h"
#include "formats/sky/sky_mesh.h"

using namespace gcfs;
using formats::Bytes;

namespace sky_import {

// A face as its corners (1/1024 sky units, UVs in 1/4096, alpha) turned so the smallest leads, with its texture.
using Corner = std::array<int64_t, 6>;
using Face = std::pair<std::array<Corner, 3>, int>;

Face face_of(std::array<Corner, 3> c, int texture) {
    std::rotate(c.begin(), std::min_element(c.begin(), c.end()), c.end());
    return {c, texture};
}

// A dome band of `rings` x 24 quads as triangles at `radius` sky units; textured (texture 1 and 2) or a gradient fading upwards.
formats::SkyShellIn dome(double radius, int rings, bool textured) {
    formats::SkyShellIn shell;
    shell.textured = textured;
    for (int r = 0; r <= rings; ++r)
        for (int a = 0; a <= 24; ++a) {
            const double el = std::numbers::pi / 2 * r / (rings + 1), az = 2 * std::numbers::pi * a / 24;
            shell.positions.push_back({radius * std::cos(el) * std::cos(az), radius * std::cos(el) * std::sin(az), radius * std::sin(el)});
            shell.uvs.push_back({textured ? a / 24.0 : 0, textured ? r / double(rings) : 0});
            shell.alpha.push_back(textured ? 255 : static_cast<uint8_t>(255 - r * 200 / rings));
        }
    for (int r = 0; r < rings; ++r)
        for (int a = 0; a < 24; ++a) {
            const auto v = static_cast<uint32_t>(r * 25 + a);
            const uint8_t texture = textured ? static_cast<uint8_t>(1 + r % 2) : 0xff;
            shell.faces.push_back({{v, v + 1, v + 26}, texture});
            shell.faces.push_back({{v, v + 26, v + 25}, texture});
        }
    return shell;
}

std::multiset<Face> faces_in(const formats::SkyShellIn& shell) {
    std::multiset<Face> out;
    auto corner = [&](uint32_t v) {
        const auto& p = shell.positions[v];
        const uint8_t a = shell.alpha[v];
        return Corner{std::llround(p[0] * 1024), std::llround(p[1] * 1024), std::llround(p[2] * 1024), std::llround(shell.uvs[v][0] * 4096),
                      std::llround(shell.uvs[v][1] * 4096), a == 255 ? 255 : (a + 1) / 2 * 2};
    };
    for (const auto& f : shell.faces)
        out.insert(face_of({corner(f.corners[0]), corner(f.corners[1]), corner(f.corners[2])}, f.texture == 0xff ? -1 : f.texture));
    return out;
}

std::multiset<Face> faces_in(const formats::SkyShellMesh& mesh) {
    std::multiset<Face> out;
    auto corner = [&](uint32_t v) {
        const auto& p = mesh.positions[v];
        return Corner{std::llround(p[0] * 1024), std::llround(p[1] * 1024), std::llround(p[2] * 1024), std::llround(mesh.uvs[v][0] * 4096),
                      std::llround(mesh.uvs[v][1] * 4096), mesh.alpha[v]};
    };
    for (size_t f = 0; f < mesh.faces.size(); ++f)
        out.insert(face_of({corner(mesh.faces[f][0]), corner(mesh.faces[f][1]), corner(mesh.faces[f][2])}, mesh.face_texture[f]));
    return out;
}

formats::ByteSpan bytes_of(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

}  // namespace sky_import

using namespace sky_import;

TEST_CASE("sky shells through the compiler, the writer and the reader come back as the same faces") {
    const std::vector<formats::SkyShellIn> shells = {dome(20, 6, true), dome(16, 3, false)};
    const auto clusters = formats::compile_sky_shells(shells);
    REQUIRE(clusters.ok());
    formats::SkyContent content;
    content.rgba = {0x20, 0x40, 0xc0, 0x80};
    content.textures.resize(3);
    for (auto& t : content.textures) t.width = t.height = 8, t.texels.assign(64, 1);
    content.shells = *clusters;
    content.shell_flags = {0, 1};
    const Bytes block = formats::write_sky(content);
    const auto sky = formats::parse_sky(block);
    REQUIRE(sky.ok());
    const auto meshes = formats::sky_meshes(block, *sky);
    REQUIRE(meshes.ok());
    REQUIRE(meshes->size() == 2);
    CHECK((*meshes)[0].textured);
    CHECK_FALSE((*meshes)[1].textured);
    for (size_t s = 0; s < 2; ++s) CHECK(faces_in((*meshes)[s]) == faces_in(shells[s]));
    // B.7's sectors: 12 around in each band the dome reaches, every cluster within 127 vertices, its sphere holding its vertices.
    CHECK((*clusters)[0].size() >= 12);
    for (const auto& shell : *clusters)
        for (const auto& cluster : shell) {
            CHECK(cluster.vertices.size() <= 127);
            for (const auto& v : cluster.vertices) {
                const double dx = v[0] / 1024.0 - cluster.bsphere[0], dy = v[1] / 1024.0 - cluster.bsphere[1], dz = v[2] / 1024.0 - cluster.bsphere[2];
                CHECK(std::sqrt(dx * dx + dy * dy + dz * dz) <= cluster.bsphere[3] + 1e-4);
            }
        }
}

TEST_CASE("the sky compiler's limits: each refused with the number that does not fit, a full sector split") {
    SUBCASE("nine shells") {
        const std::vector<formats::SkyShellIn> shells(9, dome(10, 1, false));
        const auto clusters = formats::compile_sky_shells(shells);
        REQUIRE_FALSE(clusters.ok());
        CHECK(clusters.error().message == "9 shells; the sky holds 8 (formats.md 8.2)");
    }
    SUBCASE("a coordinate past s16 / 1024") {
        const auto clusters = formats::compile_sky_shells({dome(40, 1, false)});
        REQUIRE_FALSE(clusters.ok());
        CHECK(clusters.error().message.find("is past the s16 that holds it") != std::string::npos);
    }
    SUBCASE("one sector of many vertices splits before 128") {
        formats::SkyShellIn shell;
        for (uint32_t i = 0; i < 400; ++i) {
            shell.positions.push_back({10, 0.001 * i, 0.5 + 0.001 * i});  // one sector: a few degrees of azimuth
            shell.uvs.push_back({0, 0});
            shell.alpha.push_back(255);
        }
        for (uint32_t i = 0; i + 2 < 400; i += 3) shell.faces.push_back({{i, i + 1, i + 2}, 0xff});
        const auto clusters = formats::compile_sky_shells({shell});
        REQUIRE(clusters.ok());
        CHECK((*clusters)[0].size() == 4);
        for (const auto& c : (*clusters)[0]) CHECK(c.vertices.size() <= 127);
    }
}

namespace sky_import {

// A y-up OBJ of two shells as sky.obj shows them: a textured band (materials sky_001, sky_002) and a gradient band with colours.
std::string sky_obj_text(const std::array<uint8_t, 4>& header) {
    std::string obj = "mtllib sky.mtl\n";
    int base = 1;
    for (int s = 0; s < 2; ++s) {
        const bool textured = s == 0;
        obj += fmt::format("o shell_{}\n", s);
        for (int r = 0; r <= 2; ++r)
            for (int a = 0; a <= 12; ++a) {
                const double el = 0.4 * r, az = 2 * std::numbers::pi * a / 12, radius = textured ? 20 : 15;
                const double x = radius * std::cos(el) * std::cos(az), y = radius * std::cos(el) * std::sin(az), z = radius * std::sin(el);
                const double alpha = 1.0 - 0.3 * r;
                obj += textured ? fmt::format("v {} {} {}\n", x, z, -y)
                                : fmt::format("v {} {} {} {:.4f} {:.4f} {:.4f}\n", x, z, -y, header[0] / 255.0 * alpha, header[1] / 255.0 * alpha,
                                              header[2] / 255.0 * alpha);
                if (textured) obj += fmt::format("vt {} {}\n", a / 12.0, 1 - r / 2.0);
            }
        for (int r = 0; r < 2; ++r) {
            obj += textured ? fmt::format("usemtl sky_{:03d}\n", 1 + r) : std::string("usemtl sky_gradient\n");
            for (int a = 0; a < 12; ++a) {
                const int v = base + r * 13 + a;
                obj += textured ? fmt::format("f {0}/{0} {1}/{1} {2}/{2}\nf {0}/{0} {2}/{2} {3}/{3}\n", v, v + 1, v + 14, v + 13)
                                : fmt::format("f {} {} {}\nf {} {} {}\n", v, v + 1, v + 14, v, v + 14, v + 13);
            }
        }
        base += 39;
    }
    return obj;
}

}  // namespace sky_import

TEST_CASE("sky/sky.obj saved as a model file becomes the level's sky shells, textures and header kept") {
    const auto disc = tree::open_disc(small_disc().path, 64 << 20);
    const tree::LevelScan& level = disc->level(0);
    const formats::CoreRegion* region = level.region("sky");
    REQUIRE(region);
    edit::LevelParts parts(level_container(*disc, 0));
    const auto old_core = *parts.content("core_data");
    const auto old = formats::parse_sky(formats::ByteSpan(old_core).subspan(region->offset, region->size));
    REQUIRE(old.ok());
    REQUIRE(old->header.texture_count >= 3);

    SUBCASE("two shells, one textured and one gradient, read back; the textures and header as they were") {
        const std::string status = edit::apply_sky(parts, level, sky_import::bytes_of(sky_obj_text(old->header.rgba)));
        CHECK(status.find("2 shells (shell 0 textured, 48 faces in") == 0);
        const auto rebuilt = parts.rebuild();
        REQUIRE(rebuilt.ok());
        const auto next = edit::open_edited_disc(small_disc().path, *disc, {{edit::ContainerKey{edit::ContainerKey::level, 0}, *rebuilt}},
                                                 std::make_shared<cache::LruCache>(64 << 20), [] { return std::string(); });
        const formats::CoreRegion* now = next->level(0).region("sky");
        REQUIRE(now);
        const auto core = *edit::LevelParts(*rebuilt).content("core_data");
        const formats::ByteSpan block = formats::ByteSpan(core).subspan(now->offset, now->size);
        const auto sky = formats::parse_sky(block);
        REQUIRE(sky.ok());
        CHECK(sky->header.rgba == old->header.rgba);
        CHECK(sky->header.clear_screen == old->header.clear_screen);
        CHECK(sky->header.texture_count == old->header.texture_count);
        const auto meshes = formats::sky_meshes(block, *sky);
        REQUIRE(meshes.ok());
        REQUIRE(meshes->size() == 2);
        CHECK((*meshes)[0].textured);
        CHECK_FALSE((*meshes)[1].textured);
        CHECK((*meshes)[0].faces.size() == 48);
        CHECK((*meshes)[1].faces.size() == 48);
        // The gradient's alpha: 1.0 at the horizon, 0.4 on the top ring (within 1/255 and the stored halving).
        const auto [low, high] = std::minmax_element((*meshes)[1].alpha.begin(), (*meshes)[1].alpha.end());
        CHECK(*high == 255);
        CHECK(std::abs(*low - 102) <= 2);
        CHECK(edit::failing_checks(*next, 0) == edit::failing_checks(*disc, 0));
        for (int t = 0; t < old->header.texture_count; ++t) {
            const std::string png = fmt::format("LEVEL00/sky/sky_{:03d}.png", t);
            CHECK(file_text(*next, png) == file_text(*disc, png));
        }
    }
    SUBCASE("an object mixing textured and untextured faces is refused with its name") {
        std::string mixed = sky_obj_text(old->header.rgba);
        mixed.replace(mixed.find("usemtl sky_002"), 14, "usemtl sky_gradient");
        CHECK_THROWS_WITH_AS(edit::apply_sky(parts, level, sky_import::bytes_of(mixed)), doctest::Contains("object \"shell_0\" mixes"), edit::EditRefused);
    }
}
