#include "formats/common/game_text.h"

#include <array>

namespace gcfs::formats {
namespace {

// Windows-1252's 0x80-0x9F; 0 where the code page defines nothing.
constexpr std::array<char16_t, 32> kCp1252High = {
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
    0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178};

}  // namespace

std::optional<char32_t> game_char(uint8_t b) {
    if (b >= 0x20 && b < 0x7F) return b;
    if (b >= 0xA0) return b;  // Latin-1
    if (b >= 0x80 && kCp1252High[b - 0x80]) return kCp1252High[b - 0x80];
    return std::nullopt;
}

std::optional<uint8_t> game_byte(char32_t c) {
    if ((c >= 0x20 && c < 0x7F) || (c >= 0xA0 && c <= 0xFF)) return static_cast<uint8_t>(c);
    for (size_t k = 0; k < kCp1252High.size(); ++k)
        if (kCp1252High[k] && kCp1252High[k] == c) return static_cast<uint8_t>(0x80 + k);
    return std::nullopt;
}

void append_utf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | c >> 6);
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xE0 | c >> 12);
        out += static_cast<char>(0x80 | (c >> 6 & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

std::optional<char32_t> next_utf8(std::string_view t, size_t& at) {
    const auto b = static_cast<unsigned char>(t[at]);
    const int length = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (!length || at + static_cast<size_t>(length) > t.size()) return std::nullopt;
    char32_t c = length == 1 ? b : b & (0x7F >> length);
    for (int i = 1; i < length; ++i) {
        const auto k = static_cast<unsigned char>(t[at + static_cast<size_t>(i)]);
        if ((k >> 6) != 2) return std::nullopt;
        c = (c << 6) | (k & 0x3F);
    }
    at += static_cast<size_t>(length);
    return c;
}

}  // namespace gcfs::formats
