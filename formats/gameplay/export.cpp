#include "formats/gameplay/export.h"

#include "formats/common/game_text.h"
#include "formats/export/axes.h"
#include "formats/export/csv.h"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "formats/gameplay/volume_mesh.h"

namespace gcfs::formats::gameplay {

const std::vector<std::string> kFixedFiles = {
    "mobies.csv", "ties.csv",   "shrubs.csv",     "cameras.csv",     "sounds.csv",         "lights.csv",
    "volumes.csv", "groups.csv", "areas.csv",      "paths.csv",       "env_samples.csv",    "env_transitions.csv",
    "settings.json", "paths.obj", "grind_paths.obj", "volumes.obj"};

namespace {

using csv::row;
using csv::field;

std::vector<std::string> schema_header(const RecordSchema& schema) {
    std::vector<std::string> names;
    for (const Field& f : schema.fields) names.emplace_back(f.name);
    return names;
}

std::vector<std::string> record_cells(const RecordTable& t, size_t i) {
    std::vector<std::string> cells;
    for (const Field& f : t.schema->fields) cells.push_back(t.text(i, f));
    return cells;
}

template <class... V>
std::vector<std::string> concat(std::vector<std::string> a, const V&... rest) {
    (a.insert(a.end(), rest.begin(), rest.end()), ...);
    return a;
}

// A file made from some blocks: the first present block that failed makes
// the whole file an error (it is never emitted half).
template <class... D>
std::string failed(const char* first_name, const D&... blocks) {
    std::string error;
    auto one = [&](const auto& d) {
        if (error.empty() && d.present() && !d.ok()) error = d.error;
    };
    (one(blocks), ...);
    return error.empty() ? std::string() : fmt::format("{}: {}", first_name, error);
}

// index → group number, for one group block (-1: in none).
std::vector<int32_t> group_of(const Decoded<Groups>& groups, size_t count) {
    std::vector<int32_t> out(count, -1);
    if (!groups.ok()) return out;
    for (size_t g = 0; g < groups.value->groups.size(); ++g)
        for (uint16_t m : groups.value->groups[g].members)
            if (m < count && out[m] == -1) out[m] = static_cast<int32_t>(g);
    return out;
}

std::string hex_bytes(ByteSpan bytes) {
    std::string out;
    for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
    return out;
}

std::string table_csv(const Decoded<RecordTable>& d, const RecordSchema& schema) {
    std::string out;
    row(out, concat({"index"}, schema_header(schema)));
    if (d.ok())
        for (size_t i = 0; i < d.value->count(); ++i) row(out, concat({std::to_string(i)}, record_cells(*d.value, i)));
    return out;
}

// ties.csv and shrubs.csv: every field, then the position (matrix column 3)
// and the group; ties add their ambient colour bytes (§3.18) in hex.
std::string instances_csv(const Decoded<RecordTable>& d, const RecordSchema& schema, const Decoded<Groups>& groups,
                          const Decoded<std::vector<TieAmbient>>* ambient) {
    std::string out;
    std::vector<std::string> header = concat({"index"}, schema_header(schema), std::vector<std::string>{"pos_x", "pos_y", "pos_z", "group"});
    if (ambient) header.push_back("ambient_rgba");
    row(out, header);
    if (!d.ok()) return out;
    const RecordTable& t = *d.value;
    const auto group = group_of(groups, t.count());
    std::map<size_t, std::string> colours;
    if (ambient && ambient->ok())
        for (const auto& a : *ambient->value) colours[static_cast<size_t>(a.tie_index)] = hex_bytes(a.data);
    for (size_t i = 0; i < t.count(); ++i) {
        auto cells = concat({std::to_string(i)}, record_cells(t, i));
        for (uint16_t off : {0x40, 0x44, 0x48}) cells.push_back(shortest(t.f32(i, off)));
        cells.push_back(std::to_string(group[i]));
        if (ambient) cells.push_back(colours.count(i) ? colours[i] : "");
        row(out, cells);
    }
    return out;
}

// One table for both kinds (§3.10): directional lights fill the colour and
// direction columns, point lights the position, radius (world units: the
// stored u16 / 64) and colour (u16 / 65535) columns beside their raw fields.
std::string lights_csv(const Gameplay& g) {
    std::string out;
    const auto point = schema_header(kPointLightSchema);
    std::vector<std::string> raw_point;
    for (const auto& name : point) raw_point.push_back("raw_" + name);
    const auto dir = schema_header(kDirLightSchema);
    row(out, concat({"kind", "index"}, dir, std::vector<std::string>{"pos_x", "pos_y", "pos_z", "radius", "colour_r", "colour_g", "colour_b"}, raw_point));
    if (g.dir_lights.ok())
        for (size_t i = 0; i < g.dir_lights.value->count(); ++i)
            row(out, concat({"directional", std::to_string(i)}, record_cells(*g.dir_lights.value, i),
                                std::vector<std::string>(7 + point.size())));
    if (g.point_lights.ok()) {
        const RecordTable& t = g.point_lights.value->lights;
        for (size_t i = 0; i < t.count(); ++i) {
            const ByteSpan r = t.record(i);
            std::vector<std::string> world;
            for (int k = 0; k < 4; ++k) world.push_back(shortest(static_cast<float>(u16_at(r, 2 * k) / 64.0)));
            for (int k = 0; k < 3; ++k) world.push_back(shortest(static_cast<float>(u16_at(r, 8 + 2 * k) / 65535.0)));
            row(out, concat({"point", std::to_string(i)}, std::vector<std::string>(dir.size()), world, record_cells(t, i)));
        }
    }
    return out;
}

std::string volumes_csv(const Gameplay& g) {
    std::string out;
    row(out, concat({"kind", "index"}, schema_header(kVolumeSchema)));
    for (int kind = 0; kind < 4; ++kind) {
        const auto& d = g.volumes(kind);
        if (!d.ok()) continue;
        for (size_t i = 0; i < d.value->count(); ++i)
            row(out, concat({kVolumeKindNames[kind], std::to_string(i)}, record_cells(*d.value, i)));
    }
    return out;
}

std::string members_text(const std::vector<uint16_t>& members) {
    std::string out;
    for (uint16_t m : members) out += (out.empty() ? "" : " ") + std::to_string(m);
    return out;
}

std::string groups_csv(const Gameplay& g) {
    std::string out;
    row(out, {"kind", "group", "count", "members"});
    const std::pair<const char*, const Decoded<Groups>*> kinds[] = {
        {"moby", &g.moby_groups}, {"tie", &g.tie_groups}, {"shrub", &g.shrub_groups}};
    for (const auto& [kind, d] : kinds) {
        if (!d->ok()) continue;
        for (size_t i = 0; i < d->value->groups.size(); ++i) {
            const auto& members = d->value->groups[i].members;
            row(out, {kind, std::to_string(i), std::to_string(members.size()), members_text(members)});
        }
    }
    return out;
}

std::string areas_csv(const Decoded<Areas>& d) {
    std::string out;
    std::vector<std::string> links;
    for (const char* part : kAreaPartNames) links.push_back(std::string(part) + "_links");
    row(out, concat({"index"}, schema_header(kAreaSchema), links));
    if (!d.ok()) return out;
    for (size_t i = 0; i < d.value->records.count(); ++i) {
        auto cells = concat({std::to_string(i)}, record_cells(d.value->records, i));
        for (const auto& list : d.value->links[i]) {
            std::string text;
            for (int32_t link : list) text += (text.empty() ? "" : " ") + std::to_string(link);
            cells.push_back(text);
        }
        row(out, cells);
    }
    return out;
}

std::string paths_csv(const Gameplay& g) {
    std::string out;
    row(out, {"kind", "path", "point", "x", "y", "z", "w"});
    const std::pair<const char*, const Decoded<Paths>*> kinds[] = {{"path", &g.paths}, {"grind", &g.grind_paths}};
    for (const auto& [kind, d] : kinds) {
        if (!d->ok()) continue;
        for (size_t p = 0; p < d->value->splines.size(); ++p)
            for (size_t i = 0; i < d->value->splines[p].vertices.size(); ++i) {
                const Vec4& v = d->value->splines[p].vertices[i];
                row(out, {kind, std::to_string(p), std::to_string(i), shortest(v.x), shortest(v.y), shortest(v.z), shortest(v.w)});
            }
    }
    return out;
}

std::string env_transitions_csv(const Decoded<EnvTransitions>& d) {
    std::string out;
    row(out, concat({"index"}, schema_header(kSphereSchema), schema_header(kEnvTransitionSchema)));
    if (!d.ok()) return out;
    for (size_t i = 0; i < d.value->transitions.count(); ++i)
        row(out, concat({std::to_string(i)}, record_cells(d.value->spheres, i), record_cells(d.value->transitions, i)));
    return out;
}

nlohmann::ordered_json record_json(const RecordTable& t, size_t i) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    const ByteSpan r = t.record(i);
    for (const Field& f : t.schema->fields) {
        switch (f.type) {
            case FieldType::f32: out[std::string(f.name)] = f32_at(r, f.offset); break;
            case FieldType::hex32: out[std::string(f.name)] = t.text(i, f); break;
            default: out[std::string(f.name)] = std::stoll(t.text(i, f)); break;
        }
    }
    return out;
}

// §3.5; colours with r = -1 are "not set".
std::string settings_json(const Decoded<LevelSettings>& d) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    out["present"] = d.present();
    if (d.ok()) {
        out["settings"] = record_json(d.value->first, 0);
        out["chunk_planes"] = nlohmann::ordered_json::array();
        for (size_t i = 0; i < d.value->planes.count(); ++i) out["chunk_planes"].push_back(record_json(d.value->planes, i));
        out["core_sounds_count"] = d.value->core_sounds_count;
    }
    return out.dump(2) + "\n";
}

// Each path an object of line segments through its points, in world units (§3.6).
std::string paths_obj(const Decoded<Paths>& d, const char* kind) {
    std::string out = std::string(kObjAxesLine) + fmt::format("# {} of gameplay.bin (formats-gameplay.md 3.6), world units and axes as tfrag/terrain.obj\n", kind);
    if (!d.ok()) return out;
    uint64_t base = 1;
    for (size_t p = 0; p < d.value->splines.size(); ++p) {
        const auto& v = d.value->splines[p].vertices;
        out += fmt::format("o {}_{}\n", kind, p);
        for (const Vec4& x : v) {
            const auto p = obj_axes(std::array<float, 3>{x.x, x.y, x.z});
            out += fmt::format("v {} {} {}\n", shortest(p[0]), shortest(p[1]), shortest(p[2]));
        }
        // One "l" per segment: Blender's importer (3.4) keeps only the first
        // segment of a longer "l" line, and every OBJ reader takes pairs.
        for (size_t i = 1; i < v.size(); ++i) out += fmt::format("l {} {}\n", base + i - 1, base + i);
        base += v.size();
    }
    return out;
}

std::string volumes_obj(const Gameplay& g) {
    std::string out = std::string(kObjAxesLine) + "# volumes of gameplay.bin (formats-gameplay.md 3.7): each matrix applied to its shape in the unit cube\n";
    uint64_t base = 1;
    for (int kind = 0; kind < 4; ++kind) {
        const auto& d = g.volumes(kind);
        if (!d.ok()) continue;
        for (size_t i = 0; i < d.value->count(); ++i) {
            std::array<float, 16> m;
            for (int k = 0; k < 16; ++k) m[k] = d.value->f32(i, static_cast<uint16_t>(4 * k));
            const VolumeMesh mesh = volume_mesh(kind, m);
            out += fmt::format("o {}_{}\n", kVolumeKindNames[kind], i);
            for (const auto& game : mesh.positions) {
                const auto p = obj_axes(game);
                out += fmt::format("v {} {} {}\n", shortest(p[0]), shortest(p[1]), shortest(p[2]));
            }
            for (const auto& f : mesh.faces) out += fmt::format("f {} {} {}\n", base + f[0], base + f[1], base + f[2]);
            base += mesh.positions.size();
        }
    }
    return out;
}

}  // namespace

std::string help_text(ByteSpan bytes) {
    std::string out;
    for (uint8_t b : bytes) {
        if (b == '\\')
            out += "\\\\";
        else if (const auto c = game_char(b))
            append_utf8(out, *c);
        else
            out += fmt::format("\\x{:02x}", b);
    }
    return out;
}

std::vector<ExportFile> export_gameplay(const Gameplay& g) {
    std::vector<ExportFile> files;
    auto add = [&](const std::string& name, std::string error, auto render) {
        files.push_back(error.empty() ? ExportFile{name, render(), {}} : ExportFile{name, {}, std::move(error)});
    };
    add("mobies.csv", failed("moby instances", g.mobies), [&] { return table_csv(g.mobies, kMobySchema); });
    add("ties.csv", failed("tie instances", g.ties, g.tie_groups, g.tie_ambient),
        [&] { return instances_csv(g.ties, kTieSchema, g.tie_groups, &g.tie_ambient); });
    add("shrubs.csv", failed("shrub instances", g.shrubs, g.shrub_groups),
        [&] { return instances_csv(g.shrubs, kShrubSchema, g.shrub_groups, nullptr); });
    add("cameras.csv", failed("cameras", g.cameras), [&] { return table_csv(g.cameras, kCameraSchema); });
    add("sounds.csv", failed("sound instances", g.sounds), [&] { return table_csv(g.sounds, kSoundSchema); });
    add("lights.csv", failed("lights", g.dir_lights, g.point_lights), [&] { return lights_csv(g); });
    add("volumes.csv", failed("volumes", g.cuboids, g.spheres, g.cylinders, g.pills), [&] { return volumes_csv(g); });
    add("groups.csv", failed("groups", g.moby_groups, g.tie_groups, g.shrub_groups), [&] { return groups_csv(g); });
    add("areas.csv", failed("areas", g.areas), [&] { return areas_csv(g.areas); });
    add("paths.csv", failed("paths", g.paths, g.grind_paths), [&] { return paths_csv(g); });
    add("env_samples.csv", failed("env sample points", g.env_samples), [&] { return table_csv(g.env_samples, kEnvSampleSchema); });
    add("env_transitions.csv", failed("env transitions", g.env_transitions), [&] { return env_transitions_csv(g.env_transitions); });
    add("settings.json", failed("level settings", g.level_settings), [&] { return settings_json(g.level_settings); });
    add("paths.obj", failed("paths", g.paths), [&] { return paths_obj(g.paths, "path"); });
    add("grind_paths.obj", failed("grind paths", g.grind_paths), [&] { return paths_obj(g.grind_paths, "grind_path"); });
    add("volumes.obj", failed("volumes", g.cuboids, g.spheres, g.cylinders, g.pills), [&] { return volumes_obj(g); });

    for (int l = 0; l < kLanguageCount; ++l) {
        const auto& help = g.help[l];
        if (!help.present()) continue;
        add(std::string("help/") + kLanguages[l] + ".txt", failed(kLanguages[l], help), [&] {
            std::string out;
            for (const auto& m : help.value->messages) out += fmt::format("{}\t{}\n", m.ids[0], help_text(m.text));
            return out;
        });
    }

    // §3.13: pvar k belongs to the moby whose pvar_index is k.
    if (g.mobies.ok() && g.pvar_table.ok() && g.pvar_data.ok())
        for (auto& [moby, name] : pvar_files(*g.mobies.value)) {
            const PvarEntry& e = (*g.pvar_table.value)[static_cast<size_t>(g.mobies.value->s32(moby, 0x68))];
            const auto begin = g.pvar_data.value->begin() + e.offset;
            files.push_back({std::move(name), std::string(begin, begin + e.size), {}});
        }
    return files;
}

std::vector<std::pair<size_t, std::string>> pvar_files(const RecordTable& mobies) {
    std::vector<std::pair<size_t, std::string>> out;
    std::set<int32_t> seen;
    for (size_t i = 0; i < mobies.count(); ++i) {
        const int32_t uid = mobies.s32(i, 0x10);
        if (mobies.s32(i, 0x68) < 0) continue;
        out.emplace_back(i, seen.insert(uid).second ? fmt::format("pvars/moby_{}.bin", uid) : fmt::format("pvars/moby_{}-{}.bin", uid, i));
    }
    return out;
}

std::string shown_file(const Gameplay& g, std::string_view name) {
    for (auto& file : export_gameplay(g))
        if (file.name == name) return std::move(file.content);
    return {};
}

}  // namespace gcfs::formats::gameplay
