// An instance table's CSV read back as rows (the edit decoder of mobies.csv,
// ties.csv, shrubs.csv, cameras.csv, sounds.csv, env_samples.csv): each line
// is the record it names by its index (kept), a second line with one index
// (a copy), or a line with an empty or unknown index (a new instance). A
// record's bytes change only in the cells whose text changed, so a row left
// alone keeps its bytes. What the rows mean for the other blocks is
// instance_edit.h's job.
#pragma once

#include <array>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "formats/export/csv_read.h"
#include "formats/gameplay/gameplay.h"

namespace gcfs::formats::gameplay {

struct TableSpec {
    std::string_view name;  // "mobies.csv"
    Block block;
    const RecordSchema* schema;
    bool instances;         // ties.csv, shrubs.csv: pos, group[, ambient_rgba] columns after the fields
    int class_kind;         // 0 moby, 1 tie, 2 shrub, -1: the rows name no class
    uint16_t pvar_field;    // offset of the record's pvar_index (§3.13), 0: none
    uint16_t uid_field;     // offset of the record's uid, 0: none
};
const TableSpec* table_spec(std::string_view name);
// The decoded block of a table's `block` (one of kTables' six).
const Decoded<RecordTable>& table_of(const Gameplay& g, Block block);

// The classes a level holds, moby, tie, shrub (its core's class tables,
// formats.md 6.3): a new tie or shrub may name any of them, as its class
// list is written again from the instances (formats-gameplay.md §3.12).
using HeldClasses = std::array<std::set<int32_t>, 3>;

struct EditedRow {
    int64_t source = -1;   // the old record it was written over; -1: none
    bool copy = false;     // a new instance copied from `source`
    uint64_t line = 0;
    // The group the line puts the instance in (-1: none), when its group
    // cell was set or changed; empty: the membership stays as it was.
    std::optional<int32_t> group;
    // ties: the ambient bytes of the row's ambient_rgba cell (§3.18).
    Bytes ambient;
    bool ambient_given = false;  // the cell was changed, or the row is a copy or new
    bool fresh_uid = false;      // gcfs gives the row the next free uid
};
struct EditedTable {
    RecordTable records;         // in line order
    std::vector<EditedRow> rows;
    bool same_rows = false;      // every old record, once each, in its old place
};

// Throws Error (fail()) naming the line and column that cannot be encoded.
EditedTable read_rows(const Gameplay& g, const TableSpec& t, std::string_view text, const HeldClasses* held);

// A saved table's rows and the rows of the file as shown (`name`), the saved
// header checked to be the shown one; throws Error (fail()) naming what is wrong.
struct SavedRows {
    std::vector<csv::Row> rows, shown;
    const std::vector<std::string>& header() const { return shown.front().cells; }
};
SavedRows saved_rows(const Gameplay& g, std::string_view name, std::string_view text);

// For each row after the header, the shown row (1-based in `shown`) whose
// index cell it names; 0: none (a new row).
std::vector<size_t> matched_rows(const std::vector<csv::Row>& rows, const std::vector<csv::Row>& shown);

// The CSV header of an instance table.
std::vector<std::string> table_header(const TableSpec& t);

}  // namespace gcfs::formats::gameplay
