#include "formats/gameplay/cells.h"

#include <algorithm>

#include <charconv>
#include <cstring>

namespace gcfs::formats::gameplay {

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

std::vector<std::string_view> words(std::string_view cell) {
    std::vector<std::string_view> out;
    for (size_t at = 0; at < cell.size();) {
        const size_t end = std::min(cell.find_first_of(" \t", at), cell.size());
        if (end > at) out.push_back(cell.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

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

void put_le(Bytes& bytes, uint64_t at, uint64_t v, uint32_t width) {
    for (uint32_t i = 0; i < width; ++i) bytes.at(at + i) = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace gcfs::formats::gameplay
