#include "formats/gameplay/records.h"

#include <charconv>
#include <fmt/format.h>

namespace gcfs::formats::gameplay {

uint32_t field_width(FieldType type) {
    switch (type) {
        case FieldType::u8: return 1;
        case FieldType::s16:
        case FieldType::u16: return 2;
        default: return 4;
    }
}

std::string shortest(float value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return std::string(text, end);
}

std::string RecordTable::text(size_t i, const Field& field) const {
    const ByteSpan r = record(i);
    switch (field.type) {
        case FieldType::u8: return std::to_string(u8_at(r, field.offset));
        case FieldType::s16: return std::to_string(s16_at(r, field.offset));
        case FieldType::u16: return std::to_string(u16_at(r, field.offset));
        case FieldType::s32: return std::to_string(s32_at(r, field.offset));
        case FieldType::hex32: return fmt::format("0x{:08x}", u32_at(r, field.offset));
        case FieldType::f32: return shortest(f32_at(r, field.offset));
    }
    return {};
}

RecordBuilder& RecordBuilder::f32(uint16_t offset, float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    put(offset, bits, 4);
    return *this;
}

RecordBuilder& RecordBuilder::floats(uint16_t offset, std::span<const float> values) {
    for (size_t i = 0; i < values.size(); ++i) f32(static_cast<uint16_t>(offset + 4 * i), values[i]);
    return *this;
}

void RecordBuilder::put(uint16_t offset, uint32_t v, int width) {
    for (int i = 0; i < width; ++i) bytes_.at(offset + i) = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace gcfs::formats::gameplay
