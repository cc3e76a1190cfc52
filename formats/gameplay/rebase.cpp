#include "formats/gameplay/rebase.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "formats/export/csv.h"
#include "formats/export/csv_read.h"
#include "formats/gameplay/cells.h"
#include "formats/gameplay/export.h"
#include "formats/gameplay/import.h"
#include "formats/gameplay/lights_import.h"
#include "formats/gameplay/paths_import.h"
#include "formats/gameplay/table_rows.h"
#include "formats/gameplay/transitions_import.h"
#include "formats/gameplay/volume_mesh.h"
#include "formats/gameplay/volumes_import.h"

namespace gcfs::formats::gameplay {
namespace {

// `text` with each row after the header given to `change` (its cells, to rewrite).
template <class F>
std::string each_row(std::string_view text, F change) {
    auto rows = csv::parse(text);
    if (!rows.ok()) fail(Errc::bad_value, 0, rows.error().message);
    std::string out;
    for (size_t r = 0; r < rows->size(); ++r) {
        auto cells = (*rows)[r].cells;
        if (r > 0) change(cells);
        csv::row(out, cells);
    }
    return out;
}

std::optional<int64_t> whole(std::string_view cell) {
    const auto v = parse_field(FieldType::s32, cell);
    if (!v) return std::nullopt;
    return static_cast<int32_t>(*v);
}

// The row a shown index came from before the earlier save ("": a row it added).
std::string source_of(const std::vector<int64_t>& sources, std::string_view cell) {
    const auto i = whole(cell);
    const int64_t source = i && *i >= 0 && static_cast<size_t>(*i) < sources.size() ? sources[static_cast<size_t>(*i)] : -1;
    return source < 0 ? std::string() : std::to_string(source);
}

// §3.13: gcfs numbers pvars, so a pvar_index cell is read only to see that
// it was left as shown. After an earlier save that removed a moby with
// pvars the file shows them numbered anew; a cell still as shown is put
// back as the row's source record numbers it, so the save reads as one made
// over the file without the earlier edit.
struct PvarCells {
    size_t column = 0;
    std::vector<std::string> shown;  // per shown row, its pvar_index cell
    std::vector<std::string> source; // per record of the base, its pvar_index text
    void restore(std::vector<std::string>& cells, const std::vector<int64_t>& sources) const {
        const auto i = whole(cells[0]);
        if (!column || column >= cells.size() || !i || *i < 0 || static_cast<size_t>(*i) >= shown.size()) return;
        const int64_t from = static_cast<size_t>(*i) < sources.size() ? sources[static_cast<size_t>(*i)] : -1;
        if (from >= 0 && static_cast<size_t>(from) < source.size() && trimmed(cells[column]) == trimmed(shown[static_cast<size_t>(*i)]))
            cells[column] = source[static_cast<size_t>(from)];
    }
};

PvarCells pvar_cells(ByteSpan base, const Gameplay& g, const TableSpec& t, std::string_view earlier, const LevelContext* level) {
    PvarCells out;
    const auto& table = table_of(g, t.block);
    auto applied = import_file(base, t.name, earlier, level);
    if (!applied.ok() || !table.ok()) return out;  // the earlier edit's own refusal is told when it is replayed
    auto rows = csv::parse(shown_file(read_gameplay(applied->gameplay), t.name));
    if (!rows.ok() || rows->empty()) return out;
    const auto& header = rows->front().cells;
    const auto field = std::find_if(t.schema->fields.begin(), t.schema->fields.end(), [&](const Field& f) { return f.offset == t.pvar_field; });
    const auto column = std::find(header.begin(), header.end(), "pvar_index");
    if (field == t.schema->fields.end() || column == header.end()) return out;
    out.column = static_cast<size_t>(column - header.begin());
    for (size_t r = 1; r < rows->size(); ++r) out.shown.push_back(out.column < (*rows)[r].cells.size() ? (*rows)[r].cells[out.column] : "");
    for (size_t i = 0; i < table.value->count(); ++i) out.source.push_back(table.value->text(i, *field));
    return out;
}

}  // namespace

Result<std::string> rebase_text(ByteSpan base, std::string_view name, std::string_view earlier, std::string_view text, const LevelContext* level) {
    return capture([&]() -> std::string {
        const TableSpec* t = table_spec(name);
        if (!t && name != "paths.csv" && name != "env_transitions.csv" && name != "lights.csv" && name != "volumes.csv") return std::string(text);
        const Gameplay g = read_gameplay(base);
        if (!g.file_error.empty()) fail(Errc::bad_value, 0, "gameplay.bin does not decode: " + g.file_error);
        BlockBytes scratch = raw_blocks(g);
        if (t || name == "env_transitions.csv") {
            // The shown table's rows: where each came from before the earlier save.
            std::vector<int64_t> sources;
            if (t)
                for (const EditedRow& row : read_rows(g, *t, earlier, level ? &level->held : nullptr).rows) sources.push_back(row.source);
            else
                sources = import_transitions(g, earlier, scratch);
            const PvarCells pvars = t && t->pvar_field ? pvar_cells(base, g, *t, earlier, level) : PvarCells{};
            return each_row(text, [&](std::vector<std::string>& cells) {
                if (cells.empty()) return;
                pvars.restore(cells, sources);
                cells[0] = source_of(sources, cells[0]);
            });
        }
        if (name == "volumes.csv") {  // each kind numbered on its own (column 1 the kind, 2 the index)
            const VolumeOrigins volumes = import_volumes(g, earlier, scratch);
            return each_row(text, [&](std::vector<std::string>& cells) {
                const auto kind = cells.empty() ? kVolumeKindNames.end() : std::find(kVolumeKindNames.begin(), kVolumeKindNames.end(), trimmed(cells[0]));
                if (kind != kVolumeKindNames.end() && cells.size() > 1) cells[1] = source_of(volumes[static_cast<size_t>(kind - kVolumeKindNames.begin())], cells[1]);
            });
        }
        if (name == "lights.csv") {  // each kind numbered on its own (column 1 the kind, 2 the index)
            const LightOrigins lights = import_lights(g, earlier, scratch);
            return each_row(text, [&](std::vector<std::string>& cells) {
                if (cells.size() > 1) cells[1] = source_of(trimmed(cells[0]) == "directional" ? lights.directional : lights.point, cells[1]);
            });
        }
        // Each line's path number, by its kind; a path the earlier save added
        // (or this one adds) gets a number past the old ones, in its order.
        const PathOrigins origins = import_paths(g, earlier, scratch);
        const std::array<size_t, 2> before = {g.paths.ok() ? g.paths.value->splines.size() : 0,
                                              g.grind_paths.ok() ? g.grind_paths.value->splines.size() : 0};
        return each_row(text, [&](std::vector<std::string>& cells) {
            if (cells.size() < 2) return;
            const auto k = static_cast<size_t>(trimmed(cells[0]) == "grind");
            if (const auto j = whole(cells[1]); j && *j >= 0) {
                const std::string source = source_of(origins[k], cells[1]);
                cells[1] = source.empty() ? std::to_string(static_cast<int64_t>(before[k]) + *j) : source;
            }
        });
    });
}

Result<std::string> cells_as_earlier(std::string_view name, std::string_view shown, std::string_view earlier, std::string_view text,
                                     const std::vector<std::string>& followed) {
    return capture([&]() -> std::string {
        auto rows = csv::parse(text);
        auto seen = csv::parse(shown);
        auto before = csv::parse(earlier);
        // Rows numbered in line order, a shown row the earlier save's line of the same number.
        if ((!table_spec(name) && name != "areas.csv") || !rows.ok() || !seen.ok() || !before.ok() || rows->empty() || seen->empty())
            return std::string(text);
        const auto& header = rows->front().cells;
        if (seen->front().cells != header) return std::string(text);
        const auto matched = matched_rows(*rows, *seen);
        std::string out;
        for (size_t r = 0; r < rows->size(); ++r) {
            auto cells = (*rows)[r].cells;
            const size_t s = matched[r];
            const bool whole = r > 0 && cells.size() == header.size();
            const bool known = whole && s && (*seen)[s].cells.size() == header.size();
            const bool had = known && s < before->size() && (*before)[s].cells.size() == header.size();
            for (size_t c = 1; whole && c < header.size(); ++c) {
                const bool as_shown = known && trimmed(cells[c]) == trimmed((*seen)[s].cells[c]);
                if (as_shown && had) cells[c] = (*before)[s].cells[c];
                const bool numbered = std::find(followed.begin(), followed.end(), header[c]) != followed.end();
                if (numbered && !as_shown && !(!known && (trimmed(cells[c]).empty() || (header[c] == "group" && trimmed(cells[c]) == "-1"))))
                    fail(Errc::bad_value, 0, fmt::format("line {}, column {} ({}): an edit made after this file's earlier one sets it (groups.csv "
                                                         "the groups, paths.csv the path numbers); make this change there, or take that "
                                                         "edit back first",
                                                         (*rows)[r].line, c + 1, header[c]));
            }
            csv::row(out, cells);
        }
        return out;
    });
}

Result<std::string> settings_as_earlier(std::string_view shown, std::string_view earlier, std::string_view text,
                                        const std::vector<std::string>& followed) {
    return capture([&]() -> std::string {
        const auto parse = [](std::string_view json) { return nlohmann::json::parse(json, nullptr, false); };
        auto now = parse(text);
        const auto seen = parse(shown), before = parse(earlier);
        const auto settings = [](const nlohmann::json& j) { return j.is_object() && j.contains("settings") && j["settings"].is_object(); };
        if (!settings(now) || !settings(seen) || !settings(before)) return std::string(text);  // the import says what is wrong
        bool changed = false;
        for (const std::string& key : followed) {
            auto& cell = now["settings"];
            if (!cell.contains(key) || !seen["settings"].contains(key) || !before["settings"].contains(key)) continue;
            if (cell[key] != seen["settings"][key])
                fail(Errc::bad_value, 0, fmt::format("settings.{}: an edit made after this file's earlier one numbers it (paths.csv the paths, "
                                                     "volumes.csv the cuboids); take that edit back first",
                                                     key));
            cell[key] = before["settings"][key];
            changed = true;
        }
        return changed ? now.dump(2) + "\n" : std::string(text);
    });
}

Result<std::optional<std::string>> follow_rows(std::string_view name, std::string_view shown, std::string_view text, std::string_view follower_name,
                                               std::string_view follower) {
    return capture([&]() -> std::optional<std::string> {
        // Areas link paths and volumes by number (§3.14), the level settings
        // a ship path and its camera cuboids (§3.5). Those numbers are kept
        // while the same rows are there in the same order; otherwise the
        // order new and re-added rows get is not one a link can follow safely.
        const bool links = follower_name == "areas.csv" || follower_name == "settings.json";
        if (links && (name == "paths.csv" || name == "volumes.csv")) {
            // Each kind's numbers in line order: paths.csv's path cells (paths
            // only: nothing links a grind path), volumes.csv's index cells.
            auto numbers = [&](std::string_view file) {
                std::vector<std::pair<std::string, std::string>> out;
                if (auto rows = csv::parse(file); rows.ok())
                    for (size_t r = 1; r < rows->size(); ++r) {
                        const auto& cells = (*rows)[r].cells;
                        if (cells.size() < 2 || (name == "paths.csv" && trimmed(cells[0]) != "path")) continue;
                        std::pair<std::string, std::string> key{std::string(trimmed(cells[0])), std::string(trimmed(cells[1]))};
                        if (name == "volumes.csv" || std::find(out.begin(), out.end(), key) == out.end()) out.push_back(std::move(key));
                    }
                std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
                return out;
            };
            if (numbers(shown) != numbers(text))
                fail(Errc::bad_value, 0, fmt::format("it names {} by number, and this save adds, removes or reorders them; take that edit back "
                                                     "first, then link them again",
                                                     name == "paths.csv" ? "paths" : "volumes"));
            return std::nullopt;
        }
        // groups.csv's kind of group for each table its members index (§3.11).
        const char* kind = name == "mobies.csv" ? "moby" : name == "ties.csv" ? "tie" : name == "shrubs.csv" ? "shrub" : nullptr;
        if (!kind || follower_name != "groups.csv") return std::nullopt;
        auto rows = csv::parse(text);
        auto before = csv::parse(shown);
        if (!rows.ok() || !before.ok() || before->empty()) return std::nullopt;  // the save is refused by its own import
        // Old row -> new row: the first line that names it (a second is a copy); -1: removed.
        const auto matched = matched_rows(*rows, *before);
        std::vector<int64_t> now(before->size() - 1, -1);
        for (size_t r = 1; r < rows->size(); ++r)
            if (matched[r] && now[matched[r] - 1] < 0) now[matched[r] - 1] = static_cast<int64_t>(r - 1);
        bool same = rows->size() == before->size();
        for (size_t i = 0; i < now.size(); ++i) same = same && now[i] == static_cast<int64_t>(i);
        if (same) return std::nullopt;
        return each_row(follower, [&](std::vector<std::string>& cells) {
            if (cells.size() != 4 || trimmed(cells[0]) != kind) return;
            std::string members;
            size_t count = 0;
            for (const std::string_view word : words(cells[3])) {
                const auto i = whole(word);
                if (i && *i >= 0 && static_cast<size_t>(*i) < now.size()) {
                    if (now[static_cast<size_t>(*i)] < 0) continue;  // its row was removed
                    members += (count++ ? " " : "") + std::to_string(now[static_cast<size_t>(*i)]);
                } else {
                    members += (count++ ? " " : "") + std::string(word);  // not a row: the import refuses it
                }
            }
            cells[3] = members;
            if (!trimmed(cells[2]).empty()) cells[2] = std::to_string(count);
        });
    });
}

}  // namespace gcfs::formats::gameplay
