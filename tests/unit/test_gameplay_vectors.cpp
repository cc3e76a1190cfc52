// Every gameplay vector decodes block by block, re-assembles to the same
// bytes, and each block re-encodes from its decoded value to the bytes
// Wrench wrote (formats-gameplay.md §7, §8).
#include <doctest/doctest.h>

#include "formats/gameplay/gameplay.h"
#include "tests/unit/gameplay_vectors.h"

namespace test_gameplay_vectors {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats;
using namespace gcfs::formats::gameplay;

namespace {

std::vector<std::vector<Vec4>> vertices_of(const Paths& p) {
    std::vector<std::vector<Vec4>> out;
    for (const auto& s : p.splines) out.push_back(s.vertices);
    return out;
}

std::vector<std::vector<uint16_t>> members_of(const Groups& g) {
    std::vector<std::vector<uint16_t>> out;
    for (const auto& group : g.groups) out.push_back(group.members);
    return out;
}

template <class T, class Encode>
void check_encodes(const Decoded<T>& d, Encode encode, const char* what) {
    if (!d.present()) return;
    INFO(what);
    REQUIRE(d.ok());
    CHECK(encode(*d.value) == d.bytes);
}

}  // namespace

TEST_CASE("gameplay vectors: every block decodes, re-encodes and re-assembles byte-identically") {
    for (const std::string name : test::kGameplayVectors) {
        CAPTURE(name);
        const Bytes file = test::read_bytes(test::shared_path("vectors/gameplay/" + name + ".bin"));
        const Gameplay g = read_gameplay(file);
        REQUIRE(g.file_error.empty());
        for (const BlockInfo& b : kWriteOrder) {
            const auto s = g.status(b.block);
            CAPTURE(b.name);
            CHECK(s.error == "");
        }
        CHECK(assemble(raw_blocks(g)) == file);

        check_encodes(g.level_settings, encode_level_settings, "level settings");
        for (const auto& help : g.help)
            check_encodes(help, [](const HelpMessages& h) { return encode_help(h.messages); }, "help");
        for (const auto* table : {&g.dir_lights, &g.cameras, &g.sounds, &g.ties, &g.shrubs, &g.mobies, &g.env_samples,
                                  &g.cuboids, &g.spheres, &g.cylinders, &g.pills})
            check_encodes(*table, encode_table, "table");
        for (const auto* list : {&g.tie_classes, &g.shrub_classes, &g.moby_classes})
            check_encodes(*list, encode_class_list, "class list");
        for (const auto* groups : {&g.tie_groups, &g.shrub_groups, &g.moby_groups})
            check_encodes(*groups, [](const Groups& v) { return encode_groups(members_of(v)); }, "groups");
        check_encodes(g.shared_data, encode_shared_data, "shared data");
        check_encodes(g.moby_link_fixups, encode_fixups, "moby link fixups");
        check_encodes(g.pointer_fixups, encode_fixups, "pointer fixups");
        check_encodes(g.pvar_table, encode_pvar_table, "pvar table");
        check_encodes(g.paths, [](const Paths& p) { return encode_paths(vertices_of(p)); }, "paths");
        check_encodes(g.grind_paths, [](const Paths& p) { return encode_grind_paths(p.grind, vertices_of(p)); }, "grind paths");
        check_encodes(g.point_lights, [](const PointLights& p) { return encode_point_lights(p.lights); }, "point lights");
        check_encodes(g.env_transitions, encode_env_transitions, "env transitions");
        check_encodes(g.cam_coll_grid, [](const CamCollGrid& c) { return encode_cam_coll_grid(c.cells); }, "cam coll grid");
        check_encodes(g.occlusion, encode_occlusion, "occlusion");
        check_encodes(g.tie_ambient, encode_tie_ambient, "tie ambient");
        check_encodes(g.areas, encode_areas, "areas");
    }
}

}  // namespace test_gameplay_vectors
