#include "formats/gameplay/rebase.h"

#include <fmt/format.h>

#include "formats/export/csv.h"
#include "formats/export/csv_read.h"
#include "formats/gameplay/cells.h"
#include "formats/gameplay/lights_import.h"
#include "formats/gameplay/paths_import.h"
#include "formats/gameplay/table_rows.h"
#include "formats/gameplay/transitions_import.h"

namespace gcfs::formats::gameplay {
namespace {

// `text` with each row's cell `column` given by `number` (its text → the new text).
template <class F>
std::string renumbered(std::string_view text, size_t column, F number) {
    auto rows = csv::parse(text);
    if (!rows.ok()) fail(Errc::bad_value, 0, rows.error().message);
    std::string out;
    for (size_t r = 0; r < rows->size(); ++r) {
        auto cells = (*rows)[r].cells;
        if (r > 0 && column < cells.size()) cells[column] = number(cells[column]);
        csv::row(out, cells);
    }
    return out;
}

std::optional<int64_t> whole(std::string_view cell) {
    const auto v = parse_field(FieldType::s32, cell);
    if (!v) return std::nullopt;
    return static_cast<int32_t>(*v);
}

}  // namespace

Result<std::string> rebase_text(ByteSpan base, std::string_view name, std::string_view earlier, std::string_view text, const LevelContext* level) {
    return capture([&]() -> std::string {
        const TableSpec* t = table_spec(name);
        if (!t && name != "paths.csv" && name != "env_transitions.csv" && name != "lights.csv") return std::string(text);
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
            return renumbered(text, 0, [&](const std::string& cell) {
                const auto i = whole(cell);
                if (!i || *i < 0 || static_cast<size_t>(*i) >= sources.size()) return std::string();
                const int64_t source = sources[static_cast<size_t>(*i)];
                return source < 0 ? std::string() : std::to_string(source);
            });
        }
        if (name == "lights.csv") {
            // lights.csv numbers each kind on its own (column 1 the kind, 2 the index).
            const LightOrigins lights = import_lights(g, earlier, scratch);
            auto rows = csv::parse(text);
            if (!rows.ok()) fail(Errc::bad_value, 0, rows.error().message);
            std::string out;
            for (size_t r = 0; r < rows->size(); ++r) {
                auto cells = (*rows)[r].cells;
                if (r > 0 && cells.size() > 1) {
                    const auto& from = trimmed(cells[0]) == "directional" ? lights.directional : lights.point;
                    const auto i = whole(cells[1]);
                    const int64_t source = i && *i >= 0 && static_cast<size_t>(*i) < from.size() ? from[static_cast<size_t>(*i)] : -1;
                    cells[1] = source < 0 ? std::string() : std::to_string(source);
                }
                csv::row(out, cells);
            }
            return out;
        }
        const PathOrigins origins = import_paths(g, earlier, scratch);
        const std::array<size_t, 2> before = {g.paths.ok() ? g.paths.value->splines.size() : 0,
                                              g.grind_paths.ok() ? g.grind_paths.value->splines.size() : 0};
        // Each line's path number, by its kind; a path the earlier save added
        // (or this one adds) gets a number past the old ones, in its order.
        auto rows = csv::parse(text);
        if (!rows.ok()) fail(Errc::bad_value, 0, rows.error().message);
        std::string out;
        for (size_t r = 0; r < rows->size(); ++r) {
            auto cells = (*rows)[r].cells;
            if (r > 0 && cells.size() > 1) {
                const int k = trimmed(cells[0]) == "grind";
                if (const auto j = whole(cells[1]); j && *j >= 0) {
                    const auto& from = origins[static_cast<size_t>(k)];
                    const int64_t source = static_cast<size_t>(*j) < from.size() ? from[static_cast<size_t>(*j)] : -1;
                    cells[1] = std::to_string(source >= 0 ? source : static_cast<int64_t>(before[static_cast<size_t>(k)]) + *j);
                }
            }
            csv::row(out, cells);
        }
        return out;
    });
}

}  // namespace gcfs::formats::gameplay
