#include "formats/gameplay/help_import.h"

#include <fmt/format.h>

#include <charconv>
#include <map>
#include <set>

#include "formats/common/game_text.h"

namespace gcfs::formats::gameplay {
namespace {

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

// A message by its id and which of the messages with that id it is.
using Key = std::pair<int16_t, size_t>;

std::vector<Key> keys_of(const std::vector<HelpMessage>& messages) {
    std::map<int16_t, size_t> seen;
    std::vector<Key> out;
    for (const auto& m : messages) out.push_back({m.ids[0], seen[m.ids[0]]++});
    return out;
}

// §0: -1 means "none": a new message names no short, third-person or
// co-op message, no voice and no character (their meanings are open, §10.1).
HelpMessage new_message(int16_t id) { return {0, {id, -1, -1, -1, -1, -1}, {}}; }

}  // namespace

std::string import_help(const Gameplay& g, int language, std::string_view text, BlockBytes& blocks) {
    const auto& d = g.help[static_cast<size_t>(language)];
    if (!d.ok()) fail(Errc::bad_value, 0, fmt::format("the {} help block did not decode ({})", kLanguages[language], d.error));
    const std::vector<HelpMessage>& before = d.value->messages;
    const auto old_keys = keys_of(before);
    std::map<Key, size_t> old_at;
    for (size_t i = 0; i < old_keys.size(); ++i) old_at[old_keys[i]] = i;
    std::map<int16_t, size_t> old_count, seen;
    for (const auto& m : before) ++old_count[m.ids[0]];
    std::map<int16_t, uint64_t> first_line;
    std::vector<HelpMessage> after;
    std::vector<Key> after_keys;
    size_t added = 0;
    uint64_t line = 1;
    for (size_t at = 0; at < text.size(); ++line) {
        size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view row = text.substr(at, end - at);
        at = end + 1;
        if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
        const size_t tab = row.find('\t');
        int16_t id = 0;
        const auto parsed = tab == std::string_view::npos ? std::from_chars_result{row.data(), std::errc::invalid_argument}
                                                          : std::from_chars(row.data(), row.data() + tab, id);
        if (parsed.ec != std::errc() || parsed.ptr != row.data() + tab)
            fail(Errc::bad_value, 0, fmt::format("line {}, column 1: a line is a message id (-32768 to 32767), a tab and the text", line));
        const Key key{id, seen[id]++};
        first_line.try_emplace(id, line);
        Bytes bytes = help_bytes(row.substr(tab + 1), line, tab + 2);  // the id is ASCII: a character a byte
        if (const auto it = old_at.find(key); it != old_at.end()) {
            after.push_back(before[it->second]);
        } else {
            if (key.second >= std::max<size_t>(1, old_count[id]))
                fail(Errc::bad_value, 0, fmt::format("line {}, column 1: id {} is line {}'s already; a new message needs an id of its own", line,
                                                     id, first_line[id]));
            after.push_back(new_message(id));
            ++added;
        }
        after.back().text = std::move(bytes);
        after_keys.push_back(key);
    }
    const size_t removed = before.size() + added - after.size();
    // §3.4: an s32 count, 16 bytes an entry, and the size, an s32 too.
    if (after.size() > (INT32_MAX - 8) / 16) fail(Errc::too_large, 0, fmt::format("{} messages: a help block holds at most {}", after.size(), (INT32_MAX - 8) / 16));
    bool changed = after.size() != before.size();
    for (size_t i = 0; !changed && i < after.size(); ++i) changed = after[i].text != before[i].text || after_keys[i] != old_keys[i];
    if (!changed) return {};
    blocks[static_cast<size_t>(help_block(language))] = encode_help(after);
    if (added == 0 && removed == 0) return {};
    // The other languages: the edited one's messages in its order, each with
    // its own text where it had the message, then any it alone has.
    const std::set<Key> kept(after_keys.begin(), after_keys.end());
    const std::set<Key> was(old_keys.begin(), old_keys.end());
    int others = 0;
    for (int l = 0; l < kLanguageCount; ++l) {
        const auto& other = g.help[static_cast<size_t>(l)];
        if (l == language || !other.present()) continue;
        if (!other.ok()) fail(Errc::bad_value, 0, fmt::format("the {} help block did not decode ({}), and the edit writes it again", kLanguages[l], other.error));
        const auto& messages = other.value->messages;
        const auto keys = keys_of(messages);
        std::map<Key, size_t> at;
        for (size_t i = 0; i < keys.size(); ++i) at[keys[i]] = i;
        std::vector<HelpMessage> list;
        for (size_t i = 0; i < after.size(); ++i) {
            if (const auto it = at.find(after_keys[i]); it != at.end()) list.push_back(messages[it->second]);
            else list.push_back({0, after[i].ids, {}});
        }
        for (size_t i = 0; i < messages.size(); ++i)
            if (!kept.contains(keys[i]) && !was.contains(keys[i])) list.push_back(messages[i]);
        blocks[static_cast<size_t>(help_block(l))] = encode_help(list);
        ++others;
    }
    return fmt::format("{} message{} added, {} removed; the {} other language{} list the same messages (an added one with no text)", added,
                       added == 1 ? "" : "s", removed, others, others == 1 ? "" : "s");
}

}  // namespace gcfs::formats::gameplay
