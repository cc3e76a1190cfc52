#include "edit/journal.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <functional>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "tree/node/log_escape.h"
#include "tree/node/safe_name.h"

namespace gcfs::edit {
namespace {

constexpr int kJournalVersion = 1;
constexpr size_t kMaxContainers = 64;

const char* state_word(EditState s) {
    switch (s) {
        case EditState::applied: return "applied";
        case EditState::refused: return "refused";
        case EditState::kept: return "kept";
        case EditState::translated: return "translated";
    }
    return "";
}

using Bad = std::function<EditStoreError(const std::string&)>;

// A whole number of the JSON text, at most `most`. nlohmann converts a float
// or a negative number to an integer type without a word (a float past the
// type's range is undefined behaviour), so the kind is checked first.
uint64_t whole_number(const nlohmann::json& value, const char* name, uint64_t most, const Bad& bad) {
    if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<int64_t>() >= 0))
        throw bad(fmt::format("\"{}\" is {}, not a whole number", name, value.dump()));
    const auto n = value.get<uint64_t>();
    if (n > most) throw bad(fmt::format("\"{}\" is {}, past {}", name, n, most));
    return n;
}

uint64_t bounded_sequence(const nlohmann::json& value, const Bad& bad) { return whole_number(value, "sequence", kMaxSequence - 1, bad); }

// A time, seconds since 1970; absent is 0 (a journal written before times were kept).
int64_t time_field(const nlohmann::json& entry, const char* name, const Bad& bad) {
    if (!entry.contains(name)) return 0;
    return static_cast<int64_t>(whole_number(entry.at(name), name, uint64_t{1} << 40, bad));
}

std::string when(int64_t seconds) {
    if (seconds <= 0) return "time unknown";
    const std::time_t t = seconds;
    std::tm local{};
    ::localtime_r(&t, &local);
    return fmt::format("{:%Y-%m-%d %H:%M:%S}", local);
}

}  // namespace

bool valid_mount_path(const std::string& path) {
    if (path.empty() || path.size() > 4096 || path.front() == '/') return false;
    size_t start = 0;
    while (start <= path.size()) {
        const size_t slash = path.find('/', start);
        const std::string step = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
        // Held to exactly the rules a disc name follows (tree/node/safe_name.h).
        if (tree::safe_name(step) != step || step.ends_with(kStagedSuffix)) return false;
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    return true;
}

Journal parse_journal(std::string_view text, const std::string& where) {
    auto bad = [&](const std::string& why) {
        return EditStoreError(fmt::format("{}: {}; it is not a journal gcfs can use (move the folder away to start afresh)", where, why));
    };
    if (text.size() > kMaxJournalBytes) throw bad(fmt::format("{} bytes, more than {}", text.size(), kMaxJournalBytes));
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception& e) {
        throw bad(fmt::format("not JSON ({})", e.what()));
    }
    Journal journal;
    try {
        if (!j.is_object() || !j.contains("gcfs_edits") || !j.at("gcfs_edits").is_number_integer() || j.at("gcfs_edits").get<int64_t>() != kJournalVersion)
            throw bad(fmt::format("not a version {} gcfs journal", kJournalVersion));
        journal.image_key = j.at("image").get<std::string>();
        journal.volume_id = j.value("volume_id", std::string());
        if (journal.volume_id.size() > 32) throw bad("\"volume_id\" is longer than an ISO9660 volume identifier (32 characters)");
        journal.next_sequence = whole_number(j.at("next_sequence"), "next_sequence", kMaxSequence, bad);
        const auto& edits = j.at("edits");
        if (!edits.is_array() || edits.size() > kMaxJournalRecords)
            throw bad(fmt::format("\"edits\" is not an array of at most {} entries", kMaxJournalRecords));
        std::unordered_set<std::string> seen;
        journal.records.reserve(edits.size());
        for (const auto& e : edits) {
            EditRecord r;
            r.path = e.at("path").get<std::string>();
            if (!valid_mount_path(r.path)) throw bad(fmt::format("the edit path {:?} is not a mount path", r.path));
            const std::string state = e.at("state").get<std::string>();
            if (state == "applied") r.state = EditState::applied;
            else if (state == "refused") r.state = EditState::refused;
            else if (state == "kept") r.state = EditState::kept;
            else if (state == "translated") r.state = EditState::translated;
            else throw bad(fmt::format("the state {:?} is none of applied, refused, kept, translated", state));
            r.status = e.at("status").get<std::string>();
            r.sequence = bounded_sequence(e.at("sequence"), bad);
            r.time = time_field(e, "time", bad);
            r.size = whole_number(e.at("size"), "size", kMaxStoredBytes, bad);
            r.crc = static_cast<uint32_t>(whole_number(e.at("crc32"), "crc32", UINT32_MAX, bad));
            const auto& containers = e.at("containers");
            if (!containers.is_array() || containers.size() > kMaxContainers) throw bad("\"containers\" is not a short array");
            for (const auto& c : containers)
                r.containers.push_back({c.at("path").get<std::string>(), whole_number(c.at("bytes"), "bytes", uint64_t{1} << 42, bad)});
            r.last_refusal = e.value("last_refusal", std::string());
            if (e.contains("refusal_sequence")) r.refusal_sequence = bounded_sequence(e.at("refusal_sequence"), bad);
            r.refusal_time = time_field(e, "refusal_time", bad);
            if (!seen.insert(r.path).second) throw bad(fmt::format("{:?} is listed twice", r.path));
            journal.records.push_back(std::move(r));
        }
    } catch (const nlohmann::json::exception& e) {
        throw bad(fmt::format("a field is missing or of the wrong type ({})", e.what()));
    }
    std::sort(journal.records.begin(), journal.records.end(), [](const EditRecord& a, const EditRecord& b) { return a.sequence < b.sequence; });
    for (const auto& r : journal.records)
        journal.next_sequence = std::max({journal.next_sequence, r.sequence + 1, r.refusal_sequence + 1});
    return journal;
}

std::string write_journal_text(const Journal& journal) {
    nlohmann::ordered_json j;
    j["gcfs_edits"] = kJournalVersion;
    j["image"] = journal.image_key;
    if (!journal.volume_id.empty()) j["volume_id"] = journal.volume_id;
    j["next_sequence"] = journal.next_sequence;
    j["edits"] = nlohmann::ordered_json::array();
    for (const auto& r : journal.records) {
        nlohmann::ordered_json e;
        e["path"] = r.path;
        e["state"] = state_word(r.state);
        e["status"] = r.status;
        e["sequence"] = r.sequence;
        e["time"] = r.time;
        e["size"] = r.size;
        e["crc32"] = r.crc;
        if (!r.last_refusal.empty()) {
            e["last_refusal"] = r.last_refusal;
            e["refusal_sequence"] = r.refusal_sequence;
            e["refusal_time"] = r.refusal_time;
        }
        e["containers"] = nlohmann::ordered_json::array();
        for (const auto& c : r.containers) e["containers"].push_back({{"path", c.path}, {"bytes", c.bytes}});
        j["edits"].push_back(std::move(e));
    }
    // Invalid UTF-8 (a disc name's raw byte in a reason) is replaced, never thrown on.
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string render_journal(const Journal& journal, const std::string& folder) {
    std::string out = fmt::format("edits folder: {}\nimage key: {}\n", tree::escape_log_text(folder), tree::escape_log_text(journal.image_key));
    // The key is the image's size and its table-of-contents digest (edit/session.h image_key).
    const size_t dash = journal.image_key.find('-');
    out += fmt::format("belongs to the image with volume id {:?}, {} bytes, table-of-contents digest {}\n",
                       journal.volume_id.empty() ? std::string("(not recorded)") : tree::escape_log_text(journal.volume_id),
                       tree::escape_log_text(journal.image_key.substr(0, dash)),
                       dash == std::string::npos ? std::string("(none)") : tree::escape_log_text(journal.image_key.substr(dash + 1)));
    if (journal.records.empty()) return out + "no edits\n";
    struct Event {
        uint64_t sequence;
        std::string text;
    };
    std::vector<Event> events;
    for (const auto& r : journal.records) {
        std::string line = fmt::format("{}  {}  {}  ({})\n", state_word(r.state), tree::escape_log_text(r.path), tree::escape_log_text(r.status), when(r.time));
        for (const auto& c : r.containers) line += fmt::format("    changes {} ({} bytes)\n", tree::escape_log_text(c.path), c.bytes);
        events.push_back({r.sequence, std::move(line)});
        if (!r.last_refusal.empty())
            events.push_back({r.refusal_sequence, fmt::format("refused  {}  {}; the applied content stays  ({})\n", tree::escape_log_text(r.path),
                                                              tree::escape_log_text(r.last_refusal), when(r.refusal_time))});
    }
    std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.sequence < b.sequence; });
    for (const auto& e : events) out += e.text;
    return out;
}

}  // namespace gcfs::edit
