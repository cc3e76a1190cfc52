// The game's 8-bit text and UTF-8, one mapping for every file that shows it
// (subtitles, help messages). The encoding is not published
// (formats-globals.md 4 says nothing of it); gcfs reads bytes 0x20-0x7E as
// ASCII and 0x80-0xFF as Windows-1252 (Latin-1, with the typographic marks
// in 0x80-0x9F). What that leaves out (control bytes, 0x7F and the five
// bytes the code page leaves undefined) each file treats its own way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gcfs::formats {

// The character byte `b` shows, or nullopt for a control byte, 0x7F or one
// of Windows-1252's undefined bytes.
std::optional<char32_t> game_char(uint8_t b);
// Its inverse: the byte that shows `c`, or nullopt when none does.
std::optional<uint8_t> game_byte(char32_t c);

void append_utf8(std::string& out, char32_t c);
// One UTF-8 character at `at` (advanced past it), or nullopt when malformed.
std::optional<char32_t> next_utf8(std::string_view text, size_t& at);

}  // namespace gcfs::formats
