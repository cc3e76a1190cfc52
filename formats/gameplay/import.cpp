#include "formats/gameplay/import.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

#include "formats/common/game_text.h"
#include "formats/export/csv_read.h"
#include "formats/gameplay/export.h"
#include "formats/gameplay/block_readers.h"
#include "formats/gameplay/cells.h"
#include "formats/gameplay/gameplay.h"
#include "formats/gameplay/areas_import.h"
#include "formats/gameplay/groups_import.h"
#include "formats/gameplay/help_import.h"
#include "formats/gameplay/instance_edit.h"
#include "formats/gameplay/paths_import.h"
#include "formats/gameplay/lights_import.h"
#include "formats/gameplay/pvar_import.h"
#include "formats/gameplay/transitions_import.h"
#include "formats/gameplay/volumes_import.h"

namespace gcfs::formats::gameplay {
namespace {

int help_language(std::string_view name) {
    for (int l = 0; l < kLanguageCount; ++l)
        if (name == fmt::format("help/{}.txt", kLanguages[l])) return l;
    return -1;
}

// One record of settings.json written over its bytes at `at` of `block`.
void import_record(Bytes& block, uint64_t at, const RecordSchema& schema, const nlohmann::json& object, const std::string& where) {
    if (!object.is_object()) fail(Errc::bad_value, 0, where + " is not an object");
    if (object.size() != schema.fields.size()) fail(Errc::bad_value, 0, fmt::format("{} must keep its {} keys", where, schema.fields.size()));
    for (const Field& f : schema.fields) {
        const std::string key(f.name);
        if (!object.contains(key)) fail(Errc::bad_value, 0, fmt::format("{}.{} is missing", where, key));
        const auto& v = object.at(key);
        std::optional<uint32_t> value;
        if (f.type == FieldType::hex32 && v.is_string()) value = parse_field(f.type, v.get<std::string>());
        else if (f.type == FieldType::f32 && v.is_number()) {
            const float x = v.get<float>();
            uint32_t bits;
            std::memcpy(&bits, &x, 4);
            value = bits;
        } else if (f.type != FieldType::f32 && f.type != FieldType::hex32 && v.is_number_integer())
            value = parse_field(f.type, std::to_string(v.get<int64_t>()));
        if (!value) fail(Errc::bad_value, 0, fmt::format("{}.{}: {} is not {}", where, key, v.dump(), type_words(f.type)));
        // A float keeps its bytes when it reads back to the same value (NaN payloads, -0).
        if (f.type == FieldType::f32) {
            const float old = f32_at(block, at + f.offset);
            const float now = v.get<float>();
            if (old == now || (std::isnan(old) && std::isnan(now))) continue;
        }
        put_le(block, at + f.offset, *value, field_width(f.type));
    }
}

Bytes import_settings(const Gameplay& g, std::string_view text) {
    const auto& d = g.level_settings;
    if (!d.ok()) fail(Errc::bad_value, 0, fmt::format("the level settings block did not decode ({})", d.error));
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        fail(Errc::bad_value, 0, fmt::format("not JSON: {}", e.what()));
    }
    if (!j.is_object() || !j.contains("settings") || !j.contains("chunk_planes") || !j["chunk_planes"].is_array())
        fail(Errc::bad_value, 0, "settings.json must keep its \"settings\" object and \"chunk_planes\" array");
    if (j.value("core_sounds_count", int64_t{-1}) != d.value->core_sounds_count)
        fail(Errc::bad_value, 0, fmt::format("core_sounds_count must stay {} (the sound block counts on it)", d.value->core_sounds_count));
    if (j["chunk_planes"].size() != d.value->planes.count())
        fail(Errc::bad_value, 0, fmt::format("chunk_planes must keep its {} entries", d.value->planes.count()));
    Bytes block = d.bytes;
    if (block.size() < kSettingsSchema.size + d.value->planes.bytes.size()) fail(Errc::truncated, 0, "the settings block is shorter than its records");
    import_record(block, 0, kSettingsSchema, j["settings"], "settings");
    for (size_t i = 0; i < d.value->planes.count(); ++i)
        import_record(block, kSettingsSchema.size + i * kChunkPlaneSchema.size, kChunkPlaneSchema, j["chunk_planes"][i],
                      fmt::format("chunk_planes[{}]", i));
    return block;
}

// The column of col3_x/y/z in an instance table's header.
size_t col3_column(const std::vector<std::string>& header, int axis) {
    static constexpr const char* kNames[] = {"col3_x", "col3_y", "col3_z"};
    return static_cast<size_t>(std::find(header.begin(), header.end(), kNames[axis]) - header.begin());
}

// "blocks written again: ..." for the status, by name in write order.
std::string written_again(const BlockBytes& before, const BlockBytes& after, const std::string& said) {
    std::vector<std::string> names;
    for (const BlockInfo& b : kWriteOrder)
        if (before[static_cast<size_t>(b.block)] != after[static_cast<size_t>(b.block)]) names.emplace_back(b.name);
    std::string out = names.empty() ? "no block changed" : fmt::format("blocks written again: {}", fmt::join(names, ", "));
    return said.empty() ? out : fmt::format("{}; {}", said, out);
}

}  // namespace

std::string reconcile_positions(std::string_view name, std::string_view edited, std::string_view shown) {
    const TableSpec* t = table_spec(name);
    if (!t || !t->instances) return std::string(edited);
    auto rows = csv::parse(edited);
    auto before = csv::parse(shown);
    if (!rows.ok() || !before.ok() || rows->empty() || before->empty() || rows->front().cells != before->front().cells) return std::string(edited);
    // The text as lines, each with its line break, to rewrite a row in place.
    std::vector<std::string> lines;
    for (size_t at = 0; at < edited.size();) {
        const size_t end = edited.find('\n', at);
        const size_t stop = end == std::string_view::npos ? edited.size() : end + 1;
        lines.emplace_back(edited.substr(at, stop - at));
        at = stop;
    }
    const auto& header = rows->front().cells;
    if (header != table_header(*t)) return std::string(edited);  // import_file refuses it
    const size_t pos0 = header.size() - (t->block == Block::ties ? 5 : 4);  // pos_x/y/z, group[, ambient_rgba]
    const auto matched = matched_rows(*rows, *before);
    for (size_t r = 1; r < rows->size(); ++r) {
        auto cells = (*rows)[r].cells;
        const uint64_t line = (*rows)[r].line;
        if (!matched[r] || cells.size() != header.size() || line == 0 || line > lines.size()) continue;  // a new row gives both itself
        const auto& old = (*before)[matched[r]].cells;
        if (old.size() != header.size()) continue;
        bool changed = false;
        for (int axis = 0; axis < 3; ++axis) {
            const size_t pos = pos0 + static_cast<size_t>(axis), col3 = col3_column(header, axis);
            if (cells[pos] == cells[col3]) continue;
            if (cells[pos] == old[pos]) cells[pos] = cells[col3];        // col3 was edited: pos follows
            else if (cells[col3] == old[col3]) cells[col3] = cells[pos];  // pos was edited: col3 follows
            else
                throw std::invalid_argument(fmt::format("line {}: {} and {} are one value (the matrix's column 3), and were changed to two: "
                                                        "{} and {}",
                                                        line, header[col3], header[pos], cells[col3], cells[pos]));
            changed = true;
        }
        std::string& text = lines[line - 1];
        if (!changed || text.find('"') != std::string::npos) continue;  // a quoted row is left as written
        const std::string ending = text.ends_with("\r\n") ? "\r\n" : text.ends_with('\n') ? "\n" : "";
        text = fmt::format("{}{}", fmt::join(cells, ","), ending);
    }
    std::string out;
    for (const auto& l : lines) out += l;
    return out;
}

bool importable(std::string_view name) {
    return table_spec(name) || name == "settings.json" || name == "paths.csv" || name == "env_transitions.csv" || name == "lights.csv" ||
           name == "groups.csv" || name == "areas.csv" ||
           name == "volumes.csv" || pvar_file(name) || help_language(name) >= 0;
}

Result<Imported> import_file(ByteSpan gameplay, std::string_view name, std::string_view text, const LevelContext* level) {
    return capture([&] {
        const Gameplay g = read_gameplay(gameplay);
        if (!g.file_error.empty()) fail(Errc::bad_value, 0, "gameplay.bin does not decode: " + g.file_error);
        auto blocks = raw_blocks(g);
        if (assemble(blocks) != Bytes(gameplay.begin(), gameplay.end()))
            fail(Errc::bad_value, 0, "gameplay.bin does not encode back to its own bytes, so its files are not edited one by one; "
                                     "write gameplay.bin itself");
        const auto before = blocks;
        Imported out;
        std::string said;
        if (const TableSpec* t = table_spec(name)) {
            if (level && level->occlusion_copy && !g.occlusion.present() && (t->block == Block::mobies || t->block == Block::ties)) {
                auto copy = capture([&] {
                    uint64_t length = 0;
                    return read_occlusion(*level->occlusion_copy, 0, length);
                });
                if (!copy.ok())
                    fail(Errc::bad_value, 0, fmt::format("the level's occlusion mappings (occlusion.bin) do not decode ({}), and a {} edit "
                                                         "writes them again",
                                                         copy.error().describe(), t->name));
                out.visibility.mappings = std::move(*copy);
            }
            write_instances(g, *t, read_rows(g, *t, text, level ? &level->held : nullptr), blocks, &out.visibility);
        } else if (pvar_file(name)) {
            import_pvar_file(g, name, ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()), blocks);
        } else if (name == "paths.csv") {
            import_paths(g, text, blocks);
        } else if (name == "env_transitions.csv") {
            import_transitions(g, text, blocks);
        } else if (name == "lights.csv") {
            import_lights(g, text, blocks);
        } else if (name == "groups.csv") {
            import_groups(g, text, blocks);
        } else if (name == "areas.csv") {
            import_areas(g, text, blocks);
        } else if (name == "volumes.csv") {
            import_volumes(g, text, blocks);
        } else if (name == "settings.json") {
            blocks[static_cast<size_t>(Block::level_settings)] = import_settings(g, text);
        } else if (const int language = help_language(name); language >= 0) {
            said = import_help(g, language, text, blocks);
        } else {
            fail(Errc::bad_value, 0, fmt::format("gameplay/{} is not a file gcfs encodes", name));
        }
        out.note = written_again(before, blocks, said);
        out.gameplay = assemble(blocks);
        return out;
    });
}

}  // namespace gcfs::formats::gameplay
