#include "formats/gameplay/transitions_import.h"

#include <fmt/format.h>

#include <bit>

#include "formats/export/csv_read.h"
#include "formats/gameplay/cells.h"
#include "formats/gameplay/export.h"
#include "formats/gameplay/spheres.h"
#include "formats/gameplay/table_rows.h"

namespace gcfs::formats::gameplay {
namespace {

// A new transition's empty cells: the inverse matrix's col3.w is 1 (§3.15:
// a full 4x4), the rest 0.
uint32_t new_row_default(const Field& f) { return f.name == std::string_view("inverse_col3_w") ? 0x3f800000u : 0; }

}  // namespace

std::vector<int64_t> import_transitions(const Gameplay& g, std::string_view text, BlockBytes& blocks) {
    const auto& d = g.env_transitions;
    if (!d.ok()) fail(Errc::bad_value, 0, fmt::format("the env transitions block did not decode ({}), so it cannot be encoded again", d.error));
    const EnvTransitions& old = *d.value;
    auto saved = saved_rows(g, "env_transitions.csv", text);
    const std::vector<csv::Row>& rows = saved.rows;
    const std::vector<csv::Row>& shown = saved.shown;
    const auto& header = saved.header();
    const auto matched = matched_rows(rows, shown);
    const uint64_t limit = INT32_MAX / (kSphereSchema.size + kEnvTransitionSchema.size);  // §0: an s32 count
    if (rows.size() - 1 > limit) fail(Errc::too_large, 0, fmt::format("{} rows: an env transitions block holds at most {}", rows.size() - 1, limit));
    EnvTransitions out{{&kSphereSchema, old.spheres.header, {}}, {&kEnvTransitionSchema, old.transitions.header, {}}};
    std::vector<int64_t> sources;
    for (size_t r = 1; r < rows.size(); ++r) {
        const csv::Row& line = rows[r];
        if (line.cells.size() != header.size())
            fail(Errc::bad_value, 0, fmt::format("line {}: {} cells where the header has {}", line.line, line.cells.size(), header.size()));
        const int64_t source = matched[r] ? static_cast<int64_t>(matched[r] - 1) : -1;
        const std::vector<std::string>* was = matched[r] ? &shown[matched[r]].cells : nullptr;
        Bytes sphere(kSphereSchema.size, 0), record(kEnvTransitionSchema.size, 0);
        if (source >= 0) {
            const ByteSpan s = old.spheres.record(static_cast<size_t>(source)), t = old.transitions.record(static_cast<size_t>(source));
            sphere.assign(s.begin(), s.end());
            record.assign(t.begin(), t.end());
        }
        // The sphere's cells are the writer's to compute (§3.15): a changed one is refused.
        size_t column = 1;
        for (const Field& f : kSphereSchema.fields) {
            if (was && line.cells[column] != (*was)[column])
                fail(Errc::bad_value, 0, fmt::format("line {}, column {} ({}): the bounding sphere is computed from the inverse matrix "
                                                     "(formats-gameplay.md 3.15); change the matrix",
                                                     line.line, column + 1, f.name));
            ++column;
        }
        bool matrix_changed = source < 0;
        for (const Field& f : kEnvTransitionSchema.fields) {
            const std::string& cell = line.cells[column];
            if (!was || cell != (*was)[column]) {
                const auto value = !was && trimmed(cell).empty() ? std::optional<uint32_t>(new_row_default(f)) : parse_field(f.type, cell);
                if (!value)
                    fail(Errc::bad_value, 0, fmt::format("line {}, column {} ({}): {:?} is not {}", line.line, column + 1, f.name, cell, type_words(f.type)));
                put_le(record, f.offset, *value, field_width(f.type));
                matrix_changed = matrix_changed || f.offset < 0x40;
            }
            ++column;
        }
        if (matrix_changed) {
            const RecordTable one{&kEnvTransitionSchema, {}, record};
            const auto s = sphere_floats(transition_sphere(one.floats<16>(0, 0)));
            for (size_t k = 0; k < 4; ++k) put_le(sphere, 4 * k, std::bit_cast<uint32_t>(s[k]), 4);
        }
        out.spheres.bytes.insert(out.spheres.bytes.end(), sphere.begin(), sphere.end());
        out.transitions.bytes.insert(out.transitions.bytes.end(), record.begin(), record.end());
        sources.push_back(source);
    }
    if (out.spheres.bytes != old.spheres.bytes || out.transitions.bytes != old.transitions.bytes)
        blocks[static_cast<size_t>(Block::env_transitions)] = encode_env_transitions(out);
    return sources;
}

}  // namespace gcfs::formats::gameplay
