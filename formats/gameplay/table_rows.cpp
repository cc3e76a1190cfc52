#include "formats/gameplay/table_rows.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <map>

#include "formats/export/csv_read.h"
#include "formats/gameplay/cells.h"
#include "formats/gameplay/export.h"

namespace gcfs::formats::gameplay {
namespace {

const TableSpec kTables[] = {
    {"mobies.csv", Block::mobies, &kMobySchema, false, 0, 0x68, 0x10},  // §3.1
    {"ties.csv", Block::ties, &kTieSchema, true, 1, 0, 0x54},           // §3.2
    {"shrubs.csv", Block::shrubs, &kShrubSchema, true, 2, 0, 0},        // §3.3
    {"cameras.csv", Block::cameras, &kCameraSchema, false, -1, 0x1c, 0},  // §3.8
    {"sounds.csv", Block::sounds, &kSoundSchema, false, -1, 0x08, 0},     // §3.9
    {"env_samples.csv", Block::env_samples, &kEnvSampleSchema, false, -1, 0, 0},  // §3.15
};

constexpr std::array<uint16_t, 3> kCol3 = {0x40, 0x44, 0x48};  // ties, shrubs: the matrix's column 3 (§3.2)

const Decoded<Groups>* groups_of(const Gameplay& g, int class_kind) {
    switch (class_kind) {
        case 0: return &g.moby_groups;
        case 1: return &g.tie_groups;
        case 2: return &g.shrub_groups;
        default: return nullptr;
    }
}

// A new row's empty cell: what Wrench's writer puts in a new instance
// (§3.1: size 0x88, 0x38 = 32, 0x3c = 64; §3.2/3.3: col3.w = 0.01; -1 for
// "none" links, §0), 0 for the rest.
uint32_t new_row_default(const TableSpec& t, const Field& f) {
    const std::string_view n = f.name;
    if (t.block == Block::mobies) {
        if (n == "size") return 0x88;
        if (n == "unused_38") return 32;
        if (n == "unused_3c") return 64;
        if (n == "group" || n == "pvar_index") return 0xffffffffu;
    }
    if (t.pvar_field && f.offset == t.pvar_field) return 0xffffffffu;
    if (n == "col3_w") return 0x3c23d70a;  // 0.01f (§6.19)
    return 0;
}

std::optional<Bytes> ambient_bytes(std::string_view cell) {
    cell = trimmed(cell);
    if (cell.size() % 4 != 0) return std::nullopt;  // whole halfwords (§3.18)
    Bytes out;
    for (size_t i = 0; i < cell.size(); i += 2) {
        unsigned v = 0;
        const auto r = std::from_chars(cell.data() + i, cell.data() + i + 2, v, 16);
        if (r.ec != std::errc() || r.ptr != cell.data() + i + 2) return std::nullopt;
        out.push_back(static_cast<uint8_t>(v));
    }
    return out;
}

struct Reader {
    const Gameplay& g;
    const TableSpec& t;
    const HeldClasses* held;
    std::vector<std::string> header;

    [[noreturn]] void refuse(uint64_t line, size_t column, std::string what) const {
        fail(Errc::bad_value, 0, fmt::format("line {}, column {} ({}): {}", line, column + 1, header.at(column), what));
    }

    void check_class(int32_t named, uint64_t line, size_t column) const {
        if (t.class_kind < 0) return;
        static constexpr const char* kKinds[] = {"moby", "tie", "shrub"};
        const char* kind = kKinds[t.class_kind];
        if (t.class_kind > 0 && held) {
            const auto& set = (*held)[static_cast<size_t>(t.class_kind)];
            if (!set.contains(named))
                refuse(line, column, fmt::format("{} names no {} class this level holds (its core's {} classes are {})", named, kind, kind,
                                                 fmt::join(set, " ")));
            return;
        }
        const auto& list = t.class_kind == 0 ? g.moby_classes : t.class_kind == 1 ? g.tie_classes : g.shrub_classes;
        if (list.ok() && std::find(list.value->begin(), list.value->end(), named) == list.value->end())
            refuse(line, column, fmt::format("{} names no {} class of this level (its {} class list at gameplay.bin 0x{:x} names {})", named, kind,
                                             kind, list.offset, fmt::join(*list.value, " ")));
    }

    int32_t group_choice(std::string_view cell, uint64_t line, size_t column) const {
        const auto* groups = groups_of(g, t.class_kind);
        const size_t count = groups && groups->ok() ? groups->value->groups.size() : 0;
        const auto v = parse_field(FieldType::s32, cell);
        const auto value = v ? static_cast<int32_t>(*v) : -2;
        if (value < -1 || value >= static_cast<int64_t>(count))
            refuse(line, column, fmt::format("{:?} is not a group: -1 (none) or 0 to {} (groups.csv)", std::string(cell),
                                             static_cast<int64_t>(count) - 1));
        return value;
    }

    // One line written over `base` (the record it keeps or copies; zeros for
    // a new one), its cells compared with `shown` (none for a new row).
    EditedRow row(const csv::Row& line, const std::vector<std::string>* shown, int64_t source, bool copy, Bytes& record) const {
        EditedRow out{source, copy, line.line, std::nullopt, {}, copy || source < 0, false};
        const auto& cells = line.cells;
        size_t column = 1;
        for (const Field& f : t.schema->fields) {
            const std::string& cell = cells[column];
            const bool fresh = !shown;
            const bool changed = fresh || cell != (*shown)[column];
            if (t.pvar_field && f.offset == t.pvar_field) {
                // §3.13: gcfs numbers pvars (a copy's and a new row's cell is not read);
                // a row's own are pvars/moby_<uid>.bin.
                if (!fresh && !copy && changed)
                    refuse(line.line, column, fmt::format("pvar_index is gcfs's to number, and stays {} (the pvars are pvars/moby_<uid>.bin)",
                                                          (*shown)[column]));
                ++column;
                continue;
            }
            if (changed) {
                std::optional<uint32_t> value;
                if (fresh && trimmed(cell).empty()) {
                    value = new_row_default(t, f);
                    if (t.uid_field && f.offset == t.uid_field) out.fresh_uid = true;
                } else {
                    value = parse_field(f.type, cell);
                }
                if (!value) refuse(line.line, column, fmt::format("{:?} is not {}", cell, type_words(f.type)));
                if (f.name == std::string_view("class")) check_class(static_cast<int32_t>(*value), line.line, column);
                if (t.block == Block::mobies && f.name == std::string_view("group") && !(fresh && trimmed(cell).empty()))
                    out.group = group_choice(cell, line.line, column);
                put_le(record, f.offset, *value, field_width(f.type));
            }
            ++column;
        }
        if (copy && t.block == Block::mobies && !out.group) out.group = static_cast<int32_t>(s32_at(record, 0x58));
        if (!t.instances) return out;
        // pos_x/y/z repeat col3_x/y/z (export.cpp): a row gives one position.
        for (int axis = 0; axis < 3; ++axis, ++column) {
            const std::string& cell = cells[column];
            const size_t col3 = col3_column(axis);
            if (shown ? cell == (*shown)[column] : trimmed(cell).empty()) continue;
            const auto value = parse_field(FieldType::f32, cell);
            if (!value) refuse(line.line, column, fmt::format("{:?} is not a number", cell));
            const bool col3_given = shown ? cells[col3] != (*shown)[col3] : !trimmed(cells[col3]).empty();
            const auto other = parse_field(FieldType::f32, cells[col3]);
            if (col3_given && other && *other != *value)
                fail(Errc::bad_value, 0, fmt::format("line {}: {} ({}) and {} ({}) are one value, the matrix's column 3, and give two", line.line,
                                                     header[col3], cells[col3], header[column], cell));
            put_le(record, kCol3[static_cast<size_t>(axis)], *value, 4);
        }
        // group: which group of groups.csv lists the instance (§3.11).
        if (!shown ? !trimmed(cells[column]).empty() : cells[column] != (*shown)[column])
            out.group = group_choice(cells[column], line.line, column);
        else if (copy)
            out.group = group_choice((*shown)[column], line.line, column);
        ++column;
        if (t.block != Block::ties) return out;
        // ambient_rgba: §3.18's bytes of the tie, in hex.
        const std::string& cell = cells[column];
        if (shown && cell != (*shown)[column]) out.ambient_given = true;
        if (out.ambient_given) {
            const auto bytes = ambient_bytes(cell);
            if (!bytes || bytes->size() > 2 * 0x7fff)
                refuse(line.line, column, fmt::format("{:?} is not ambient bytes: hex digits, four to a halfword, at most 32767 halfwords "
                                                      "(formats-gameplay.md 3.18)",
                                                      cell));
            out.ambient = *bytes;
        }
        return out;
    }

    size_t col3_column(int axis) const {
        const auto& fields = t.schema->fields;
        return 1 + static_cast<size_t>(
                       std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return f.offset == kCol3[static_cast<size_t>(axis)]; }) -
                       fields.begin());
    }
};

// A copy or a new row whose `field` (a uid, §3.1; a tie's occlusion_index,
// §3.17) is empty (`asked`) or another row's takes the next free value (one
// past the largest): each names one instance.
void give_fresh(const TableSpec& t, EditedTable& table, uint16_t field, bool EditedRow::*asked) {
    std::set<int32_t> taken;
    for (size_t i = 0; i < table.rows.size(); ++i)
        if (table.rows[i].source >= 0 && !table.rows[i].copy) taken.insert(table.records.s32(i, field));
    std::vector<size_t> fresh;
    for (size_t i = 0; i < table.rows.size(); ++i) {
        const EditedRow& row = table.rows[i];
        if (row.source >= 0 && !row.copy) continue;
        if ((asked && row.*asked) || !taken.insert(table.records.s32(i, field)).second) fresh.push_back(i);
    }
    int64_t next = taken.empty() ? 0 : int64_t{*taken.rbegin()} + 1;
    for (size_t i : fresh) {
        if (next > INT32_MAX) fail(Errc::too_large, 0, fmt::format("line {}: no value is free above {}", table.rows[i].line, INT32_MAX));
        put_le(table.records.bytes, i * t.schema->size + field, static_cast<uint32_t>(next++), 4);
        if (asked) table.rows[i].*asked = true;
    }
}

}  // namespace

const Decoded<RecordTable>& table_of(const Gameplay& g, Block b) {
    switch (b) {
        case Block::mobies: return g.mobies;
        case Block::ties: return g.ties;
        case Block::shrubs: return g.shrubs;
        case Block::cameras: return g.cameras;
        case Block::sounds: return g.sounds;
        default: return g.env_samples;
    }
}

const TableSpec* table_spec(std::string_view name) {
    for (const auto& t : kTables)
        if (t.name == name) return &t;
    return nullptr;
}

std::vector<std::string> table_header(const TableSpec& t) {
    std::vector<std::string> names{"index"};
    for (const Field& f : t.schema->fields) names.emplace_back(f.name);
    if (t.instances) {
        for (const char* n : {"pos_x", "pos_y", "pos_z", "group"}) names.emplace_back(n);
        if (t.block == Block::ties) names.emplace_back("ambient_rgba");
    }
    return names;
}

std::vector<size_t> matched_rows(const std::vector<csv::Row>& rows, const std::vector<csv::Row>& shown) {
    std::map<std::string, size_t, std::less<>> by_index;
    for (size_t r = 1; r < shown.size(); ++r)
        if (!shown[r].cells.empty()) by_index.emplace(shown[r].cells[0], r);
    std::vector<size_t> out(rows.size(), 0);
    for (size_t r = 1; r < rows.size(); ++r)
        if (!rows[r].cells.empty())
            if (auto it = by_index.find(trimmed(rows[r].cells[0])); it != by_index.end()) out[r] = it->second;
    return out;
}

EditedTable read_rows(const Gameplay& g, const TableSpec& t, std::string_view text, const HeldClasses* held) {
    const auto& d = table_of(g, t.block);
    if (!d.ok()) fail(Errc::bad_value, 0, fmt::format("the {} block did not decode ({}), so it cannot be encoded again", t.name, d.error));
    const std::string shown_text = shown_file(g, t.name);
    auto rows = csv::parse(text);
    if (!rows.ok()) fail(Errc::bad_value, 0, rows.error().message);
    auto shown = csv::parse(shown_text);
    if (!shown.ok()) fail(Errc::bad_value, 0, "the shown table does not parse: " + shown.error().message);
    const Reader reader{g, t, held, table_header(t)};
    if (rows->empty() || rows->front().cells != reader.header)
        fail(Errc::bad_value, 0, fmt::format("line 1: the header must stay as it was ({} columns from \"index\")", reader.header.size()));
    const auto matched = matched_rows(*rows, *shown);
    EditedTable out{{t.schema, d.value->header, {}}, {}, rows->size() == shown->size()};
    std::vector<bool> used(d.value->count(), false);
    // §0: the TableHeader counts records in an s32, and the block's length is one too.
    const uint64_t limit = INT32_MAX / t.schema->size;
    if (rows->size() - 1 > limit)
        fail(Errc::too_large, 0, fmt::format("{} rows: a {} block holds at most {} (its count and length are s32, formats-gameplay.md 0)",
                                             rows->size() - 1, t.name, limit));
    for (size_t r = 1; r < rows->size(); ++r) {
        const csv::Row& line = (*rows)[r];
        if (line.cells.size() != reader.header.size())
            fail(Errc::bad_value, 0, fmt::format("line {}: {} cells where the header has {}", line.line, line.cells.size(), reader.header.size()));
        const std::string_view index = trimmed(line.cells[0]);
        if (!matched[r] && !index.empty() && !parse_field(FieldType::s32, index))
            reader.refuse(line.line, 0, fmt::format("{:?} is no row's index: leave it empty for a new row", line.cells[0]));
        Bytes record(t.schema->size, 0);
        int64_t source = -1;
        bool copy = false;
        if (matched[r]) {
            source = static_cast<int64_t>(matched[r] - 1);
            copy = used[static_cast<size_t>(source)];
            used[static_cast<size_t>(source)] = true;
            const ByteSpan old = d.value->record(static_cast<size_t>(source));
            record.assign(old.begin(), old.end());
            if (static_cast<size_t>(source) != r - 1 || copy) out.same_rows = false;
        } else {
            out.same_rows = false;
        }
        out.rows.push_back(reader.row(line, matched[r] ? &(*shown)[matched[r]].cells : nullptr, source, copy, record));
        out.records.bytes.insert(out.records.bytes.end(), record.begin(), record.end());
    }
    if (t.uid_field) give_fresh(t, out, t.uid_field, &EditedRow::fresh_uid);
    if (t.block == Block::ties) give_fresh(t, out, 0x0c, nullptr);  // §3.2 occlusion_index
    return out;
}

SavedRows saved_rows(const Gameplay& g, std::string_view name, std::string_view text) {
    auto rows = csv::parse(text);
    if (!rows.ok()) fail(Errc::bad_value, 0, rows.error().message);
    auto shown = csv::parse(shown_file(g, name));
    if (!shown.ok() || shown->empty()) fail(Errc::bad_value, 0, "the shown table does not parse: " + (shown.ok() ? "empty" : shown.error().message));
    const auto& header = shown->front().cells;
    if (rows->empty() || rows->front().cells != header)
        fail(Errc::bad_value, 0, fmt::format("line 1: the header must stay as it was ({} columns from {:?})", header.size(), header.front()));
    return {std::move(*rows), std::move(*shown)};
}

}  // namespace gcfs::formats::gameplay
