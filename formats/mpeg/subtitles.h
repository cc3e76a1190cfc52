// A cutscene's subtitle table, GC layout (formats-globals.md §4): 16-byte
// records {start, stop, five string offsets, pad}, ended by the first record
// whose start or stop is negative, then NUL-terminated strings addressed
// from the blob's start. Written out as SubRip (beyond Wrench).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::formats::mpeg {

inline constexpr std::array<const char*, 5> kSubtitleLanguages = {"english", "french", "german", "spanish", "italian"};
inline constexpr std::array<const char*, 5> kSubtitleLanguageCodes = {"en", "fr", "de", "es", "it"};  // ISO 639-1, for players

struct Subtitle {
    int16_t start_frame = 0, stop_frame = 0;
    std::array<int16_t, 5> offsets{};
    std::array<Bytes, 5> text;  // the game's 8-bit bytes, as stored (no NUL)
};

// Fails on a table with no end record, an offset that is negative or past
// the blob, or a string with no NUL before the blob's end.
Result<std::vector<Subtitle>> parse_subtitles(ByteSpan blob);
// Records, the {-1, -1} end record, then each string 4-aligned (Wrench's writer).
Bytes write_subtitles(const std::vector<std::array<std::string, 5>>& texts, const std::vector<std::pair<int16_t, int16_t>>& frames);

// §4: frames at half the field rate. NTSC (the US disc's): 30000/1001 per
// second; PAL: 25.
enum class VideoRegion { ntsc, pal };
// Milliseconds from the start, rounded to the nearest.
int64_t frame_milliseconds(int64_t frame, VideoRegion region);

// The game's 8-bit text as UTF-8 (formats/common/game_text.h: ASCII, then
// Windows-1252); a byte that shows no character (the five bytes that code
// page leaves undefined, control bytes other than a line feed) becomes
// U+FFFD. Line breaks stay single (a blank line would end a SubRip cue).
std::string game_text_utf8(ByteSpan text);

// The records one SubRip file of `language` shows, in the order it shows
// them: those with text other than blanks (spaces, line breaks) in that
// language whose stop comes after their start, sorted by start (stable: a
// table's order stands between equal starts). The rest show no cue
// (subtitles.csv lists every record).
std::vector<size_t> cue_records(const std::vector<Subtitle>& subtitles, size_t language);

// One SubRip file of `language` (0-4): cue_records' records, numbered from
// 1; empty when there are none.
std::string subrip(const std::vector<Subtitle>& subtitles, size_t language, VideoRegion region);

// The inverse of game_text_utf8 (the edit decoder for SubRip text): ASCII,
// Windows-1252's letters and marks, line feeds. Fails on a character with no
// byte, naming it and where it is (line and column counted in `text`).
Result<Bytes> game_text_from_utf8(std::string_view text);

// `blob` with language `language`'s texts and the cues' times from `srt`, a
// SubRip file as subrip() writes it edited (the edit decoder for NN.<lang>.srt).
// Cues pair with cue_records' records in order, a cue with the shown one of
// the same times or the same text: a cue left out removes its record, which
// the five languages share (its text goes from all of them); a cue added is
// a new record, placed after the record of the cue before it, with no text
// in the other languages; a changed time changes it for all of them. `note`
// says which of these happened. A text or time left as shown keeps its bytes.
Result<Bytes> import_subrip(ByteSpan blob, size_t language, std::string_view srt, VideoRegion region, std::string& note);

}  // namespace gcfs::formats::mpeg
