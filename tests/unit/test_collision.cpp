// The collision block (formats.md §8.3): packing, writer/reader round trips,
// the merged OBJ, and a reader that reports every kind of damage.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "formats/collision/collision.h"
#include "formats/collision/collision_export.h"
#include "mkdisc/collision.h"
#include "mkdisc/damage.h"

namespace test_collision {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats;

namespace {

// A sloping plane whose cells cross from octant layer 0 into layer 1, so
// some faces are stored in two octants.
double plane_height(double x, double y) { return 3.0 + 0.1 * x - 0.05 * y; }

mkdisc::Terrain plane(double extent) {
    mkdisc::Terrain t;
    t.extent = extent;
    t.height = plane_height;
    return t;
}

Collision sample(double extent = 24, uint64_t seed = 7) {
    mkdisc::Random random(seed);
    return mkdisc::make_collision(plane(extent), 2.0, random);
}

CollisionOctant one_octant(std::vector<std::array<int16_t, 3>> vertices, std::vector<CollisionFace> faces) {
    CollisionOctant o;
    o.coord = {1, 2, 3};
    o.vertices = std::move(vertices);
    o.faces = std::move(faces);
    return o;
}

Errc parse_error(const Bytes& block) {
    auto parsed = parse_collision(block);
    REQUIRE_FALSE(parsed.ok());
    return parsed.error().code;
}

// The offset of the first octant of a written block (mesh at 0x40, one z,
// one y node: root 4 + 2, z node at 8, y node at 8 + 8).
uint64_t first_octant(const Bytes& block) {
    const uint64_t mesh = u32_at(block, 0);
    const uint64_t z = mesh + 4ull * u16_at(block, mesh + 4);
    const uint64_t y = mesh + u32_at(block, z + 4);
    return mesh + (u32_at(block, y + 4) >> 8);
}

}  // namespace

TEST_CASE("collision vertices pack x and y in 10 signed bits and z in 12 (§8.3)") {
    for (const std::array<int16_t, 3> v : {std::array<int16_t, 3>{0, 0, 0}, {-512, 511, -2048}, {511, -512, 2047}, {-1, -1, -1}}) {
        CHECK(collision_vertex_fits(v));
        CHECK(unpack_collision_vertex(pack_collision_vertex(v)) == v);
    }
    // x = 1 (1/16 unit), y = -1, z = -1: 0xfff00000 | 0xffc00 | 0x001.
    CHECK(pack_collision_vertex({1, -1, -1}) == 0xfffffc01u);
    CHECK_FALSE(collision_vertex_fits({512, 0, 0}));
    CHECK_FALSE(collision_vertex_fits({0, 0, 2048}));
}

TEST_CASE("an octant's x entry counts 16-byte units of counts, vertices, faces and v3 bytes") {
    CHECK(collision_octant_qwords(0, 0, 0) == 1);  // 4 bytes of counts
    CHECK(collision_octant_qwords(2, 1, 0) == 1);  // 4 + 8 + 4 = 16
    CHECK(collision_octant_qwords(2, 1, 1) == 2);  // one v3 byte more
    CHECK(collision_octant_qwords(9, 4, 4) == 4);  // 4 + 36 + 16 + 4 = 60
}

TEST_CASE("collision written by the builder reads back exactly") {
    const Collision original = sample();
    const Bytes block = write_collision(original);
    auto parsed = parse_collision(block);
    REQUIRE(parsed.ok());
    CHECK(parsed->mesh_offset == 0x40);  // Wrench aligns the mesh to 0x40
    CHECK(parsed->hero_groups_offset % 0x40 == 0);
    REQUIRE(parsed->octants.size() == original.octants.size());
    for (size_t i = 0; i < original.octants.size(); ++i) {
        const auto& a = original.octants[i];
        const auto& b = parsed->octants[i];
        CHECK(a.coord == b.coord);
        CHECK(a.vertices == b.vertices);
        REQUIRE(a.faces.size() == b.faces.size());
        for (size_t f = 0; f < a.faces.size(); ++f) {
            CHECK(a.faces[f].quad == b.faces[f].quad);
            CHECK(a.faces[f].type == b.faces[f].type);
            CHECK(a.faces[f].v == b.faces[f].v);
        }
    }
    REQUIRE(parsed->hero_groups.size() == 2);
    for (size_t g = 0; g < 2; ++g) {
        CHECK(parsed->hero_groups[g].bsphere == original.hero_groups[g].bsphere);
        CHECK(parsed->hero_groups[g].vertices == original.hero_groups[g].vertices);
        CHECK(parsed->hero_groups[g].triangles == original.hero_groups[g].triangles);
    }
}

TEST_CASE("merging octant copies gives every cell of the surface exactly once") {
    // 24 world units of 2-unit cells: 12 × 12 cells, 13 × 13 corners. Cells
    // whose height span crosses an octant layer are stored twice.
    const Collision c = sample(24);
    uint64_t stored = 0;
    for (const auto& o : c.octants) stored += o.faces.size();
    const CollisionWorldMesh mesh = merge_collision_octants(c.octants);
    uint64_t quads = 0, triangles = 0;
    for (const auto& f : mesh.faces) (f.corners == 4 ? quads : triangles) += 1;
    CHECK(mesh.positions.size() == 13 * 13);
    CHECK(quads + triangles / 2 == 12 * 12);
    CHECK(triangles % 2 == 0);
    CHECK(stored > quads + triangles);  // the plane crosses layers: some faces were stored twice
    // Every face lies on the plane and faces up (+z) once its corners are
    // reversed, as the OBJ writes them.
    for (const auto& f : mesh.faces) {
        const auto& a = mesh.positions[f.v[f.corners - 1]];
        const auto& b = mesh.positions[f.v[f.corners - 2]];
        const auto& d = mesh.positions[f.v[f.corners - 3]];
        const double ux = (b[0] - a[0]) / 64.0, uy = (b[1] - a[1]) / 64.0, uz = (b[2] - a[2]) / 64.0;
        const double vx = (d[0] - a[0]) / 64.0, vy = (d[1] - a[1]) / 64.0, vz = (d[2] - a[2]) / 64.0;
        const double normal_z = ux * vy - uy * vx;
        CHECK(normal_z > 0);
        (void)uz;
        (void)vz;
        for (int k = 0; k < f.corners; ++k) {
            const auto& p = mesh.positions[f.v[k]];
            const double expected = plane_height(p[0] / 64.0, p[1] / 64.0);
            CHECK(std::fabs(p[2] / 64.0 - expected) <= 1.0 / 64);  // z is stored in 1/64 units
        }
    }
}

TEST_CASE("collision.obj has the size its summary predicts and the counts it claims") {
    const Collision c = sample(40, 3);
    const CollisionSourceInfo source{"LEVEL07", 12, 0x1234};
    const CollisionSummary s = summarize_collision(c, source);
    const std::string obj = render_collision_obj(c, source);
    CHECK(obj.size() == s.obj_size);
    std::istringstream lines(obj);
    std::string line;
    uint64_t v = 0, quads = 0, triangles = 0, objects = 0, materials = 0;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string kind;
        words >> kind;
        if (kind == "v") ++v;
        if (kind == "o") ++objects;
        if (kind == "usemtl") ++materials;
        if (kind != "f") continue;
        uint64_t index, corners = 0;
        while (words >> index) {
            CHECK(index >= 1);
            CHECK(index <= s.vertices + s.hero_vertices);
            ++corners;
        }
        (corners == 4 ? quads : triangles) += 1;
    }
    CHECK(v == s.vertices + s.hero_vertices);
    CHECK(quads == s.quads);
    CHECK(triangles == s.triangles + s.hero_triangles);
    CHECK(objects == 1 + s.hero_groups);
    CHECK(materials == s.surface_types + s.hero_groups);
    CHECK(s.hero_triangles == 12);  // two fences of three gaps, two triangles each
}

TEST_CASE("a damaged collision block is reported with the invariant it breaks") {
    const Bytes good = write_collision(sample());
    REQUIRE(parse_collision(good).ok());

    SUBCASE("an x entry declares more qwords than its counts need") {
        Bytes bad = good;
        mkdisc::damage_collision(bad, mkdisc::Damage::collision_size);
        CHECK(parse_error(bad) == Errc::size_mismatch);
    }
    SUBCASE("a face names a vertex past the octant's count") {
        Bytes bad = good;
        const uint64_t o = first_octant(bad);
        bad[o + 4 + 4ull * bad[o + 2]] = bad[o + 2];  // face 0's v0 = vertex_count
        CHECK(parse_error(bad) == Errc::out_of_range);
    }
    SUBCASE("more quads than faces") {
        Bytes bad = good;
        const uint64_t o = first_octant(bad);
        bad[o + 3] = static_cast<uint8_t>(u16_at(bad, o) + 1);
        CHECK(parse_error(bad) == Errc::bad_value);
    }
    SUBCASE("the block ends inside the tree") {
        Bytes cut(good.begin(), good.begin() + 0x48);
        std::fill(cut.begin() + 4, cut.begin() + 8, 0);  // no hero groups: the mesh runs to the cut
        CHECK(parse_error(cut) == Errc::truncated);
    }
    SUBCASE("the mesh offset points past the block") {
        Bytes bad = good;
        bad[2] = 0x7f;
        CHECK(parse_error(bad) == Errc::out_of_range);
    }
    SUBCASE("the hero groups start before the mesh") {
        Bytes bad = good;
        bad[4] = 0x20; bad[5] = 0; bad[6] = 0; bad[7] = 0;
        CHECK(parse_error(bad) == Errc::out_of_range);
    }
    SUBCASE("a hero triangle names a vertex past its group") {
        Bytes bad = good;
        const uint64_t groups = u32_at(bad, 4);
        const uint64_t data = groups + u32_at(bad, groups + 0x10 + 12);
        const uint16_t vertices = u16_at(bad, groups + 0x10 + 10);
        bad[data + 8ull * vertices] = static_cast<uint8_t>(vertices);
        CHECK(parse_error(bad) == Errc::out_of_range);
    }
    SUBCASE("shared nodes cannot multiply the work without bound") {
        // 200 z slots all naming one z node whose 200 y slots all name one
        // y node of 200 x entries: 8 million octant visits from 3 KB.
        ByteWriter w;
        w.s32(0x40); w.s32(0);
        w.pad_to(0x40);
        const uint64_t mesh = w.size();
        w.s16(0); w.u16(200);
        const uint64_t z_node = align_up(4 + 400, 4);
        for (int i = 0; i < 200; ++i) w.u16(static_cast<uint16_t>(z_node / 4));
        w.pad_to(4);
        const uint64_t y_node = z_node + 4 + 800;
        w.s16(0); w.u16(200);
        for (int i = 0; i < 200; ++i) w.u32(static_cast<uint32_t>(y_node));
        w.s16(0); w.u16(200);
        for (int i = 0; i < 200; ++i) w.u32(0);
        REQUIRE(w.size() - mesh == y_node + 4 + 800);
        CHECK(parse_error(w.bytes()) == Errc::too_large);
    }
}

TEST_CASE("the writer refuses what the format cannot hold") {
    Collision c;
    CollisionFace tri{{0, 1, 2, 0}, 0x1f, false};
    CollisionFace quad{{0, 1, 2, 3}, 0x1f, true};
    c.octants = {one_octant({{0, 0, 0}, {16, 0, 0}, {0, 0, 64}, {16, 0, 64}}, {tri, quad})};
    CHECK_THROWS(write_collision(c));  // quads must come first
    c.octants = {one_octant({{600, 0, 0}, {16, 0, 0}, {0, 0, 64}}, {tri})};
    CHECK_THROWS(write_collision(c));  // x outside 10 signed bits
    c.octants = {one_octant({{0, 0, 0}, {16, 0, 0}, {0, 0, 64}}, {tri}), one_octant({{0, 0, 0}}, {})};
    CHECK_THROWS(write_collision(c));  // two octants at one coordinate
}

}  // namespace test_collision
