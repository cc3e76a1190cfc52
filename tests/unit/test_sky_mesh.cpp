// The sky's shells as meshes (formats-tie-sky.md B.4, B.5): Wrench's own sky
// vector decodes to the triangles its reader listed, and every check once.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <sstream>

#include "formats/sky/sky_mesh.h"
#include "mkdisc/random.h"
#include "mkdisc/sky.h"
#include "tests/unit/gameplay_vectors.h"

namespace test_sky_mesh {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats;

namespace {

std::string g(float v) { return fmt::format("{:g}", v); }

// "    tri mat=M (x,y,z a=A st=S,T) ..." lines of shell `s`, as Wrench's listing prints them.
std::vector<std::string> listed_triangles(const std::string& listing, int shell) {
    std::vector<std::string> out;
    std::istringstream in(listing);
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line.starts_with("shell ")) inside = line.starts_with(fmt::format("shell {}:", shell));
        else if (line.starts_with("  shell ")) inside = false;
        else if (inside && line.starts_with("    tri ")) out.push_back(line);
    }
    return out;
}

std::vector<std::string> our_triangles(const SkyShellMesh& m, int16_t fx_count) {
    std::vector<std::string> out;
    for (size_t f = 0; f < m.faces.size(); ++f) {
        std::string line = fmt::format("    tri mat={}", m.face_texture[f] < 0 ? -1 : m.face_texture[f] - fx_count);
        for (uint32_t v : m.faces[f]) {
            const auto& p = m.positions[v];
            line += fmt::format(" ({},{},{} a={} st={},{})", g(p[0]), g(p[1]), g(p[2]), m.alpha[v], g(m.uvs[v][0]),
                                g(m.uvs[v][1]));
        }
        out.push_back(line);
    }
    return out;
}

Bytes built_sky() {
    mkdisc::Random random(3);
    return write_sky(mkdisc::make_sky(random));
}

}  // namespace

TEST_CASE("Wrench's sky vector decodes to the triangles its reader listed") {
    const Bytes block = test::read_bytes(test::shared_path("vectors/sky/sky_example.bin"));
    const std::string listing = test::read_text(test::shared_path("vectors/sky/sky_example.wrench.txt"));
    const auto sky = parse_sky(block);
    REQUIRE(sky.ok());
    const auto meshes = sky_meshes(block, *sky);
    REQUIRE_MESSAGE(meshes.ok(), meshes.error().describe());
    REQUIRE(meshes->size() == 2);
    CHECK((*meshes)[0].textured);
    CHECK(!(*meshes)[1].textured);
    for (int s = 0; s < 2; ++s) {
        CAPTURE(s);
        const auto listed = listed_triangles(listing, s);
        CHECK(!listed.empty());
        CHECK(our_triangles((*meshes)[s], sky->header.fx_count) == listed);
    }
    const std::string obj = sky_obj(*meshes, sky->header);
    CHECK(obj.find("usemtl sky_000\n") != std::string::npos);
    CHECK(obj.find("usemtl sky_gradient\n") != std::string::npos);
}

TEST_CASE("the builder's sky has textured and gradient shells that decode") {
    const Bytes block = built_sky();
    const auto sky = parse_sky(block);
    REQUIRE(sky.ok());
    const auto meshes = sky_meshes(block, *sky);
    REQUIRE_MESSAGE(meshes.ok(), meshes.error().describe());
    int textured = 0, gradient = 0;
    for (const auto& m : *meshes) {
        (m.textured ? textured : gradient) += 1;
        for (int t : m.face_texture) CHECK((m.textured ? t >= sky->header.fx_count : t == -1));
    }
    CHECK(textured == 2);
    CHECK(gradient == 1);
}

TEST_CASE("sky mesh checks: texture bytes against the defs and the shell's flag") {
    const Bytes good = built_sky();
    const auto sky = parse_sky(good);
    REQUIRE(sky.ok());
    const SkyCluster& first = sky->shells[0].clusters[0];
    const uint64_t texture_byte = static_cast<uint64_t>(first.data + first.tri_offset) + 3;
    SUBCASE("a texture past the defs") {
        Bytes bad = good;
        bad[texture_byte] = static_cast<uint8_t>(sky->header.texture_count);
        const auto m = sky_meshes(bad, *parse_sky(bad));
        REQUIRE(!m.ok());
        CHECK(m.error().code == Errc::out_of_range);
        CHECK(m.error().offset == texture_byte);
    }
    SUBCASE("an untextured face in a textured shell") {
        Bytes bad = good;
        bad[texture_byte] = 0xff;
        const auto m = sky_meshes(bad, *parse_sky(bad));
        REQUIRE(!m.ok());
        CHECK(m.error().code == Errc::bad_value);
    }
}

}  // namespace test_sky_mesh
