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
#include "formats/gameplay/gameplay.h"

namespace gcfs::formats::gameplay {
namespace {

constexpr uint64_t kTableHeader = 0x10;  // formats-gameplay.md §0: count and three words before the records

struct TableFile {
    std::string_view name;
    Block block;
    const RecordSchema* schema;
    bool instances;  // ties.csv, shrubs.csv: position and group columns after the fields
    // The class list a "class" cell must name (formats-gameplay.md §6), and its word.
    Decoded<std::vector<int32_t>> Gameplay::*classes = nullptr;
    const char* kind = "";
};
const TableFile kTables[] = {
    {"mobies.csv", Block::mobies, &kMobySchema, false, &Gameplay::moby_classes, "moby"},
    {"ties.csv", Block::ties, &kTieSchema, true, &Gameplay::tie_classes, "tie"},
    {"shrubs.csv", Block::shrubs, &kShrubSchema, true, &Gameplay::shrub_classes, "shrub"},
    {"cameras.csv", Block::cameras, &kCameraSchema, false},
    {"sounds.csv", Block::sounds, &kSoundSchema, false},
    {"env_samples.csv", Block::env_samples, &kEnvSampleSchema, false},
};

// A cell's number without the blanks a spreadsheet may put around it.
std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

const TableFile* table_file(std::string_view name) {
    for (const auto& t : kTables)
        if (t.name == name) return &t;
    return nullptr;
}

int help_language(std::string_view name) {
    for (int l = 0; l < kLanguageCount; ++l)
        if (name == fmt::format("help/{}.txt", kLanguages[l])) return l;
    return -1;
}

void put_le(Bytes& bytes, uint64_t at, uint64_t v, uint32_t width) {
    for (uint32_t i = 0; i < width; ++i) bytes.at(at + i) = static_cast<uint8_t>(v >> (8 * i));
}

// `text` as a value of `type`, or why not.
std::optional<uint32_t> parse_field(FieldType type, std::string_view cell) {
    const std::string_view text = trimmed(cell);
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (type == FieldType::f32) {
        float v = 0;
        const auto r = std::from_chars(begin, end, v);
        if (r.ec != std::errc() || r.ptr != end) return std::nullopt;
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        return bits;
    }
    int64_t v = 0;
    std::from_chars_result r{};
    if (type == FieldType::hex32 && text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        r = std::from_chars(begin + 2, end, v, 16);
    else
        r = std::from_chars(begin, end, v, 10);
    if (r.ec != std::errc() || r.ptr != end) return std::nullopt;
    int64_t low = 0, high = 0;
    switch (type) {
        case FieldType::u8: high = 0xff; break;
        case FieldType::s16: low = INT16_MIN, high = INT16_MAX; break;
        case FieldType::u16: high = 0xffff; break;
        case FieldType::s32: low = INT32_MIN, high = INT32_MAX; break;
        default: low = INT32_MIN, high = UINT32_MAX; break;  // hex32: either reading of 32 bits
    }
    if (v < low || v > high) return std::nullopt;
    return static_cast<uint32_t>(v);
}

const char* type_words(FieldType type) {
    switch (type) {
        case FieldType::u8: return "a whole number from 0 to 255";
        case FieldType::s16: return "a whole number from -32768 to 32767";
        case FieldType::u16: return "a whole number from 0 to 65535";
        case FieldType::s32: return "a 32-bit whole number";
        case FieldType::hex32: return "a 32-bit number (0x and hex digits, or decimal)";
        case FieldType::f32: return "a number";
    }
    return "";
}

std::vector<std::string> header_of(const Decoded<RecordTable>&, const TableFile& t) {
    std::vector<std::string> names{"index"};
    for (const Field& f : t.schema->fields) names.emplace_back(f.name);
    if (t.instances) {
        for (const char* n : {"pos_x", "pos_y", "pos_z", "group"}) names.emplace_back(n);
        if (t.block == Block::ties) names.emplace_back("ambient_rgba");
    }
    return names;
}

size_t col3_column(const TableFile& t, int axis);

// A table block's bytes with the rows of `text` written over its records.
Bytes import_table(const Gameplay& g, const Decoded<RecordTable>& d, const TableFile& t, std::string_view text) {
    if (!d.ok()) fail(Errc::bad_value, 0, fmt::format("the {} block did not decode ({}), so it cannot be encoded again", t.name, d.error));
    // What the mount shows for this file: the text each cell had.
    const std::string shown = [&] {
        for (auto& file : export_gameplay(g))
            if (file.name == t.name) return file.content;
        return std::string();
    }();
    auto rows = csv::parse(text);
    if (!rows.ok()) fail(Errc::bad_value, 0, rows.error().message);
    auto before = csv::parse(shown);
    if (!before.ok()) fail(Errc::bad_value, 0, "the shown table does not parse: " + before.error().message);
    const auto header = header_of(d, t);
    if (rows->empty() || rows->front().cells != header)
        fail(Errc::bad_value, 0, fmt::format("line 1: the header must stay as it was ({} columns from \"index\")", header.size()));
    const RecordTable& table = *d.value;
    if (rows->size() != before->size())
        fail(Errc::bad_value, 0, fmt::format("{} rows where the table has {}: rows can be changed, not added or removed (other "
                                             "blocks count them)",
                                             rows->size() - 1, table.count()));
    Bytes block = d.bytes;
    if (block.size() < kTableHeader + table.bytes.size()) fail(Errc::truncated, 0, "the block is shorter than its records");
    for (size_t r = 1; r < rows->size(); ++r) {
        const auto& row = (*rows)[r];
        const auto& old = (*before)[r];
        const uint64_t line = row.line;
        if (row.cells.size() != header.size())
            fail(Errc::bad_value, 0, fmt::format("line {}: {} cells where the header has {}", line, row.cells.size(), header.size()));
        if (row.cells[0] != old.cells[0])
            fail(Errc::bad_value, 0, fmt::format("line {}, column 1: the index must stay {} (rows cannot be moved)", line, old.cells[0]));
        const uint64_t record = kTableHeader + (r - 1) * t.schema->size;
        size_t column = 1;
        for (const Field& f : t.schema->fields) {
            const std::string& cell = row.cells[column];
            if (cell != old.cells[column]) {
                const auto value = parse_field(f.type, cell);
                if (!value)
                    fail(Errc::bad_value, 0, fmt::format("line {}, column {} ({}): {:?} is not {}", line, column + 1, f.name, cell, type_words(f.type)));
                if (f.name == std::string_view("class") && t.classes) {
                    const auto& list = g.*(t.classes);
                    const auto named = static_cast<int32_t>(*value);
                    if (list.ok() && std::find(list.value->begin(), list.value->end(), named) == list.value->end())
                        fail(Errc::bad_value, 0, fmt::format("line {}, column {} (class): {} names no {} class of this level (its {} class "
                                                             "list at gameplay.bin 0x{:x} names {})",
                                                             line, column + 1, named, t.kind, t.kind, list.offset, fmt::join(*list.value, " ")));
                }
                put_le(block, record + f.offset, *value, field_width(f.type));
            }
            ++column;
        }
        if (!t.instances) continue;
        // pos_x/y/z repeat col3_x/y/z (export.cpp): a row must give one position.
        for (int axis = 0; axis < 3; ++axis) {
            const size_t pos = column + static_cast<size_t>(axis);
            const size_t col3 = col3_column(t, axis);
            const auto a = parse_field(FieldType::f32, row.cells[col3]), b = parse_field(FieldType::f32, row.cells[pos]);
            if (a && b && *a != *b && row.cells[pos] != old.cells[pos] && row.cells[col3] != old.cells[col3])
                fail(Errc::bad_value, 0, fmt::format("line {}: {} ({}) and {} ({}) are one value, the matrix's column 3, and give two", line,
                                                     header[col3], row.cells[col3], header[pos], row.cells[pos]));
        }
        for (uint16_t offset : {0x40, 0x44, 0x48}) {  // pos_x/y/z: the matrix's column 3 (export.cpp)
            const std::string& cell = row.cells[column];
            if (cell != old.cells[column]) {
                const auto value = parse_field(FieldType::f32, cell);
                if (!value) fail(Errc::bad_value, 0, fmt::format("line {}, column {} ({}): {:?} is not a number", line, column + 1, header[column], cell));
                put_le(block, record + offset, *value, 4);
            }
            ++column;
        }
        for (; column < header.size(); ++column)
            if (row.cells[column] != old.cells[column])
                fail(Errc::bad_value, 0, fmt::format("line {}, column {} ({}): this column is read-only (it comes from another block, "
                                                     "which this version does not encode)",
                                                     line, column + 1, header[column]));
    }
    return block;
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

// help_text's inverse: UTF-8 of the characters the game's bytes show
// (formats/common/game_text.h), "\\" and "\xNN" for any byte.
// `text` starts at `first_column` of its line; columns count characters.
Bytes help_bytes(std::string_view text, uint64_t line, uint64_t first_column) {
    Bytes out;
    uint64_t column = first_column;
    for (size_t i = 0; i < text.size(); ++i, ++column) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\\') {
            if (i + 1 < text.size() && text[i + 1] == '\\') {
                out.push_back('\\');
                ++i, ++column;
                continue;
            }
            unsigned value = 0;
            if (i + 3 < text.size() && text[i + 1] == 'x' &&
                std::from_chars(text.data() + i + 2, text.data() + i + 4, value, 16).ptr == text.data() + i + 4) {
                if (value == 0) fail(Errc::bad_value, 0, fmt::format("line {}, column {}: \\x00 would end the message", line, column));
                out.push_back(static_cast<uint8_t>(value));
                i += 3, column += 3;
                continue;
            }
            fail(Errc::bad_value, 0, fmt::format("line {}, column {}: a backslash starts \\\\ or \\xNN", line, column));
        }
        size_t at = i;
        const auto character = next_utf8(text, at);
        if (!character) fail(Errc::bad_value, 0, fmt::format("line {}, column {}: not UTF-8", line, column));
        const auto byte = game_byte(*character);
        if (!byte)
            fail(Errc::bad_value, 0, fmt::format("line {}, column {}: U+{:04X} has no byte in the game's text (ASCII and Windows-1252); "
                                                 "write a byte as \\xNN", line, column, static_cast<uint32_t>(*character)));
        out.push_back(*byte);
        i = at - 1;
    }
    return out;
}

Bytes import_help(const Gameplay& g, int language, std::string_view text) {
    const auto& d = g.help[static_cast<size_t>(language)];
    if (!d.ok()) fail(Errc::bad_value, 0, fmt::format("the {} help block did not decode ({})", kLanguages[language], d.error));
    std::vector<HelpMessage> messages = d.value->messages;
    size_t at = 0, index = 0;
    uint64_t line = 1;
    bool changed = false;
    while (at < text.size()) {
        size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view row = text.substr(at, end - at);
        if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
        if (index == messages.size())
            fail(Errc::bad_value, 0, fmt::format("line {}: more lines than the table's {} messages (messages can be changed, not added)", line,
                                                 messages.size()));
        const size_t tab = row.find('\t');
        const std::string id = std::to_string(messages[index].ids[0]);
        if (tab == std::string_view::npos || row.substr(0, tab) != id)
            fail(Errc::bad_value, 0, fmt::format("line {}: must start with the message id {} and a tab", line, id));
        Bytes bytes = help_bytes(row.substr(tab + 1), line, tab + 2);  // the id is ASCII: a character a byte
        if (bytes != messages[index].text) {
            messages[index].text = std::move(bytes);
            changed = true;
        }
        ++index, ++line;
        at = end + 1;
    }
    if (index != messages.size())
        fail(Errc::bad_value, 0, fmt::format("{} lines where the table has {} messages (messages can be changed, not removed)", index, messages.size()));
    return changed ? encode_help(messages) : d.bytes;
}

// The index of the col3 column an instance table's pos column repeats.
size_t col3_column(const TableFile& t, int axis) {
    const auto& fields = t.schema->fields;
    return 1 + static_cast<size_t>(std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return f.offset == 0x40 + 4 * axis; }) -
                                   fields.begin());
}

}  // namespace

std::string reconcile_positions(std::string_view name, std::string_view edited, std::string_view shown) {
    const TableFile* t = table_file(name);
    if (!t || !t->instances) return std::string(edited);
    auto rows = csv::parse(edited);
    auto before = csv::parse(shown);
    if (!rows.ok() || !before.ok() || rows->size() != before->size() || rows->empty()) return std::string(edited);
    // The text as lines, each with its line break, to rewrite a row in place.
    std::vector<std::string> lines;
    for (size_t at = 0; at < edited.size();) {
        const size_t end = edited.find('\n', at);
        const size_t stop = end == std::string_view::npos ? edited.size() : end + 1;
        lines.emplace_back(edited.substr(at, stop - at));
        at = stop;
    }
    const size_t pos0 = rows->front().cells.size() - (t->block == Block::ties ? 5 : 4);  // pos_x/y/z, group[, ambient_rgba]
    for (size_t r = 1; r < rows->size(); ++r) {
        auto cells = (*rows)[r].cells;
        const auto& old = (*before)[r].cells;
        const uint64_t line = (*rows)[r].line;
        if (cells.size() != old.size() || cells.size() <= pos0 + 2 || line == 0 || line > lines.size()) continue;
        bool changed = false;
        for (int axis = 0; axis < 3; ++axis) {
            const size_t pos = pos0 + static_cast<size_t>(axis), col3 = col3_column(*t, axis);
            if (cells[pos] == cells[col3]) continue;
            if (cells[pos] == old[pos]) cells[pos] = cells[col3];        // col3 was edited: pos follows
            else if (cells[col3] == old[col3]) cells[col3] = cells[pos];  // pos was edited: col3 follows
            else
                throw std::invalid_argument(fmt::format("line {}: {} and {} are one value (the matrix's column 3), and were changed to two: "
                                                        "{} and {}",
                                                        line, rows->front().cells[col3], rows->front().cells[pos], cells[col3], cells[pos]));
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

bool importable(std::string_view name) { return table_file(name) || name == "settings.json" || help_language(name) >= 0; }

Result<Bytes> import_file(ByteSpan gameplay, std::string_view name, std::string_view text) {
    return capture([&] {
        const Gameplay g = read_gameplay(gameplay);
        if (!g.file_error.empty()) fail(Errc::bad_value, 0, "gameplay.bin does not decode: " + g.file_error);
        auto blocks = raw_blocks(g);
        if (assemble(blocks) != Bytes(gameplay.begin(), gameplay.end()))
            fail(Errc::bad_value, 0, "gameplay.bin does not encode back to its own bytes, so its files are not edited one by one; "
                                     "write gameplay.bin itself");
        Block block;
        Bytes bytes;
        if (const TableFile* t = table_file(name)) {
            const Decoded<RecordTable>* d = t->block == Block::mobies ? &g.mobies : t->block == Block::ties ? &g.ties
                                          : t->block == Block::shrubs ? &g.shrubs : t->block == Block::cameras ? &g.cameras
                                          : t->block == Block::sounds ? &g.sounds : &g.env_samples;
            block = t->block;
            bytes = import_table(g, *d, *t, text);
        } else if (name == "settings.json") {
            block = Block::level_settings;
            bytes = import_settings(g, text);
        } else if (const int language = help_language(name); language >= 0) {
            block = help_block(language);
            bytes = import_help(g, language, text);
        } else {
            fail(Errc::bad_value, 0, fmt::format("gameplay/{} is not a file gcfs encodes", name));
        }
        blocks[static_cast<size_t>(block)] = std::move(bytes);
        return assemble(blocks);
    });
}

}  // namespace gcfs::formats::gameplay
