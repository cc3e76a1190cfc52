#include "formats/gameplay/lights_import.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <map>

#include "formats/export/csv_read.h"
#include "formats/gameplay/cells.h"
#include "formats/gameplay/export.h"
#include "formats/gameplay/table_rows.h"

namespace gcfs::formats::gameplay {
namespace {

constexpr size_t kMaxPointLights = 127;  // §3.10: Wrench's writer refuses 128
// lights.csv (export.cpp): kind, index, the directional fields, then a point
// light's world view (pos, radius, colour) and its raw u16 fields.
constexpr size_t kWorldColumns = 7;

// §3.10: the u16 a world value stores: positions round(x × 64), the radius
// truncated, colours round(c × 65535).
std::optional<uint32_t> stored_u16(size_t world_column, std::string_view cell) {
    const auto bits = parse_field(FieldType::f32, cell);
    if (!bits) return std::nullopt;
    const double v = std::bit_cast<float>(*bits);
    const double scaled = world_column < 3 ? std::round(v * 64) : world_column == 3 ? std::trunc(v * 64) : std::round(v * 65535);
    if (!(scaled >= 0 && scaled <= 0xffff)) return std::nullopt;
    return static_cast<uint32_t>(scaled);
}

}  // namespace

LightOrigins import_lights(const Gameplay& g, std::string_view text, BlockBytes& blocks) {
    if (!g.dir_lights.ok()) fail(Errc::bad_value, 0, fmt::format("the directional lights did not decode ({})", g.dir_lights.error));
    if (!g.point_lights.ok()) fail(Errc::bad_value, 0, fmt::format("the point lights did not decode ({})", g.point_lights.error));
    const RecordTable& dir = *g.dir_lights.value;
    const RecordTable& point = g.point_lights.value->lights;
    auto saved = saved_rows(g, "lights.csv", text);
    const std::vector<csv::Row>& rows = saved.rows;
    const std::vector<csv::Row>& shown = saved.shown;
    const auto& header = saved.header();
    const size_t dir_first = 2, world_first = dir_first + kDirLightSchema.fields.size(), raw_first = world_first + kWorldColumns;
    // The shown rows by kind and index.
    std::map<std::pair<std::string, std::string>, const std::vector<std::string>*> by_index;
    for (size_t r = 1; r < shown.size(); ++r) by_index[{shown[r].cells[0], shown[r].cells[1]}] = &shown[r].cells;
    RecordTable dirs{&kDirLightSchema, dir.header, {}}, points{&kPointLightSchema, point.header, {}};
    LightOrigins origins;
    for (size_t r = 1; r < rows.size(); ++r) {
        const csv::Row& line = rows[r];
        if (line.cells.size() != header.size())
            fail(Errc::bad_value, 0, fmt::format("line {}: {} cells where the header has {}", line.line, line.cells.size(), header.size()));
        const std::string kind(trimmed(line.cells[0]));
        if (kind != "directional" && kind != "point")
            fail(Errc::bad_value, 0, fmt::format("line {}, column 1 (kind): {:?} is not directional or point", line.line, line.cells[0]));
        const bool directional = kind == "directional";
        const auto it = by_index.find({kind, std::string(trimmed(line.cells[1]))});
        const std::vector<std::string>* was = it != by_index.end() ? it->second : nullptr;
        const int64_t source = was ? std::stoll((*was)[1]) : -1;
        const RecordSchema& schema = directional ? kDirLightSchema : kPointLightSchema;
        const RecordTable& old = directional ? dir : point;
        Bytes record(schema.size, 0);
        if (source >= 0) record.assign(old.record(static_cast<size_t>(source)).begin(), old.record(static_cast<size_t>(source)).end());
        auto cell_changed = [&](size_t column) { return was ? line.cells[column] != (*was)[column] : !trimmed(line.cells[column]).empty(); };
        auto refuse = [&](size_t column, const std::string& why) {
            fail(Errc::bad_value, 0, fmt::format("line {}, column {} ({}): {}", line.line, column + 1, header[column], why));
        };
        if (directional) {
            // Mobies' light, ties' directional_lights and shrubs' dir_lights presumably
            // name these (§3.10, not established): they stay in place, new ones follow.
            if (source < 0 ? dirs.count() < dir.count() : source != static_cast<int64_t>(dirs.count()))
                fail(Errc::bad_value, 0, fmt::format("line {}: directional lights keep their places (mobies, ties and shrubs may name "
                                                     "them, formats-gameplay.md 3.10); a new one goes after them",
                                                     line.line));
            for (size_t c = world_first; c < header.size(); ++c)
                if (!trimmed(line.cells[c]).empty() && cell_changed(c)) refuse(c, "a directional light has no such field");
        } else {
            for (size_t c = dir_first; c < world_first; ++c)
                if (!trimmed(line.cells[c]).empty() && cell_changed(c)) refuse(c, "a point light has no such field");
        }
        const size_t first = directional ? dir_first : raw_first;
        size_t column = first;
        for (const Field& f : schema.fields) {
            if (cell_changed(column)) {
                const auto value = parse_field(f.type, line.cells[column]);
                if (!value) refuse(column, fmt::format("{:?} is not {}", line.cells[column], type_words(f.type)));
                put_le(record, f.offset, *value, field_width(f.type));
            }
            ++column;
        }
        if (!directional)  // the world view of pos, radius and colour: a changed cell stores its u16 (§3.10)
            for (size_t w = 0; w < kWorldColumns; ++w) {
                const size_t c = world_first + w, raw = raw_first + w;
                if (!cell_changed(c)) continue;
                const auto value = stored_u16(w, line.cells[c]);
                if (!value) refuse(c, fmt::format("{:?} is not a value a u16 of 1/{} units holds", line.cells[c], w < 4 ? 64 : 65535));
                if (cell_changed(raw) && parse_field(FieldType::u16, line.cells[raw]) != value)
                    refuse(c, fmt::format("it and {} ({}) are one value, and give two", header[raw], line.cells[raw]));
                put_le(record, 2 * w, *value, 2);
            }
        RecordTable& out = directional ? dirs : points;
        out.bytes.insert(out.bytes.end(), record.begin(), record.end());
        (directional ? origins.directional : origins.point).push_back(source);
    }
    if (dirs.count() < dir.count())
        fail(Errc::bad_value, 0, fmt::format("{} directional lights where there were {}: they keep their places (formats-gameplay.md 3.10)",
                                             dirs.count(), dir.count()));
    if (points.count() > kMaxPointLights)
        fail(Errc::too_large, 0, fmt::format("{} point lights: a level holds at most {} (formats-gameplay.md 3.10)", points.count(), kMaxPointLights));
    if (dirs.bytes != dir.bytes) blocks[static_cast<size_t>(Block::dir_lights)] = encode_table(dirs);
    if (points.bytes != point.bytes) blocks[static_cast<size_t>(Block::point_lights)] = encode_point_lights(points);
    return origins;
}

}  // namespace gcfs::formats::gameplay
