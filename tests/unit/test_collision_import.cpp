// Collision from a mesh (issue 56): a mesh through the compiler, the writer
// and the reader comes back as the same faces, and collision.obj saved as a
// model file becomes the level's collision block.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "cache/lru_cache.h"
#include "disc_fixture.h"
#include "edit/collision_edit.h"
#include "edit/edited_disc.h"
#include "edit/edit_kinds.h"
#include "edit/level_parts.h"
#include "formats/collision/collision_compile.h"
#include "formats/collision/collision_export.h"
#include "formats/import/model_read.h"

using namespace gcfs;
using formats::Bytes;

namespace {

// A face as the positions of its corners in 1/64 units, in the mesh's order, with its type.
using WorldFace = std::pair<std::vector<std::array<int64_t, 3>>, uint8_t>;

std::array<int64_t, 3> sixty_fourths(const std::array<double, 3>& p) {
    // x and y round to 1/16 (§8.3), then count in 1/64 as the merged mesh does.
    return {std::llround(p[0] * 16) * 4, std::llround(p[1] * 16) * 4, std::llround(p[2] * 64)};
}

std::multiset<WorldFace> faces_in(const formats::CollisionMeshIn& mesh) {
    std::multiset<WorldFace> out;
    for (const auto& f : mesh.faces) {
        WorldFace w{{}, f.type};
        for (int k = 0; k < f.corners; ++k) w.first.push_back(sixty_fourths(mesh.positions[f.v[k]]));
        out.insert(w);
    }
    return out;
}

// The merged mesh's faces, corners turned back to the mesh's order (they are stored reversed, §8.3 as Wrench reads).
std::multiset<WorldFace> faces_in(const formats::CollisionWorldMesh& merged) {
    std::multiset<WorldFace> out;
    for (const auto& f : merged.faces) {
        WorldFace w{{}, f.type};
        for (int k = f.corners; k-- > 0;) w.first.push_back(merged.positions[f.v[k]]);
        out.insert(w);
    }
    return out;
}

// Stairs of `steps` treads (quads) and risers (two triangles each), two surface types, from (x0, y0, z0).
formats::CollisionMeshIn stairs(double x0, double y0, double z0, int steps) {
    formats::CollisionMeshIn mesh;
    auto corner = [&](double x, double y, double z) {
        mesh.positions.push_back({x, y, z});
        return static_cast<uint32_t>(mesh.positions.size() - 1);
    };
    for (int s = 0; s < steps; ++s) {
        const double x = x0 + 1.5 * s, z = z0 + 0.75 * s, y1 = y0 + 6.0;
        const uint32_t a = corner(x, y0, z), b = corner(x + 1.5, y0, z), c = corner(x + 1.5, y1, z), d = corner(x, y1, z);
        mesh.faces.push_back({{a, b, c, d}, 4, 0x1f});
        const uint32_t e = corner(x + 1.5, y0, z + 0.75), f = corner(x + 1.5, y1, z + 0.75);
        mesh.faces.push_back({{b, e, f, 0}, 3, 0x05});
        mesh.faces.push_back({{b, f, c, 0}, 3, 0x05});
    }
    return mesh;
}

formats::CollisionWorldMesh round_trip(const formats::CollisionMeshIn& mesh) {
    auto octants = formats::compile_collision(mesh);
    REQUIRE_MESSAGE(octants.ok(), (octants.ok() ? "" : octants.error().describe()));
    formats::Collision c;
    c.octants = std::move(*octants);
    const Bytes block = formats::write_collision(c);
    auto merged = formats::merge_collision(block);
    REQUIRE_MESSAGE(merged.ok(), (merged.ok() ? "" : merged.error().describe()));
    return merged->mesh;
}

}  // namespace

TEST_CASE("a mesh through the collision compiler, writer and reader comes back as the same faces") {
    SUBCASE("stairs across octants, quads and triangles, two surface types") {
        const auto mesh = stairs(3.3, 5.1, 1.2, 9);
        CHECK(faces_in(round_trip(mesh)) == faces_in(mesh));
    }
    SUBCASE("at negative coordinates (§8.3's coordinates are s16)") {
        const auto mesh = stairs(-20.7, -3.05, -9.4, 5);
        CHECK(faces_in(round_trip(mesh)) == faces_in(mesh));
    }
    SUBCASE("corners off the packed grid round to within half a unit") {
        auto mesh = stairs(0.01, 0.02, 0.003, 3);
        for (auto& p : mesh.positions) p[2] += 0.007;  // 0.45 of a z unit
        const auto back = round_trip(mesh);
        for (const auto& p : back.positions) CHECK(p[0] % 4 == 0);  // x and y on the 1/16 grid
        CHECK(faces_in(back) == faces_in(mesh));
    }
}

TEST_CASE("the compiler files a face in every octant it touches and nowhere else") {
    formats::CollisionMeshIn mesh;
    // A floor triangle wholly inside octant (1, 1, 0), and a quad lying on the plane z = 4 (touching octants 0 and 1 in z).
    mesh.positions = {{4.5, 4.5, 1}, {5.5, 4.5, 1}, {5.5, 5.5, 1}, {8.5, 8.5, 4}, {9.5, 8.5, 4}, {9.5, 9.5, 4}, {8.5, 9.5, 4}};
    mesh.faces = {{{0, 1, 2, 0}, 3, 1}, {{3, 4, 5, 6}, 4, 2}};
    const auto octants = formats::compile_collision(mesh);
    REQUIRE(octants.ok());
    std::map<std::array<int32_t, 3>, size_t> faces;
    for (const auto& o : *octants) faces[o.coord] = o.faces.size();
    const std::map<std::array<int32_t, 3>, size_t> expected = {{{1, 1, 0}, 1}, {{2, 2, 0}, 1}, {{2, 2, 1}, 1}};
    CHECK(faces == expected);
    for (const auto& o : *octants)
        for (const auto& f : o.faces) CHECK(f.quad == (f.type == 2));
}

TEST_CASE("what the collision fields cannot hold is refused with the number") {
    SUBCASE("a face too large for its octants' packed corners") {
        formats::CollisionMeshIn mesh;
        mesh.positions = {{0, 0, 0}, {100, 0, 0}, {0, 100, 0}};
        mesh.faces = {{{0, 1, 2, 0}, 3, 1}};
        const auto octants = formats::compile_collision(mesh);
        REQUIRE_FALSE(octants.ok());
        CHECK(octants.error().message.find("split the face") != std::string::npos);
    }
    SUBCASE("more than 255 corners in one octant") {
        formats::CollisionMeshIn mesh;
        for (int i = 0; i < 100; ++i) {  // 300 corners on the packed grid, all inside octant (0, 0, 0)
            const double x = 0.5 + (i % 10) * 0.25, y = 0.5 + (i / 10) * 0.25;
            mesh.positions.push_back({x, y, 0.5});
            mesh.positions.push_back({x, y + 0.125, 0.5});
            mesh.positions.push_back({x, y, 1.5});
            const auto base = static_cast<uint32_t>(3 * i);
            mesh.faces.push_back({{base, base + 1, base + 2, 0}, 3, 0});
        }
        const auto octants = formats::compile_collision(mesh);
        REQUIRE_FALSE(octants.ok());
        CHECK(octants.error().message.find("more than 255 corners") != std::string::npos);
    }
    SUBCASE("a face naming a vertex the mesh lacks") {
        formats::CollisionMeshIn mesh;
        mesh.positions = {{0, 0, 0}};
        mesh.faces = {{{0, 1, 2, 0}, 3, 0}};
        CHECK_FALSE(formats::compile_collision(mesh).ok());
    }
}

TEST_CASE("collision.obj saved as a model file becomes the level's collision block, hero groups kept") {
    const auto disc = tree::open_disc(small_disc().path, 64 << 20);
    const tree::LevelScan& level = disc->level(0);
    const formats::CoreRegion* region = level.region("collision");
    REQUIRE(region);
    edit::LevelParts parts(level_container(*disc, 0));
    const auto old_core = *parts.content("core_data");
    const auto old = formats::parse_collision(formats::ByteSpan(old_core).subspan(region->offset, region->size));
    REQUIRE(old.ok());

    // An OBJ as Blender writes one: y up (the game's (x, y, z) as (x, z, -y)), usemtl per surface type, a hero object.
    std::string obj = "mtllib collision.mtl\no collision\n";
    const auto mesh = stairs(2.5, 3.5, 1.25, 6);
    for (const auto& p : mesh.positions) obj += fmt::format("v {} {} {}\n", p[0], p[2], -p[1]);
    uint8_t current = 0xff;
    for (const auto& f : mesh.faces) {
        if (f.type != current) obj += fmt::format("usemtl {}\n", formats::collision_material_name(current = f.type));
        obj += "f";
        for (int k = 0; k < f.corners; ++k) obj += fmt::format(" {}", f.v[k] + 1);
        obj += "\n";
    }
    obj += "o hero_0\nusemtl hero\nf 1 2 3\n";

    SUBCASE("written, read back") {
        const std::string status = edit::apply_collision(parts, level, formats::ByteSpan(reinterpret_cast<const uint8_t*>(obj.data()), obj.size()));
        CHECK(status.find("18 faces") == 0);
        CHECK(status.find("1 faces under usemtl hero not read") != std::string::npos);
        const auto core = *parts.content("core_data");
        REQUIRE(core.size() == old_core.size());
        CHECK(std::equal(core.begin(), core.begin() + static_cast<int64_t>(region->offset), old_core.begin()));  // nothing before it moved
        CHECK(std::equal(core.begin() + static_cast<int64_t>(region->offset + region->size), core.end(),
                         old_core.begin() + static_cast<int64_t>(region->offset + region->size)));  // nor after
        const auto merged = formats::merge_collision(formats::ByteSpan(core).subspan(region->offset, region->size));
        REQUIRE(merged.ok());
        CHECK(faces_in(merged->mesh) == faces_in(mesh));
        CHECK(merged->header.hero_groups.size() == old->hero_groups.size());
    }
    SUBCASE("a material that names no surface type is refused with its name") {
        std::string bad = obj;
        bad.replace(bad.find("usemtl col_1f"), 13, "usemtl grass1");
        CHECK_THROWS_WITH_AS(edit::apply_collision(parts, level, formats::ByteSpan(reinterpret_cast<const uint8_t*>(bad.data()), bad.size())),
                             doctest::Contains("\"grass1\""), edit::EditRefused);
    }
    SUBCASE("a block past the level's collision region grows the core; what follows it reads as before") {
        std::string big = "o collision\nusemtl col_01\n";
        formats::CollisionMeshIn wanted;
        for (int i = 0; i < 160; ++i)
            for (int j = 0; j < 40; ++j) {
                const double x = 1.0 * i, y = 1.0 * j;
                big += fmt::format("v {} 0 {}\nv {} 0 {}\nv {} 0.5 {}\nf -3 -2 -1\n", x, -y, x + 1, -y, x, -y - 1);
                const auto n = static_cast<uint32_t>(wanted.positions.size());
                wanted.positions.insert(wanted.positions.end(), {{x, y, 0}, {x + 1, y, 0}, {x, y + 1, 0.5}});
                wanted.faces.push_back({{n, n + 1, n + 2, 0}, 3, 1});
            }
        const std::string status = edit::apply_collision(parts, level, formats::ByteSpan(reinterpret_cast<const uint8_t*>(big.data()), big.size()));
        CHECK(status.find("the core's later blocks moved") != std::string::npos);
        const auto rebuilt = parts.rebuild();
        REQUIRE(rebuilt.ok());
        const auto next = edit::open_edited_disc(small_disc().path, *disc, {{edit::ContainerKey{edit::ContainerKey::level, 0}, *rebuilt}},
                                                 std::make_shared<cache::LruCache>(64 << 20), [] { return std::string(); });
        const formats::CoreRegion* grown = next->level(0).region("collision");
        REQUIRE(grown);
        CHECK(grown->size > region->size);
        const auto core = *edit::LevelParts(*rebuilt).content("core_data");
        const auto merged = formats::merge_collision(formats::ByteSpan(core).subspan(grown->offset, grown->size));
        REQUIRE(merged.ok());
        CHECK(faces_in(merged->mesh) == faces_in(wanted));
        // Every check the level passed, it passes (the textures and classes moved with their offsets).
        CHECK(edit::failing_checks(*next, 0) == edit::failing_checks(*disc, 0));
        CHECK(file_text(*next, "LEVEL00/textures/tfrag_000.png") == file_text(*disc, "LEVEL00/textures/tfrag_000.png"));
    }
    SUBCASE("bytes no model reader takes are refused") {
        const std::string junk = "\x01\x02 not a model";
        CHECK_THROWS_AS(edit::apply_collision(parts, level, formats::ByteSpan(reinterpret_cast<const uint8_t*>(junk.data()), junk.size())),
                        edit::EditRefused);
    }
}
