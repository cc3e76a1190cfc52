#include "formats/mpeg/subtitles.h"

#include <algorithm>
#include <map>
#include <cstdio>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "formats/common/game_text.h"

namespace gcfs::formats::mpeg {
namespace {

constexpr uint64_t kRecordSize = 16;

std::string timestamp(int64_t ms) {
    return fmt::format("{:02}:{:02}:{:02},{:03}", ms / 3600000, ms / 60000 % 60, ms / 1000 % 60, ms % 1000);
}

}  // namespace

Result<std::vector<Subtitle>> parse_subtitles(ByteSpan blob) {
    return capture([&]() -> std::vector<Subtitle> {
        std::vector<Subtitle> out;
        for (uint64_t at = 0;; at += kRecordSize) {
            if (at + kRecordSize > blob.size())
                fail(Errc::truncated, at, fmt::format("the record table has no end record (a negative start or stop) in {} bytes", blob.size()));
            Subtitle s;
            s.start_frame = s16_at(blob, at);
            s.stop_frame = s16_at(blob, at + 2);
            if (s.start_frame < 0 || s.stop_frame < 0) break;
            for (size_t l = 0; l < 5; ++l) {
                const uint64_t field = at + 4 + 2 * l;
                s.offsets[l] = s16_at(blob, field);
                if (s.offsets[l] < 0)
                    fail(Errc::out_of_range, field, fmt::format("record {} {} offset {} is negative", at / kRecordSize, kSubtitleLanguages[l], s.offsets[l]));
                const auto from = static_cast<uint64_t>(s.offsets[l]);
                if (from >= blob.size())
                    fail(Errc::out_of_range, field,
                         fmt::format("record {} {} offset 0x{:x} is past the {}-byte blob", at / kRecordSize, kSubtitleLanguages[l], from, blob.size()));
                uint64_t end = from;
                while (end < blob.size() && blob[end] != 0) ++end;
                if (end == blob.size())
                    fail(Errc::truncated, from, fmt::format("record {} {} string has no NUL before the blob's end", at / kRecordSize, kSubtitleLanguages[l]));
                s.text[l].assign(blob.begin() + static_cast<ptrdiff_t>(from), blob.begin() + static_cast<ptrdiff_t>(end));
            }
            out.push_back(std::move(s));
        }
        return out;
    });
}

Bytes write_subtitles(const std::vector<std::array<std::string, 5>>& texts, const std::vector<std::pair<int16_t, int16_t>>& frames) {
    ByteWriter out;
    out.zeros((texts.size() + 1) * kRecordSize);
    out.patch_u16(texts.size() * kRecordSize, 0xFFFF);  // the end record {-1, -1}
    out.patch_u16(texts.size() * kRecordSize + 2, 0xFFFF);
    for (size_t r = 0; r < texts.size(); ++r) {
        out.patch_u16(r * kRecordSize, static_cast<uint16_t>(frames[r].first));
        out.patch_u16(r * kRecordSize + 2, static_cast<uint16_t>(frames[r].second));
        for (size_t l = 0; l < 5; ++l) {
            out.pad_to(4);
            out.patch_u16(r * kRecordSize + 4 + 2 * l, static_cast<uint16_t>(out.size()));
            out.append(ByteSpan(reinterpret_cast<const uint8_t*>(texts[r][l].data()), texts[r][l].size()));
            out.u8(0);
        }
    }
    return std::move(out.bytes());
}

int64_t frame_milliseconds(int64_t frame, VideoRegion region) {
    if (region == VideoRegion::pal) return frame * 40;
    return (frame * 1001 * 2 + 30) / 60;  // frame × 1001/30 ms, rounded
}

std::string game_text_utf8(ByteSpan text) {
    std::string out;
    bool after_break = true;  // no line break at the start, none doubled
    for (size_t i = 0; i < text.size(); ++i) {
        const uint8_t b = text[i];
        if (b == '\n' || b == '\r') {
            if (b == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
            if (!after_break) out += '\n';
            after_break = true;
            continue;
        }
        after_break = false;
        append_utf8(out, game_char(b).value_or(0xFFFD));
    }
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

namespace {

bool blank(std::string_view text) { return text.find_first_not_of(" \n") == std::string_view::npos; }

}  // namespace

std::vector<size_t> cue_records(const std::vector<Subtitle>& subtitles, size_t language) {
    std::vector<size_t> shown;
    for (size_t r = 0; r < subtitles.size(); ++r)
        if (subtitles[r].stop_frame > subtitles[r].start_frame && !blank(game_text_utf8(subtitles[r].text[language]))) shown.push_back(r);
    std::stable_sort(shown.begin(), shown.end(), [&](size_t a, size_t b) { return subtitles[a].start_frame < subtitles[b].start_frame; });
    return shown;
}

std::string subrip(const std::vector<Subtitle>& subtitles, size_t language, VideoRegion region) {
    std::string out;
    int cue = 0;
    for (size_t r : cue_records(subtitles, language)) {
        const Subtitle& s = subtitles[r];
        const std::string text = game_text_utf8(s.text[language]);
        out += fmt::format("{}\n{} --> {}\n{}\n\n", ++cue, timestamp(frame_milliseconds(s.start_frame, region)),
                           timestamp(frame_milliseconds(s.stop_frame, region)), text);
    }
    return out;
}

namespace {

// "HH:MM:SS,mmm" in milliseconds.
std::optional<int64_t> parse_timestamp(std::string_view t) {
    int h = 0, m = 0, s = 0, ms = 0;
    char a = 0, b = 0, c = 0;
    if (std::sscanf(std::string(t).c_str(), "%d%c%d%c%d%c%d", &h, &a, &m, &b, &s, &c, &ms) != 7 || a != ':' || b != ':' ||
        (c != ',' && c != '.') || h < 0 || m < 0 || m > 59 || s < 0 || s > 59 || ms < 0 || ms > 999)
        return std::nullopt;
    return ((int64_t{h} * 60 + m) * 60 + s) * 1000 + ms;
}

int64_t frame_of(int64_t ms, VideoRegion region) {
    if (region == VideoRegion::pal) return (ms + 20) / 40;
    return (ms * 30 + 500) / 1001;  // frame_milliseconds' inverse, rounded
}

struct Cue {
    uint64_t line;
    int64_t start_ms, stop_ms;
    std::string text;
};

std::vector<Cue> parse_srt(std::string_view srt) {
    std::vector<std::string> lines;
    for (size_t at = 0; at <= srt.size();) {
        size_t end = srt.find('\n', at);
        if (end == std::string_view::npos) end = srt.size();
        std::string line(srt.substr(at, end - at));
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
        at = end + 1;
    }
    if (!lines.empty() && lines[0].starts_with("\xEF\xBB\xBF")) lines[0] = lines[0].substr(3);  // a BOM some editors add
    std::vector<Cue> cues;
    size_t i = 0;
    while (i < lines.size()) {
        if (lines[i].empty()) {
            ++i;
            continue;
        }
        const uint64_t number_line = i + 1;
        if (i + 1 >= lines.size()) fail(Errc::bad_value, 0, fmt::format("line {}: a cue number without its times", number_line));
        const std::string& times = lines[i + 1];
        const size_t arrow = times.find(" --> ");
        const auto start = arrow == std::string::npos ? std::nullopt : parse_timestamp(times.substr(0, arrow));
        const auto stop = arrow == std::string::npos ? std::nullopt : parse_timestamp(times.substr(arrow + 5));
        if (!start || !stop) fail(Errc::bad_value, 0, fmt::format("line {}: not \"HH:MM:SS,mmm --> HH:MM:SS,mmm\"", number_line + 1));
        Cue cue{number_line + 2, *start, *stop, {}};
        for (i += 2; i < lines.size() && !lines[i].empty(); ++i) cue.text += (cue.text.empty() ? "" : "\n") + lines[i];
        cues.push_back(std::move(cue));
    }
    return cues;
}

struct ShownCue {
    int64_t start_ms, stop_ms;
    std::string text;
};

// The edited cues paired with the shown ones in order (a longest common
// subsequence): a cue is the shown one with the same times or the same
// text. Returns, per edited cue, its shown cue or -1 (added); a shown cue
// no edited one takes was removed.
std::vector<int64_t> match_cues(const std::vector<ShownCue>& shown, const std::vector<Cue>& edited) {
    const size_t n = shown.size(), m = edited.size();
    auto same = [&](size_t a, size_t b) {
        return (shown[a].start_ms == edited[b].start_ms && shown[a].stop_ms == edited[b].stop_ms) || shown[a].text == edited[b].text;
    };
    // Both counts are at most 2047 (the caller checks): 4 M cells of u16.
    std::vector<uint16_t> lcs((n + 1) * (m + 1), 0);
    auto at = [&](size_t a, size_t b) -> uint16_t& { return lcs[a * (m + 1) + b]; };
    for (size_t a = n; a-- > 0;)
        for (size_t b = m; b-- > 0;)
            at(a, b) = same(a, b) ? static_cast<uint16_t>(at(a + 1, b + 1) + 1) : std::max(at(a + 1, b), at(a, b + 1));
    std::vector<int64_t> out(m, -1);
    for (size_t a = 0, b = 0; a < n && b < m;) {
        if (same(a, b) && at(a, b) == at(a + 1, b + 1) + 1) out[b++] = static_cast<int64_t>(a++);
        else if (at(a + 1, b) >= at(a, b + 1)) ++a;
        else ++b;
    }
    return out;
}

}  // namespace

Result<Bytes> game_text_from_utf8(std::string_view text) {
    return capture([&] {
        Bytes out;
        uint64_t line = 1, column = 1;
        for (size_t at = 0; at < text.size();) {
            const auto c = next_utf8(text, at);
            if (!c) fail(Errc::bad_value, at, fmt::format("line {}, column {}: not UTF-8", line, column));
            if (*c == '\n') {
                out.push_back('\n');
                ++line, column = 1;
                continue;
            }
            const std::optional<uint8_t> byte = game_byte(*c);
            if (!byte)
                fail(Errc::bad_value, at, fmt::format("line {}, column {}: U+{:04X} has no byte in the disc's 8-bit text (ASCII and "
                                                      "Windows-1252, formats-globals.md 4)",
                                                      line, column, static_cast<uint32_t>(*c)));
            out.push_back(*byte);
            ++column;
        }
        return out;
    });
}

Result<Bytes> import_subrip(ByteSpan blob, size_t language, std::string_view srt, VideoRegion region, std::string& note) {
    return capture([&] {
        auto parsed = parse_subtitles(blob);
        if (!parsed.ok()) fail(parsed.error().code, parsed.error().offset, "the subtitle table: " + parsed.error().message);
        std::vector<Subtitle> records = std::move(*parsed);
        const std::vector<size_t> with_text = cue_records(records, language);  // the cues as subrip() wrote them
        const std::vector<Cue> cues = parse_srt(srt);
        // §4: 16 bytes a record in a table its s16 offsets address.
        constexpr size_t kMaxRecords = 0x7FFF / 16;
        if (cues.size() > kMaxRecords) fail(Errc::too_large, 0, fmt::format("{} cues: a subtitle table holds at most {} records", cues.size(), kMaxRecords));
        std::vector<ShownCue> shown;
        for (size_t r : with_text)
            shown.push_back({frame_milliseconds(records[r].start_frame, region), frame_milliseconds(records[r].stop_frame, region),
                             game_text_utf8(records[r].text[language])});
        const std::vector<int64_t> match = match_cues(shown, cues);  // edited cue → shown cue, -1: added
        int times_changed = 0;
        auto record_of = [&](const Cue& cue, Subtitle& r) {
            // A blank cue or one of no time would show none when read back: take the cue out instead.
            if (blank(cue.text)) fail(Errc::bad_value, 0, fmt::format("line {}: a cue needs its text (remove the whole cue to remove it)", cue.line));
            if (game_text_utf8(r.text[language]) != cue.text) {
                auto bytes = game_text_from_utf8(cue.text);
                if (!bytes.ok()) {
                    // Its line inside the cue, made the file's.
                    std::string message = bytes.error().message;
                    unsigned inner = 1;
                    if (std::sscanf(message.c_str(), "line %u", &inner) == 1)
                        message = fmt::format("line {}{}", cue.line + inner - 1, message.substr(message.find(',')));
                    fail(Errc::bad_value, 0, message);
                }
                r.text[language] = std::move(*bytes);
            }
            if (cue.start_ms != frame_milliseconds(r.start_frame, region) || cue.stop_ms != frame_milliseconds(r.stop_frame, region)) {
                const int64_t start = frame_of(cue.start_ms, region), stop = frame_of(cue.stop_ms, region);
                if (start >= stop || stop > 0x7FFF)
                    fail(Errc::bad_value, 0, fmt::format("line {}: times must run forward and end within {} frames", cue.line - 1, 0x7FFF));
                r.start_frame = static_cast<int16_t>(start);
                r.stop_frame = static_cast<int16_t>(stop);
                return true;
            }
            return false;
        };
        // Records in table order; an added cue goes after the record of the
        // matched cue before it (first, when none is).
        std::vector<bool> kept(records.size(), true);
        for (size_t r : with_text) kept[r] = false;
        std::map<int64_t, std::vector<size_t>> added_after;  // record (-1: the start) → added cues
        int64_t previous = -1;
        size_t added = 0;
        for (size_t j = 0; j < cues.size(); ++j) {
            if (match[j] >= 0) {
                const size_t r = with_text[static_cast<size_t>(match[j])];
                kept[r] = true;
                times_changed += record_of(cues[j], records[r]);
                previous = static_cast<int64_t>(r);
            } else {
                added_after[previous].push_back(j);
                ++added;
            }
        }
        std::vector<Subtitle> out;
        auto add_new = [&](int64_t after) {
            for (size_t j : added_after[after]) {
                Subtitle r{};
                r.start_frame = r.stop_frame = -1;
                (void)record_of(cues[j], r);  // the cue's text and times
                out.push_back(std::move(r));
            }
        };
        add_new(-1);
        size_t removed = 0;
        for (size_t r = 0; r < records.size(); ++r) {
            if (kept[r]) out.push_back(records[r]);
            else ++removed;
            add_new(static_cast<int64_t>(r));
        }
        if (out.size() > kMaxRecords) fail(Errc::too_large, 0, fmt::format("{} records: a subtitle table holds at most {}", out.size(), kMaxRecords));
        std::vector<std::string> said;
        if (times_changed) said.push_back(fmt::format("{} cues' times changed: each record's time is every language's", times_changed));
        if (added) said.push_back(fmt::format("{} cue{} added, with no text in the other four languages", added, added == 1 ? "" : "s"));
        if (removed) said.push_back(fmt::format("{} cue{} removed from all five languages (a record is theirs together)", removed, removed == 1 ? "" : "s"));
        note = fmt::format("{}", fmt::join(said, "; "));
        std::vector<std::array<std::string, 5>> texts;
        std::vector<std::pair<int16_t, int16_t>> frames;
        for (const Subtitle& r : out) {
            std::array<std::string, 5> row;
            for (size_t l = 0; l < 5; ++l) row[l].assign(r.text[l].begin(), r.text[l].end());
            texts.push_back(std::move(row));
            frames.emplace_back(r.start_frame, r.stop_frame);
        }
        Bytes bytes = write_subtitles(texts, frames);
        if (bytes.size() > 0x7FFF) fail(Errc::too_large, 0, fmt::format("{} bytes of subtitles: s16 offsets address at most 32767", bytes.size()));
        return bytes;
    });
}

}  // namespace gcfs::formats::mpeg
