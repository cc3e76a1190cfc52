#include "formats/gameplay/paths_import.h"

#include <fmt/format.h>

#include <cstring>
#include <map>

#include "formats/export/csv_read.h"
#include "formats/gameplay/cells.h"
#include "formats/gameplay/export.h"
#include "formats/gameplay/spheres.h"

namespace gcfs::formats::gameplay {
namespace {

const std::vector<std::string> kHeader = {"kind", "path", "point", "x", "y", "z", "w"};
constexpr const char* kPathKinds[] = {"path", "grind"};

struct KindEdit {
    const Decoded<Paths>* d = nullptr;
    std::vector<std::vector<Vec4>> splines;
    std::vector<int64_t> source;      // each new path's old index, -1: new
    std::vector<int32_t> renumber;    // old path → new index, -1: removed
    std::vector<bool> moved;          // new path: its points differ from the old path's
    bool changed = false;
};

float cell_float(const csv::Row& row, size_t column, const std::string* shown, const float* old) {
    if (shown && old && row.cells[column] == *shown) return *old;  // the bits as found (a NaN keeps its payload)
    const auto bits = parse_field(FieldType::f32, row.cells[column]);
    if (!bits)
        fail(Errc::bad_value, 0, fmt::format("line {}, column {} ({}): {:?} is not a number", row.line, column + 1, kHeader[column], row.cells[column]));
    float v;
    std::memcpy(&v, &*bits, 4);
    return v;
}

std::vector<Vec4> old_points(const Decoded<Paths>& d, size_t p) { return d.value->splines[p].vertices; }

bool same_points(const std::vector<Vec4>& a, const std::vector<Vec4>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec4)) == 0;
}

}  // namespace

PathOrigins import_paths(const Gameplay& g, std::string_view text, BlockBytes& blocks) {
    auto rows = csv::parse(text);
    if (!rows.ok()) fail(Errc::bad_value, 0, rows.error().message);
    if (rows->empty() || rows->front().cells != kHeader) fail(Errc::bad_value, 0, "line 1: the header must stay kind,path,point,x,y,z,w");
    std::array<KindEdit, 2> kinds;
    kinds[0].d = &g.paths;
    kinds[1].d = &g.grind_paths;
    for (auto& k : kinds) {
        if (!k.d->ok()) fail(Errc::bad_value, 0, fmt::format("the paths block did not decode ({}), so it cannot be encoded again", k.d->error));
        k.renumber.assign(k.d->value->splines.size(), -1);
    }
    // The shown rows by kind, path and point, for the cells' old text.
    std::map<std::tuple<int, int64_t, int64_t>, std::vector<std::string>> shown;
    if (auto before = csv::parse(shown_file(g, "paths.csv")); before.ok())
        for (size_t r = 1; r < before->size(); ++r) {
            const auto& c = (*before)[r].cells;
            shown[{c[0] == "grind", std::stoll(c[1]), std::stoll(c[2])}] = c;
        }
    // Lines gathered by path: old paths keep their numbers' order, new ones follow as they come.
    std::array<std::map<int64_t, std::vector<const csv::Row*>>, 2> lines;
    std::array<std::vector<int64_t>, 2> new_order;
    for (size_t r = 1; r < rows->size(); ++r) {
        const csv::Row& row = (*rows)[r];
        if (row.cells.size() != kHeader.size())
            fail(Errc::bad_value, 0, fmt::format("line {}: {} cells where the header has {}", row.line, row.cells.size(), kHeader.size()));
        const std::string_view kind = trimmed(row.cells[0]);
        if (kind != "path" && kind != "grind") fail(Errc::bad_value, 0, fmt::format("line {}, column 1 (kind): {:?} is not path or grind", row.line, row.cells[0]));
        const int k = kind == "grind";
        const auto path = parse_field(FieldType::s32, row.cells[1]);
        if (!path || static_cast<int32_t>(*path) < 0)
            fail(Errc::bad_value, 0, fmt::format("line {}, column 2 (path): {:?} is not a path number (0 or more; a new number starts a new path)", row.line,
                                                 row.cells[1]));
        const int64_t p = static_cast<int32_t>(*path);
        auto& list = lines[k][p];
        if (list.empty() && p >= static_cast<int64_t>(kinds[k].renumber.size())) new_order[k].push_back(p);
        list.push_back(&row);
    }
    for (int k = 0; k < 2; ++k) {
        KindEdit& e = kinds[k];
        const size_t old_count = e.renumber.size();
        auto add = [&](int64_t p, int64_t source) {
            std::vector<Vec4> points;
            for (const csv::Row* row : lines[k][p]) {
                const auto point = parse_field(FieldType::s32, row->cells[2]);
                const auto it = source >= 0 && point ? shown.find({k, source, static_cast<int32_t>(*point)}) : shown.end();
                const std::vector<std::string>* old = it != shown.end() ? &it->second : nullptr;
                const Vec4* was = old ? &e.d->value->splines[static_cast<size_t>(source)].vertices.at(static_cast<size_t>(static_cast<int32_t>(*point))) : nullptr;
                const float* old_xyzw = was ? &was->x : nullptr;
                Vec4 v;
                float* out = &v.x;
                for (size_t c = 0; c < 4; ++c) out[c] = cell_float(*row, 3 + c, old ? &(*old)[3 + c] : nullptr, old_xyzw ? old_xyzw + c : nullptr);
                points.push_back(v);
            }
            if (points.size() > static_cast<size_t>(INT32_MAX / 16))
                fail(Errc::too_large, 0, fmt::format("{} {}: {} points, more than a spline's s32 count reaches", kPathKinds[k], p, points.size()));
            e.moved.push_back(source < 0 || !same_points(points, old_points(*e.d, static_cast<size_t>(source))));
            e.source.push_back(source);
            e.splines.push_back(std::move(points));
        };
        for (size_t p = 0; p < old_count; ++p)
            if (lines[k].contains(static_cast<int64_t>(p))) {
                e.renumber[p] = static_cast<int32_t>(e.splines.size());
                add(static_cast<int64_t>(p), static_cast<int64_t>(p));
            }
        for (int64_t p : new_order[k]) add(p, -1);
        e.changed = e.splines.size() != old_count;
        for (size_t i = 0; i < e.splines.size(); ++i) e.changed = e.changed || e.moved[i] || e.source[i] != static_cast<int64_t>(i);
    }
    const PathOrigins origins{kinds[0].source, kinds[1].source};
    if (!kinds[0].changed && !kinds[1].changed) return origins;
    if (kinds[0].changed) blocks[static_cast<size_t>(Block::paths)] = encode_paths(kinds[0].splines);
    if (kinds[1].changed) {
        // §3.6: a kept grind path keeps its fields, a new one starts at 0; the sphere follows the points.
        RecordTable grind{&kGrindDataSchema, g.grind_paths.value->grind.header, {}};
        for (size_t i = 0; i < kinds[1].splines.size(); ++i) {
            Bytes record(kGrindDataSchema.size, 0);
            if (kinds[1].source[i] >= 0) {
                const ByteSpan old = g.grind_paths.value->grind.record(static_cast<size_t>(kinds[1].source[i]));
                record.assign(old.begin(), old.end());
            }
            if (kinds[1].moved[i]) {
                const auto s = sphere_floats(bounding_sphere(kinds[1].splines[i]));
                for (size_t c = 0; c < 4; ++c) std::memcpy(record.data() + 4 * c, &s[c], 4);
            }
            grind.bytes.insert(grind.bytes.end(), record.begin(), record.end());
        }
        blocks[static_cast<size_t>(Block::grind_paths)] = encode_grind_paths(grind, kinds[1].splines);
    }
    if (!kinds[0].changed) return origins;
    // §3.5: the ship path is a path by index.
    const auto& settings = g.level_settings;
    if (settings.ok()) {
        const int32_t ship = settings.value->first.s32(0, 0x4c);
        if (ship >= 0 && static_cast<size_t>(ship) < kinds[0].renumber.size() && kinds[0].renumber[static_cast<size_t>(ship)] != ship) {
            if (kinds[0].renumber[static_cast<size_t>(ship)] < 0)
                fail(Errc::bad_value, 0, fmt::format("path {} is the level's ship path (settings.json ship_path): keep it, or set ship_path first", ship));
            Bytes block = settings.bytes;
            put_le(block, 0x4c, static_cast<uint32_t>(kinds[0].renumber[static_cast<size_t>(ship)]), 4);
            blocks[static_cast<size_t>(Block::level_settings)] = std::move(block);
        }
    }
    // §3.14: areas link paths by index; an area over a moved path bounds its new points.
    const auto& areas = g.areas;
    if (!areas.present()) return origins;
    if (!areas.ok()) fail(Errc::bad_value, 0, fmt::format("the areas block did not decode ({}), and it links paths", areas.error));
    Areas after = *areas.value;
    bool areas_changed = false;
    const auto volumes = area_volumes(g);
    for (size_t a = 0; a < after.links.size(); ++a) {
        bool bounds_moved = false;
        for (int32_t& link : after.links[a][0]) {
            if (link < 0 || static_cast<size_t>(link) >= kinds[0].renumber.size()) continue;
            const int32_t now = kinds[0].renumber[static_cast<size_t>(link)];
            if (now < 0)
                fail(Errc::bad_value, 0, fmt::format("path {} is linked by area {} (areas.csv paths_links): keep it, or unlink it first", link, a));
            bounds_moved = bounds_moved || kinds[0].moved[static_cast<size_t>(now)];
            areas_changed = areas_changed || now != link;
            link = now;
        }
        if (!bounds_moved) continue;
        const auto s = sphere_floats(area_sphere(kinds[0].splines, volumes, after.links[a]));
        for (size_t c = 0; c < 4; ++c) std::memcpy(after.records.bytes.data() + a * kAreaSchema.size + 4 * c, &s[c], 4);
        areas_changed = true;
    }
    if (areas_changed) blocks[static_cast<size_t>(Block::areas)] = encode_areas(after);
    return origins;
}

}  // namespace gcfs::formats::gameplay
