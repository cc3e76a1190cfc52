// Terrain from a mesh (issue 56): a mesh through the tfrag compiler, the
// writer and the reader comes back as the same triangles, and
// tfrag/terrain.obj saved as a model file becomes the level's tfrags.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "cache/lru_cache.h"
#include "disc_fixture.h"
#include "edit/edit_kinds.h"
#include "edit/edited_disc.h"
#include "edit/level_parts.h"
#include "edit/terrain_edit.h"
#include "formats/export/png.h"
#include "formats/export/png_read.h"
#include "formats/import/mesh_optimizer.h"
#include "formats/occlusion/occlusion.h"
#include "formats/tfrag/tfrag_compile.h"
#include "formats/tfrag/tfrag_mesh.h"
#include "formats/tfrag/tfrag_read.h"

using namespace gcfs;
using formats::Bytes;

namespace {

using Corner = std::array<int64_t, 3>;  // 1/1024 world units
// An oriented triangle, turned so its smallest corner leads, with its texture.
using Face = std::pair<std::array<Corner, 3>, int32_t>;

Face face_of(std::array<Corner, 3> c, int32_t texture) {
    const auto first = std::min_element(c.begin(), c.end()) - c.begin();
    std::rotate(c.begin(), c.begin() + first, c.end());
    return {c, texture};
}

Corner corner_of(const std::array<double, 3>& p) { return {std::llround(p[0] * 1024), std::llround(p[1] * 1024), std::llround(p[2] * 1024)}; }

// A height field of n × n cells of `cell` world units, two textures in bands, a colour per vertex.
formats::TerrainMeshIn height_field(int n, double cell) {
    formats::TerrainMeshIn mesh;
    for (int r = 0; r <= n; ++r)
        for (int c = 0; c <= n; ++c) {
            mesh.positions.push_back({100 + c * cell, -50 + r * cell, 3 * std::sin(c * 0.4) + 2 * std::cos(r * 0.3)});
            mesh.colours.push_back({static_cast<uint8_t>(r * 7), static_cast<uint8_t>(c * 5), 0x40, 0x80});
            mesh.lights.push_back(std::nullopt);
        }
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            const auto a = static_cast<uint32_t>(r * (n + 1) + c), b = a + 1, d = a + static_cast<uint32_t>(n + 1), e = d + 1;
            const int32_t texture = (r / 4) % 2 ? 3 : 1;
            auto st = [&](uint32_t v) { return std::array<double, 2>{(v % (n + 1)) / 8.0, (v / (n + 1)) / 8.0}; };
            mesh.triangles.push_back({{a, b, e}, {st(a), st(b), st(e)}, texture});
            mesh.triangles.push_back({{a, e, d}, {st(a), st(e), st(d)}, texture});
        }
    return mesh;
}

std::multiset<Face> faces_in(const formats::TerrainMeshIn& mesh) {
    std::multiset<Face> out;
    for (const auto& t : mesh.triangles)
        out.insert(face_of({corner_of(mesh.positions[t.corners[0]]), corner_of(mesh.positions[t.corners[1]]), corner_of(mesh.positions[t.corners[2]])},
                           t.texture));
    return out;
}

// Every patch of a written block at one LOD, as faces; REQUIREs every patch to read.
std::multiset<Face> faces_in(const Bytes& block, int lod, std::map<Corner, formats::TfragRgba>* colours = nullptr) {
    const auto header = formats::parse_tfrags_header(block);
    REQUIRE(header.ok());
    std::multiset<Face> out;
    for (uint32_t i = 0; i < static_cast<uint32_t>(header->tfrag_count); ++i) {
        const auto patch = formats::read_tfrag_patch(block, *header, i);
        REQUIRE(patch.ok());
        const auto mesh = formats::tfrag_lod_mesh(*patch, lod);
        REQUIRE(mesh.ok());
        for (size_t t = 0; t < mesh->triangles.size(); ++t) {
            const auto& tri = mesh->triangles[t];
            out.insert(face_of({corner_of(mesh->positions[tri[0]]), corner_of(mesh->positions[tri[1]]), corner_of(mesh->positions[tri[2]])},
                               mesh->triangle_texture[t]));
        }
        if (colours)
            for (size_t v = 0; v < mesh->positions.size(); ++v) (*colours)[corner_of(mesh->positions[v])] = mesh->colours[v];
    }
    return out;
}

}  // namespace

TEST_CASE("meshoptimizer's strips come back as the triangles they were made from, none degenerate") {
    const auto mesh = height_field(9, 1.0);
    std::vector<uint32_t> indices;
    std::multiset<std::array<uint32_t, 3>> wanted;
    for (const auto& t : mesh.triangles) {
        indices.insert(indices.end(), t.corners.begin(), t.corners.end());
        auto c = t.corners;
        std::rotate(c.begin(), std::min_element(c.begin(), c.end()), c.end());
        wanted.insert(c);
    }
    const auto strips = formats::triangle_strips(indices, mesh.positions.size());
    REQUIRE(strips.ok());
    std::multiset<std::array<uint32_t, 3>> got;
    for (const auto& s : *strips)
        for (size_t j = 0; j + 2 < s.size(); ++j) {
            std::array<uint32_t, 3> c = j % 2 ? std::array<uint32_t, 3>{s[j + 1], s[j], s[j + 2]} : std::array<uint32_t, 3>{s[j], s[j + 1], s[j + 2]};
            CHECK((c[0] != c[1] && c[1] != c[2] && c[0] != c[2]));
            std::rotate(c.begin(), std::min_element(c.begin(), c.end()), c.end());
            got.insert(c);
        }
    CHECK(got == wanted);
}

TEST_CASE("a height field through the tfrag compiler, writer and reader comes back as the same triangles") {
    const auto mesh = height_field(40, 0.75);  // 3,200 triangles: many patches, cut to the writer's limits
    formats::TerrainCompileOptions options;
    options.mip_dist = 300;
    const auto compiled = formats::compile_terrain(mesh, options);
    REQUIRE_MESSAGE(compiled.ok(), compiled.error().describe());
    CHECK(compiled->patches.size() >= 3200 / 255);
    CHECK(compiled->dropped_triangles == 0);
    const Bytes block = formats::write_tfrags(compiled->patches);
    std::map<Corner, formats::TfragRgba> colours;
    CHECK(faces_in(block, 0, &colours) == faces_in(mesh));
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
        const formats::TfragRgba want = mesh.colours[i], got = colours.at(corner_of(mesh.positions[i]));
        CHECK((got.r == want.r && got.g == want.g && got.b == want.b && got.a == want.a));
    }
    // The lower LODs: fewer triangles, over the same ground (every corner one of LOD 0's).
    const auto lod1 = faces_in(block, 1), lod2 = faces_in(block, 2);
    CHECK(lod1.size() < mesh.triangles.size());
    CHECK(lod2.size() <= lod1.size());
    CHECK(lod2.size() > 0);
    for (const auto& f : lod2)
        for (const auto& c : f.first) CHECK(colours.count(c) == 1);
    for (size_t i = 0; i < compiled->patches.size(); ++i) {
        CHECK(compiled->patches[i].occl_index == i);
        CHECK(compiled->patches[i].mip_dist == 300);
    }
}

TEST_CASE("the tfrag compiler's limits: each refused with the number that does not fit") {
    SUBCASE("a triangle wider than a patch's s16 positions reach") {
        formats::TerrainMeshIn mesh;
        mesh.positions = {{0, 0, 0}, {100, 0, 0}, {0, 1, 0}};
        mesh.colours.assign(3, {});
        mesh.lights.assign(3, std::nullopt);
        mesh.triangles = {{{0, 1, 2}, {}, 0}};
        const auto compiled = formats::compile_terrain(mesh, {});
        REQUIRE_FALSE(compiled.ok());
        CHECK(compiled.error().message.find("triangle 1 does not fit a tfrag patch alone: a span of 100.000 world units along x") == 0);
    }
    SUBCASE("a texture coordinate past the s16 that holds it") {
        auto mesh = height_field(2, 1.0);
        mesh.triangles[3].st[1] = {9.5, 0};
        const auto compiled = formats::compile_terrain(mesh, {});
        REQUIRE_FALSE(compiled.ok());
        CHECK(compiled.error().message == "triangle 4: the texture coordinate 9.5 lies outside [-4, 8), the range formats.md 7.6's s16 holds");
    }
    SUBCASE("a triangle smaller than a quantum is dropped and counted") {
        auto mesh = height_field(2, 1.0);
        mesh.positions.push_back({100.0001, -50, 5});
        mesh.colours.push_back({});
        mesh.lights.push_back(std::nullopt);
        mesh.triangles.push_back({{0, 1, static_cast<uint32_t>(mesh.positions.size() - 1)}, {}, 1});
        mesh.triangles.back().corners = {0, static_cast<uint32_t>(mesh.positions.size() - 1), 1};
        mesh.positions.back() = mesh.positions[0];
        const auto compiled = formats::compile_terrain(mesh, {});
        REQUIRE(compiled.ok());
        CHECK(compiled->dropped_triangles == 1);
    }
}

namespace {

// A y-up OBJ of an n × n height field, as Blender writes one: v with colours, vt, usemtl per band.
std::string height_field_obj(int n, double cell, bool with_colours) {
    std::string obj = "mtllib terrain.mtl\no terrain\n";
    for (int r = 0; r <= n; ++r)
        for (int c = 0; c <= n; ++c) {
            const double x = 10 + c * cell, y = 20 + r * cell, z = 1 + std::sin(c * 0.5) * std::cos(r * 0.25);
            obj += fmt::format("v {} {} {}", x, z, -y);
            if (with_colours) obj += fmt::format(" {:.3f} {:.3f} 0.250", r / double(n), c / double(n));
            obj += "\n";
        }
    for (int r = 0; r <= n; ++r)
        for (int c = 0; c <= n; ++c) obj += fmt::format("vt {} {}\n", c * 2.0 / n, 1 - r * 2.0 / n);
    for (int r = 0; r < n; ++r) {
        obj += fmt::format("usemtl tfrag_{:03d}\n", r % 2);
        for (int c = 0; c < n; ++c) {
            const int a = r * (n + 1) + c + 1, b = a + 1, d = a + n + 1, e = d + 1;
            obj += fmt::format("f {0}/{0} {1}/{1} {2}/{2}\nf {0}/{0} {2}/{2} {3}/{3}\n", a, b, e, d);
        }
    }
    return obj;
}

formats::ByteSpan bytes_of(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

}  // namespace

TEST_CASE("tfrag/terrain.obj saved as a model file becomes the level's tfrags, every check kept") {
    const auto disc = tree::open_disc(small_disc().path, 64 << 20);
    const tree::LevelScan& level = disc->level(0);
    const formats::CoreRegion* region = level.region("tfrag");
    REQUIRE(region);
    edit::LevelParts parts(level_container(*disc, 0));

    auto reopened = [&] {
        const auto rebuilt = parts.rebuild();
        REQUIRE(rebuilt.ok());
        return edit::open_edited_disc(small_disc().path, *disc, {{edit::ContainerKey{edit::ContainerKey::level, 0}, *rebuilt}},
                                      std::make_shared<cache::LruCache>(64 << 20), [] { return std::string(); });
    };
    SUBCASE("a 16 x 16 height field with colours reads back from the new disc; what did not change reads as before") {
        const std::string status = edit::apply_terrain(parts, level, bytes_of(height_field_obj(16, 1.5, true)));
        CHECK(status.find("512 triangles in ") == 0);
        CHECK(status.find("colours from the file") != std::string::npos);
        const auto next = reopened();
        const formats::CoreRegion* now = next->level(0).region("tfrag");
        REQUIRE(now);
        const auto core = *edit::LevelParts(parts.rebuild().value()).content("core_data");
        std::map<Corner, formats::TfragRgba> colours;
        const Bytes block(core.begin() + static_cast<int64_t>(now->offset), core.begin() + static_cast<int64_t>(now->offset + now->size));
        const auto faces = faces_in(block, 0, &colours);
        CHECK(faces.size() == 512);
        // The corner (x 10, y 20) has colour (0, 0, 0.25), as the OBJ wrote it.
        const auto corner = colours.at({10 * 1024, 20 * 1024, std::llround((1 + std::sin(0) * std::cos(0)) * 1024)});
        CHECK((corner.r == 0 && corner.g == 0 && corner.b == 64));
        CHECK(edit::failing_checks(*next, 0) == edit::failing_checks(*disc, 0));
        CHECK(file_text(*next, "LEVEL00/textures/tfrag_000.png") == file_text(*disc, "LEVEL00/textures/tfrag_000.png"));
        // The grid: every old octant keeps its mask; the octants over the new ground (x 10-34, y 20-44, z up to 2 + 16) name one with every bit set.
        const formats::CoreRegion* was = level.region("occlusion");
        const formats::CoreRegion* grid_now = next->level(0).region("occlusion");
        REQUIRE(grid_now);
        const auto old_grid = formats::read_occlusion_grid(formats::ByteSpan(*edit::LevelParts(level_container(*disc, 0)).content("core_data")).subspan(was->offset, was->size));
        const auto grid = formats::read_occlusion_grid(formats::ByteSpan(core).subspan(grid_now->offset, grid_now->size));
        REQUIRE(old_grid.ok());
        REQUIRE(grid.ok());
        for (const auto& [octant, mask] : old_grid->octants) CHECK(grid->octants.at(octant) == mask);
        for (uint16_t x = 2; x <= 8; ++x)
            for (uint16_t y = 5; y <= 11; ++y)
                for (uint16_t z = 0; z <= 4; ++z) {
                    CAPTURE(x);
                    CAPTURE(y);
                    CAPTURE(z);
                    REQUIRE(grid->octants.count({x, y, z}) == 1);
                    if (!old_grid->octants.count({x, y, z}))
                        CHECK(std::all_of(grid->masks.at(grid->octants.at({x, y, z})).begin(), grid->masks.at(grid->octants.at({x, y, z})).end(),
                                          [](uint8_t b) { return b == 0xFF; }));
                }
        CHECK(status.find("octants over the new ground") != std::string::npos);
        const std::string patches = status.substr(17, status.find(' ', 17) - 17);  // "512 triangles in N patches"
        CHECK(file_text(*next, "LEVEL00/tfrag/terrain.obj").find(fmt::format("LOD 0: {0} of {0} patches", patches)) != std::string::npos);
    }
    SUBCASE("a terrain larger than the region grows the core") {
        const std::string status = edit::apply_terrain(parts, level, bytes_of(height_field_obj(80, 0.5, false)));
        CHECK(status.find("the core's later blocks moved") != std::string::npos);
        const auto next = reopened();
        CHECK(next->level(0).region("tfrag")->size > region->size);
        CHECK(edit::failing_checks(*next, 0) == edit::failing_checks(*disc, 0));
        CHECK(file_text(*next, "LEVEL00/textures/tfrag_000.png") == file_text(*disc, "LEVEL00/textures/tfrag_000.png"));
        CHECK(file_text(*next, "LEVEL00/tfrag/terrain.obj").find("12800 triangles") != std::string::npos);
    }
    SUBCASE("a material that names no tfrag texture is refused with its name") {
        std::string bad = height_field_obj(4, 1.0, false);
        bad.replace(bad.find("usemtl tfrag_001"), 16, "usemtl grass");
        CHECK_THROWS_WITH_AS(edit::apply_terrain(parts, level, bytes_of(bad)), doctest::Contains("\"grass\""), edit::EditRefused);
    }
}

TEST_CASE("an occlusion grid read and written again is the same grid, byte for byte where Wrench's layout made it") {
    const auto disc = tree::open_disc(small_disc().path, 64 << 20);
    for (size_t l = 0; l < disc->scan.levels.size(); ++l) {
        const formats::CoreRegion* region = disc->level(l).region("occlusion");
        if (!region) continue;
        const auto core = *edit::LevelParts(level_container(*disc, l)).content("core_data");
        const formats::ByteSpan block = formats::ByteSpan(core).subspan(region->offset, region->size);
        const auto grid = formats::read_occlusion_grid(block);
        REQUIRE(grid.ok());
        CHECK(!grid->octants.empty());
        const auto written = formats::write_occlusion_grid(*grid);
        REQUIRE(written.ok());
        const auto again = formats::read_occlusion_grid(*written);
        REQUIRE(again.ok());
        CHECK(again->octants == grid->octants);
        CHECK(again->masks == grid->masks);
        CHECK(Bytes(block.begin(), block.begin() + static_cast<int64_t>(std::min(block.size(), written->size()))) == *written);
    }
}

TEST_CASE("an edit after one that grew the core finds what it edits where the growth moved it") {
    const auto disc = tree::open_disc(small_disc().path, 64 << 20);
    edit::LevelParts parts(level_container(*disc, 0));
    const std::string terrain = height_field_obj(80, 0.5, false);
    const std::string status = edit::apply_edit(parts, *disc, {{edit::ContainerKey::level, 0}, edit::kTerrainFile}, bytes_of(terrain));
    REQUIRE(status.find("the core's later blocks moved") != std::string::npos);
    // The level's first tfrag texture, flipped: its texels lie after the grown tfrag region.
    const std::string shown = file_text(*disc, "LEVEL00/textures/tfrag_000.png");
    auto be32 = [&](size_t at) { return uint32_t{uint8_t(shown[at])} << 24 | uint32_t{uint8_t(shown[at + 1])} << 16 | uint32_t{uint8_t(shown[at + 2])} << 8 | uint8_t(shown[at + 3]); };
    const auto picture = formats::png::read_rgba(bytes_of(shown), be32(16), be32(20));  // IHDR's width and height (PNG 11.2.2)
    REQUIRE(picture.ok());
    std::vector<formats::png::Rgba> flipped;
    for (uint32_t y = picture->height; y-- > 0;)
        for (uint32_t x = 0; x < picture->width; ++x) {
            const uint8_t* p = picture->rgba.data() + 4 * (uint64_t{y} * picture->width + x);
            flipped.push_back({p[0], p[1], p[2], p[3]});
        }
    const Bytes png = formats::png::write_rgba(picture->width, picture->height, flipped);
    edit::apply_edit(parts, *disc, {{edit::ContainerKey::level, 0}, "textures/tfrag_000.png"}, png);
    const auto rebuilt = parts.rebuild();
    REQUIRE(rebuilt.ok());
    const auto next = edit::open_edited_disc(small_disc().path, *disc, {{edit::ContainerKey{edit::ContainerKey::level, 0}, *rebuilt}},
                                             std::make_shared<cache::LruCache>(64 << 20), [] { return std::string(); });
    const std::string after = file_text(*next, "LEVEL00/textures/tfrag_000.png");
    const auto read = formats::png::read_rgba(bytes_of(after), picture->width, picture->height);
    REQUIRE(read.ok());
    CHECK(std::equal(read->rgba.begin(), read->rgba.end(), reinterpret_cast<const uint8_t*>(flipped.data())));
    CHECK(file_text(*next, "LEVEL00/textures/tfrag_001.png") == file_text(*disc, "LEVEL00/textures/tfrag_001.png"));
    CHECK(edit::failing_checks(*next, 0) == edit::failing_checks(*disc, 0));
}
