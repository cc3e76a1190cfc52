// Each gameplay vector decodes to exactly the records Wrench's own reader
// listed for it (../shared/vectors/gameplay/*.wrench.txt): the block table
// and every record line of the blocks it prints per record, rendered here in
// the listing's own wording from gcfs's decode.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <sstream>

#include "formats/gameplay/gameplay.h"
#include "tests/unit/gameplay_vectors.h"

namespace test_gameplay_wrench_listing {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats;
using namespace gcfs::formats::gameplay;

namespace {

std::string g(float v) { return fmt::format("{:g}", v); }

// The listing's block names, where they differ from gcfs's.
std::string listing_name(const std::string& name) { return name == "grind paths" ? "grindpaths" : name; }

// "-- name @0x…: …" sections and their "  [i] …" lines.
std::map<std::string, std::vector<std::string>> listing_records(const std::string& text) {
    std::map<std::string, std::vector<std::string>> out;
    std::istringstream in(text);
    std::string line, section;
    while (std::getline(in, line)) {
        if (line.starts_with("-- ")) {
            section = line.substr(3, line.find_first_of("@:") - 3);
            while (section.ends_with(' ')) section.pop_back();
            out[section];
        } else if (line.starts_with("  [") && !section.empty()) {
            out[section].push_back(line);
        }
    }
    return out;
}

// The header lines: slot -> file offset (0 = absent).
std::map<uint32_t, uint32_t> listing_slots(const std::string& text) {
    std::map<uint32_t, uint32_t> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        unsigned slot = 0, offset = 0;
        char word[16] = {};
        if (std::sscanf(line.c_str(), "  0x%x  0x%x", &slot, &offset) == 2) out[slot] = offset;
        else if (std::sscanf(line.c_str(), "  0x%x  %15s", &slot, word) == 2 && std::string(word) == "(absent)") out[slot] = 0;
    }
    return out;
}

float column_length(const RecordTable& t, size_t i, int column) {
    float sum = 0;
    for (int r = 0; r < 3; ++r) sum += t.f32(i, static_cast<uint16_t>(16 * column + 4 * r)) * t.f32(i, static_cast<uint16_t>(16 * column + 4 * r));
    return std::sqrt(sum);
}

std::vector<std::string> groups(const Decoded<Groups>& d) {
    std::vector<std::string> out;
    for (size_t i = 0; i < d.value->groups.size(); ++i) {
        std::string line = fmt::format("  [{}] {} member(s):", i, d.value->groups[i].members.size());
        for (uint16_t m : d.value->groups[i].members) line += fmt::format(" {}", m);
        out.push_back(line);
    }
    return out;
}

std::vector<std::string> fixups(const Decoded<std::vector<Fixup>>& d) {
    std::vector<std::string> out;
    for (size_t i = 0; i < d.value->size(); ++i)
        out.push_back(fmt::format("  [{}] pvar_index={} offset=0x{:x}", i, (*d.value)[i].pvar_index, (*d.value)[i].offset));
    return out;
}

std::vector<std::string> help(const Decoded<HelpMessages>& d) {
    std::vector<std::string> out;
    for (size_t i = 0; i < d.value->messages.size(); ++i) {
        const auto& m = d.value->messages[i];
        out.push_back(fmt::format("  [{}] id={} short_id={} third_person_id={} coop_id={} vag={} character={} text=\"{}\"", i,
                                  m.ids[0], m.ids[1], m.ids[2], m.ids[3], m.ids[4], m.ids[5],
                                  std::string(m.text.begin(), m.text.end())));
    }
    return out;
}

// Camera-collision flags of volume `index` of `type`, as the grid lists them (§3.16).
std::string camcoll(const Gameplay& gp, int32_t type, size_t index) {
    if (!gp.cam_coll_grid.ok()) return {};
    for (const auto& cell : gp.cam_coll_grid.value->cells)
        for (size_t p = 0; p < cell.prims.count(); ++p)
            if (cell.prims.s32(p, 0x10) == type && cell.prims.s32(p, 0x14) == static_cast<int32_t>(index))
                return fmt::format(" camcoll(flags=0x{:x} i={} f={})", cell.prims.s32(p, 0x18), cell.prims.s32(p, 0x1c),
                                   g(cell.prims.f32(p, 0x20)));
    return {};
}

// gcfs's decode of one section, in the listing's words.
std::optional<std::vector<std::string>> render(const Gameplay& gp, const std::string& section) {
    std::vector<std::string> out;
    auto each = [&](const Decoded<RecordTable>& d, auto line) {
        for (size_t i = 0; i < d.value->count(); ++i) out.push_back(fmt::format("  [{}] ", i) + line(*d.value, i));
        return out;
    };
    for (int l = 0; l < kLanguageCount; ++l)
        if (section == info(help_block(l)).name) return help(gp.help[l]);
    if (section == "moby instances")
        return each(gp.mobies, [](const RecordTable& t, size_t i) {
            return fmt::format("uid={} class={} pos=({}, {}, {}) rot=({}, {}, {}) scale={} mission={} bolts={} draw_dist={} "
                               "update_dist={} pvar={} group[raw]={} mode_bits=0x{:x} light={}",
                               t.s32(i, 0x10), t.s32(i, 0x28), g(t.f32(i, 0x40)), g(t.f32(i, 0x44)), g(t.f32(i, 0x48)),
                               g(t.f32(i, 0x4c)), g(t.f32(i, 0x50)), g(t.f32(i, 0x54)), g(t.f32(i, 0x2c)), t.s32(i, 4),
                               t.s32(i, 0x14), t.s32(i, 0x30), t.s32(i, 0x34), t.s32(i, 0x68), t.s32(i, 0x58), t.s32(i, 0x70),
                               t.s32(i, 0x80));
        });
    if (section == "tie instances") {
        std::map<size_t, size_t> ambient;
        for (const auto& a : *gp.tie_ambient.value) ambient[static_cast<size_t>(a.tie_index)] = a.data.size();
        return each(gp.ties, [&](const RecordTable& t, size_t i) {
            return fmt::format("class={} uid={} translation=({}, {}, {}) col0=({},{},{}) draw_dist={} occl_index={} "
                               "dir_lights=0x{:x} ambient_rgbas={} bytes",
                               t.s32(i, 0), t.s32(i, 0x54), g(t.f32(i, 0x40)), g(t.f32(i, 0x44)), g(t.f32(i, 0x48)),
                               g(t.f32(i, 0x10)), g(t.f32(i, 0x14)), g(t.f32(i, 0x18)), t.s32(i, 4), t.s32(i, 0xc),
                               t.s32(i, 0x50), ambient[i]);
        });
    }
    if (section == "shrub instances")
        return each(gp.shrubs, [](const RecordTable& t, size_t i) {
            return fmt::format("class={} translation=({}, {}, {}) draw_dist={} colour=({}, {}, {}) dir_lights=0x{:x}",
                               t.s32(i, 0), g(t.f32(i, 0x40)), g(t.f32(i, 0x44)), g(t.f32(i, 0x48)), g(t.f32(i, 4)),
                               t.s32(i, 0x50), t.s32(i, 0x54), t.s32(i, 0x58), t.s32(i, 0x60));
        });
    if (section == "cameras")
        return each(gp.cameras, [](const RecordTable& t, size_t i) {
            return fmt::format("type/class={} pos=({}, {}, {}) rot=({}, {}, {}) pvar_index={}", t.s32(i, 0), g(t.f32(i, 4)),
                               g(t.f32(i, 8)), g(t.f32(i, 0xc)), g(t.f32(i, 0x10)), g(t.f32(i, 0x14)), g(t.f32(i, 0x18)),
                               t.s32(i, 0x1c));
        });
    if (section == "sound instances")
        return each(gp.sounds, [](const RecordTable& t, size_t i) {
            return fmt::format("o_class={} m_class={} range={} pos=({}, {}, {}) pvar_index={}", s16_at(t.record(i), 0),
                               s16_at(t.record(i), 2), g(t.f32(i, 0xc)), g(t.f32(i, 0x40)), g(t.f32(i, 0x44)),
                               g(t.f32(i, 0x48)), t.s32(i, 8));
        });
    if (section == "directional lights")
        return each(gp.dir_lights, [](const RecordTable& t, size_t i) {
            std::string text;
            const char* names[4] = {"col_a", "dir_a", "col_b", "dir_b"};
            for (int v = 0; v < 4; ++v)
                text += fmt::format("{}{}=({},{},{},{})", v ? " " : "", names[v], g(t.f32(i, 16 * v)), g(t.f32(i, 16 * v + 4)),
                                    g(t.f32(i, 16 * v + 8)), g(t.f32(i, 16 * v + 12)));
            return text;
        });
    if (section == "cuboids" || section == "spheres" || section == "cylinders") {
        const int kind = section == "cuboids" ? 0 : section == "spheres" ? 1 : 2;
        const int32_t type[3] = {3, 5, 6};
        return each(gp.volumes(kind), [&](const RecordTable& t, size_t i) {
            return fmt::format("translation=({}, {}, {}) axis_len=({},{},{}) rot=({}, {}, {}){}", g(t.f32(i, 0x30)),
                               g(t.f32(i, 0x34)), g(t.f32(i, 0x38)), g(column_length(t, i, 0)), g(column_length(t, i, 1)),
                               g(column_length(t, i, 2)), g(t.f32(i, 0x70)), g(t.f32(i, 0x74)), g(t.f32(i, 0x78)),
                               camcoll(gp, type[kind], i));
        });
    }
    if (section == "point lights") {
        const RecordTable& t = gp.point_lights.value->lights;
        for (size_t i = 0; i < t.count(); ++i) {
            const ByteSpan r = t.record(i);
            out.push_back(fmt::format("  [{}] pos=({}, {}, {}) radius={} colour=({}, {}, {})", i, g(u16_at(r, 0) / 64.f),
                                      g(u16_at(r, 2) / 64.f), g(u16_at(r, 4) / 64.f), g(u16_at(r, 6) / 64.f),
                                      g(u16_at(r, 8) / 65535.f), g(u16_at(r, 10) / 65535.f), g(u16_at(r, 12) / 65535.f)));
        }
        return out;
    }
    if (section == "paths") {
        const auto& splines = gp.paths.value->splines;
        for (size_t i = 0; i < splines.size(); ++i) {
            std::string line = fmt::format("  [{}] {} vertices:", i, splines[i].vertices.size());
            for (const Vec4& v : splines[i].vertices) line += fmt::format(" ({},{},{},w={})", g(v.x), g(v.y), g(v.z), g(v.w));
            out.push_back(line);
        }
        return out;
    }
    if (section == "grindpaths") {
        const auto& p = *gp.grind_paths.value;
        for (size_t i = 0; i < p.splines.size(); ++i)
            out.push_back(fmt::format("  [{}] {} vertices unknown_4={} wrap={} inactive={}", i, p.splines[i].vertices.size(),
                                      p.grind.s32(i, 0x10), p.grind.s32(i, 0x14), p.grind.s32(i, 0x18)));
        return out;
    }
    if (section == "areas") {
        const auto& a = *gp.areas.value;
        for (size_t i = 0; i < a.records.count(); ++i) {
            std::string line = fmt::format("  [{}]", i);
            for (int p = 0; p < kAreaParts; ++p) line += fmt::format(" {}={}", kAreaPartNames[p], a.links[i][p].size());
            out.push_back(line + fmt::format(" last_update_time={}", s16_at(a.records.record(i), 0x1a)));
        }
        return out;
    }
    if (section == "env sample points")
        return each(gp.env_samples, [](const RecordTable& t, size_t i) {
            const ByteSpan r = t.record(i);
            return fmt::format("pos=({}, {}, {}) hero_light={} music_track={} reverb(enable={} type={} depth={}) "
                               "fog(enable={} near={} far={})",
                               g(s16_at(r, 4) / 4.f), g(s16_at(r, 6) / 4.f), g(s16_at(r, 8) / 4.f), s32_at(r, 0),
                               s16_at(r, 0xc), u8_at(r, 0x16), u8_at(r, 0x13), s16_at(r, 0xa),
                               s16_at(r, 0x1c) > s16_at(r, 0x1a) ? 1 : 0, s16_at(r, 0x1a), s16_at(r, 0x1c));
        });
    if (section == "pvar table") {
        for (size_t i = 0; i < gp.pvar_table.value->size(); ++i)
            out.push_back(fmt::format("  [{}] offset=0x{:x} size=0x{:x}", i, (*gp.pvar_table.value)[i].offset,
                                      (*gp.pvar_table.value)[i].size));
        return out;
    }
    if (section == "moby link fixup table") return fixups(gp.moby_link_fixups);
    if (section == "relative pvar pointers") return fixups(gp.pointer_fixups);
    if (section == "moby groups") return groups(gp.moby_groups);
    if (section == "tie groups") return groups(gp.tie_groups);
    if (section == "shrub groups") return groups(gp.shrub_groups);
    if (section == "shared data") {
        const auto& p = gp.shared_data.value->pointers;
        for (size_t i = 0; i < p.size(); ++i)
            out.push_back(fmt::format("  [{}] pvar_index={} pointer_offset=0x{:x} shared_data_offset=0x{:x}", i, p[i].pvar_index,
                                      p[i].pointer_offset, p[i].shared_offset));
        return out;
    }
    return std::nullopt;  // a section the listing prints no records for, or this test does not render
}

}  // namespace

TEST_CASE("gameplay vectors decode to the records Wrench's reader listed") {
    for (const std::string name : test::kGameplayVectors) {
        CAPTURE(name);
        const std::string base = test::shared_path("vectors/gameplay/" + name);
        const Gameplay gp = read_gameplay(test::read_bytes(base + ".bin"));
        const std::string listing = test::read_text(base + ".wrench.txt");

        const auto slots = listing_slots(listing);
        CHECK(slots.size() == kBlockCount);
        for (const auto& entry : slots) {
            const uint32_t slot = entry.first;
            CAPTURE(slot);
            CHECK(static_cast<uint32_t>(gp.slots.at(slot / 4)) == entry.second);
        }

        const auto sections = listing_records(listing);
        size_t compared = 0;
        for (const BlockInfo& b : kWriteOrder) {
            const std::string section = listing_name(b.name);
            CAPTURE(section);
            const auto found = sections.find(section);
            REQUIRE(found != sections.end());
            if (!gp.status(b.block).present) {
                CHECK(found->second.empty());
                continue;
            }
            const auto ours = render(gp, section);
            if (!ours) continue;
            CHECK(*ours == found->second);
            compared += found->second.size();
        }
        MESSAGE(name << ": " << compared << " record lines equal Wrench's");
        CHECK(compared > 0);
    }
}

}  // namespace test_gameplay_wrench_listing
