#include "edit/mods/merge.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>

#include "formats/export/csv.h"
#include "formats/export/csv_read.h"

namespace gcfs::edit::mods {
namespace {

// A file's parts (merge.h Part); a part no base part matches is fresh (added).
struct Side {
    std::vector<Part> parts;
    std::set<std::string> keys;
};

Side side_of(std::vector<Part> parts) {
    Side s{std::move(parts), {}};
    for (const Part& p : s.parts) s.keys.insert(p.key);
    return s;
}

const Part* find(const Side& side, const std::string& key) {
    for (const Part& p : side.parts)
        if (p.key == key) return &p;
    return nullptr;
}

// The three-way merge every grain shares: `current`'s parts in its order,
// each changed field of `theirs` set over it, parts `theirs` removed taken
// out, parts it added appended. Where both changed one field (or one
// removed what the other changed), `theirs` wins and a conflict is named.
std::vector<Part> merge_parts(const Side& base, const Side& current, const Side& theirs, const std::vector<std::string>& field_names,
                              const std::function<std::string(const std::string&)>& describe, std::vector<std::string>& conflicts) {
    std::vector<Part> out;
    auto field_name = [&](size_t i) { return i < field_names.size() ? field_names[i] : fmt::format("field {}", i + 1); };
    for (const Part& c : current.parts) {
        const Part* b = find(base, c.key);
        const Part* t = find(theirs, c.key);
        if (!t) {
            if (b && c.fields != b->fields) conflicts.push_back(fmt::format("{}: changed by one, removed by the other", describe(c.key)));
            if (b) continue;  // removed by theirs (or changed and removed: the later folder wins)
            out.push_back(c);  // added by current alone
            continue;
        }
        Part merged = c;
        const size_t n = std::max(c.fields.size(), t->fields.size());
        merged.fields.resize(n);
        for (size_t i = 0; i < n; ++i) {
            const std::string none;
            const std::string& bv = b && i < b->fields.size() ? b->fields[i] : none;
            const std::string& cv = i < c.fields.size() ? c.fields[i] : none;
            const std::string& tv = i < t->fields.size() ? t->fields[i] : none;
            if (b && tv == bv) continue;  // theirs left it: current's stands
            if (cv != tv && (!b || cv != bv)) conflicts.push_back(fmt::format("{}, {}", describe(c.key), field_name(i)));
            merged.fields[i] = tv;
        }
        out.push_back(std::move(merged));
    }
    for (const Part& t : theirs.parts) {
        if (current.keys.count(t.key)) continue;
        const Part* b = find(base, t.key);
        if (!b) {
            out.push_back(t);  // added by theirs
        } else if (t.fields != b->fields) {
            conflicts.push_back(fmt::format("{}: removed by one, changed by the other", describe(t.key)));
            out.push_back(t);
        }
    }
    return out;
}

// A file cut at its grain: the image's version and the others as parts,
// how a key reads in words, and how parts are written back as the file.
struct Cut {
    Side base;
    std::vector<Side> others;
    std::vector<std::string> field_names;
    std::function<std::string(const std::string&)> describe;
    std::function<std::string(std::vector<Part>)> write;
};

// The image's version and the others, each cut by `side` alone (a grain
// whose parts do not depend on the image's: messages, keys).
template <class SideOfText>
Cut cut_each(std::string_view base, const std::vector<std::string_view>& others, SideOfText side) {
    Cut cut;
    cut.base = side(base);
    for (std::string_view text : others) cut.others.push_back(side(text));
    return cut;
}

// ---- tables: rows by their key cells ----

// The leading columns that name a row (formats/gameplay/export: index, or
// kind with index, group or path and point); a file without them is keyed by
// line number.
bool key_column(const std::string& name) { return name == "index" || name == "kind" || name == "group" || name == "path" || name == "point"; }

struct Table {
    std::vector<std::string> header;
    std::vector<formats::csv::Row> rows;
};

Table table_of(std::string_view text, const char* side) {
    auto parsed = formats::csv::parse(text);
    if (!parsed.ok()) throw std::runtime_error(fmt::format("{} file: {}", side, parsed.error().describe()));
    if (parsed->empty()) throw std::runtime_error(fmt::format("{} file has no header", side));
    Table t{std::move((*parsed)[0].cells), {}};
    t.rows.assign(parsed->begin() + 1, parsed->end());
    return t;
}

// A row's key: its key cells (or its uid, `by_uid`), the first time they
// appear, when the image's file has that row; any other line is a new row (a
// copy or a new instance), keyed by its uid when it gives one, else by where
// it stands.
Side table_side(const Table& t, size_t key_columns, std::optional<size_t> uid_column, bool by_uid, const std::set<std::string>* base_keys, char who) {
    std::vector<Part> parts;
    std::set<std::string> seen;
    for (size_t r = 0; r < t.rows.size(); ++r) {
        const auto& cells = t.rows[r].cells;
        const bool has_uid = uid_column && *uid_column < cells.size() && !cells[*uid_column].empty();
        std::string key;
        if (by_uid && has_uid) key = "uid " + cells[*uid_column];
        else
            for (size_t i = 0; i < key_columns && i < cells.size(); ++i) key += (i ? "," : "") + cells[i];
        if (key.empty()) key = fmt::format("{}", r);
        const bool known = !base_keys || base_keys->count(key);
        if (!known || !seen.insert(key).second) key = has_uid ? fmt::format("new uid {}", cells[*uid_column]) : fmt::format("new {} {}", who, r);
        parts.push_back({key, cells});
    }
    return side_of(std::move(parts));
}

Cut cut_tables(std::string_view base_text, const std::vector<std::string_view>& others, bool by_uid) {
    auto base = std::make_shared<Table>(table_of(base_text, "the image's"));
    size_t key_columns = 0;
    while (key_columns < base->header.size() && key_column(base->header[key_columns])) ++key_columns;
    std::optional<size_t> uid;
    if (const auto it = std::find(base->header.begin(), base->header.end(), "uid"); it != base->header.end()) uid = static_cast<size_t>(it - base->header.begin());
    Cut cut;
    cut.base = table_side(*base, key_columns, uid, by_uid, nullptr, 'b');
    char who = 'c';
    for (std::string_view text : others) {
        const Table t = table_of(text, "a mod's");
        if (t.header != base->header) throw std::runtime_error("the files' columns differ");
        cut.others.push_back(table_side(t, key_columns, uid, by_uid, &cut.base.keys, who++));
    }
    cut.field_names = base->header;
    auto base_side = std::make_shared<Side>(cut.base);
    cut.describe = [base, base_side, key_columns, uid](const std::string& key) {
        if (key.starts_with("new ")) return fmt::format("added row ({})", key.substr(4));
        const Part* row = find(*base_side, key);
        std::string out = "row";
        for (size_t i = 0; i < key_columns && row && i < row->fields.size(); ++i) out += fmt::format(" {} {}", base->header[i], row->fields[i]);
        if (key_columns == 0) out += " " + key;
        if (uid && row && *uid < row->fields.size()) out += fmt::format(" (uid {})", row->fields[*uid]);
        return out;
    };
    cut.write = [base](std::vector<Part> parts) {
        std::string text;
        formats::csv::row(text, base->header);
        for (const Part& p : parts) formats::csv::row(text, p.fields);
        return text;
    };
    return cut;
}

// ---- help messages: "id<TAB>text" lines by id ----

std::vector<std::string> lines_of(std::string_view text) {
    std::vector<std::string> out;
    size_t at = 0;
    while (at < text.size()) {
        size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string line(text.substr(at, end - at));
        if (!line.empty() && line.back() == '\r') line.pop_back();
        out.push_back(std::move(line));
        at = end + 1;
    }
    return out;
}

Side help_side(std::string_view text) {
    std::vector<Part> parts;
    std::map<std::string, size_t> seen;
    for (std::string& line : lines_of(text)) {
        const std::string id = line.substr(0, line.find('\t'));
        parts.push_back({fmt::format("{}#{}", id, seen[id]++), {std::move(line)}});
    }
    return side_of(std::move(parts));
}

Cut cut_help(std::string_view base, const std::vector<std::string_view>& others) {
    Cut cut = cut_each(base, others, help_side);
    cut.field_names = {"its line"};
    cut.describe = [](const std::string& key) {
        const size_t hash = key.rfind('#');
        return key.substr(hash + 1) == "0" ? fmt::format("message {}", key.substr(0, hash))
                                           : fmt::format("message {} (number {} of that id)", key.substr(0, hash), key.substr(hash + 1));
    };
    cut.write = [](std::vector<Part> parts) {
        std::string text;
        for (const Part& p : parts) text += p.fields[0] + "\n";
        return text;
    };
    return cut;
}

// ---- subtitle cues: SubRip blocks by their times, else their text ----

struct Cue {
    std::string times, text;
};

std::vector<Cue> cues_of(std::string_view srt) {
    std::vector<Cue> out;
    std::vector<std::string> block;
    auto flush = [&] {
        if (block.empty()) return;
        if (block.size() < 2 || block[1].find("-->") == std::string::npos)
            throw std::runtime_error(fmt::format("the cue \"{}\" has no times line", block[0]));
        Cue cue{block[1], {}};
        for (size_t i = 2; i < block.size(); ++i) cue.text += (i > 2 ? "\n" : "") + block[i];
        out.push_back(std::move(cue));
        block.clear();
    };
    for (std::string& line : lines_of(srt)) {
        if (line.empty()) flush();
        else block.push_back(std::move(line));
    }
    flush();
    return out;
}

// Cues pair with the image's as the subtitle decoder pairs them
// (formats/mpeg/subtitles.h import_subrip): the same times, else the same text.
Side cue_side(const std::vector<Cue>& cues, const std::vector<Cue>* base, char who) {
    std::vector<Part> parts;
    std::vector<bool> used(base ? base->size() : 0);
    auto claim = [&](auto same) -> std::optional<size_t> {
        for (size_t i = 0; base && i < base->size(); ++i)
            if (!used[i] && same((*base)[i])) return used[i] = true, i;
        return std::nullopt;
    };
    for (size_t n = 0; n < cues.size(); ++n) {
        const Cue& cue = cues[n];
        std::optional<size_t> match = base ? claim([&](const Cue& b) { return b.times == cue.times; }) : std::optional<size_t>(n);
        if (!match) match = claim([&](const Cue& b) { return b.text == cue.text; });
        parts.push_back({match ? fmt::format("cue {}", *match + 1) : fmt::format("new {} {}", who, n), {cue.times, cue.text}});
    }
    return side_of(std::move(parts));
}

// "HH:MM:SS,mmm" at the start of a times line, in milliseconds (a line that
// is not one sorts first; the decoder names it). Read by hand: a mod's line
// may be any length, and std::regex recurses per character.
int64_t start_ms(const std::string& times) {
    size_t at = times.find_first_not_of(" \t");
    int64_t parts[4] = {};
    const char separators[3] = {':', ':', ','};
    for (int i = 0; i < 4; ++i) {
        if (at == std::string::npos) return -1;
        size_t digits = 0;
        while (at < times.size() && digits < 6 && times[at] >= '0' && times[at] <= '9') parts[i] = parts[i] * 10 + (times[at++] - '0'), ++digits;
        if (!digits) return -1;
        if (i < 3) {
            if (at >= times.size() || (times[at] != separators[i] && !(i == 2 && times[at] == '.'))) return -1;
            ++at;
        }
    }
    return ((parts[0] * 60 + parts[1]) * 60 + parts[2]) * 1000 + parts[3];
}

Cut cut_cues(std::string_view base_text, const std::vector<std::string_view>& others) {
    const auto base = cues_of(base_text);
    Cut cut;
    cut.base = cue_side(base, nullptr, 'b');
    char who = 'c';
    for (std::string_view text : others) cut.others.push_back(cue_side(cues_of(text), &base, who++));
    cut.field_names = {"its times", "its text"};
    cut.describe = [](const std::string& key) { return key.starts_with("new ") ? std::string("an added cue") : key; };
    cut.write = [](std::vector<Part> parts) {
        std::stable_sort(parts.begin(), parts.end(), [](const Part& x, const Part& y) { return start_ms(x.fields[0]) < start_ms(y.fields[0]); });
        std::string text;
        for (size_t i = 0; i < parts.size(); ++i) text += fmt::format("{}{}\n{}\n{}\n", i ? "\n" : "", i + 1, parts[i].fields[0], parts[i].fields[1]);
        return text;
    };
    return cut;
}

// ---- settings.json: top-level keys ----

Side settings_side(std::string_view text) {
    const auto json = nlohmann::ordered_json::parse(text, nullptr, false);
    if (!json.is_object()) throw std::runtime_error("a settings.json is not a JSON object");
    std::vector<Part> parts;
    for (const auto& [key, value] : json.items()) parts.push_back({key, {value.dump()}});
    return side_of(std::move(parts));
}

Cut cut_settings(std::string_view base, const std::vector<std::string_view>& others) {
    Cut cut = cut_each(base, others, settings_side);
    cut.field_names = {"its value"};
    cut.describe = [](const std::string& key) { return fmt::format("key {:?}", key); };
    cut.write = [](std::vector<Part> parts) {
        nlohmann::ordered_json out = nlohmann::ordered_json::object();
        for (const Part& p : parts) out[p.key] = nlohmann::ordered_json::parse(p.fields[0]);
        return out.dump(2) + "\n";
    };
    return cut;
}

Cut cut_file(Grain grain, std::string_view base, const std::vector<std::string_view>& others, bool by_uid) {
    switch (grain) {
        case Grain::table_cells: return cut_tables(base, others, by_uid);
        case Grain::help_messages: return cut_help(base, others);
        case Grain::subtitle_cues: return cut_cues(base, others);
        case Grain::settings_keys: return cut_settings(base, others);
        case Grain::whole: break;
    }
    throw std::logic_error("a whole file has no parts");
}

}  // namespace

Grain grain_of(const std::string& path) {
    static const std::regex kTable(R"(LEVEL\d+/gameplay/[a-z_]+\.csv)"), kHelp(R"(LEVEL\d+/gameplay/help/[a-z_]+\.txt)"),
        kSettings(R"(LEVEL\d+/gameplay/settings\.json)"), kCues(R"(global/mpeg/\d+\.[a-z]+\.srt)");
    if (std::regex_match(path, kTable)) return Grain::table_cells;
    if (std::regex_match(path, kHelp)) return Grain::help_messages;
    if (std::regex_match(path, kSettings)) return Grain::settings_keys;
    if (std::regex_match(path, kCues)) return Grain::subtitle_cues;
    return Grain::whole;
}

Merged merge3(Grain grain, std::string_view base, std::string_view current, std::string_view theirs) {
    if (grain == Grain::whole) {
        Merged m{std::string(theirs), {}};
        if (current != theirs) m.conflicts.push_back("the whole file");
        return m;
    }
    const Cut cut = cut_file(grain, base, {current, theirs}, false);
    Merged m;
    m.text = cut.write(merge_parts(cut.base, cut.others[0], cut.others[1], cut.field_names, cut.describe, m.conflicts));
    return m;
}

KeyedParts keyed_parts(Grain grain, std::string_view base, std::string_view other, bool by_uid) {
    Cut cut = cut_file(grain, base, {other}, by_uid);
    return {cut.field_names, std::move(cut.base.parts), std::move(cut.others[0].parts), cut.describe};
}

}  // namespace gcfs::edit::mods
