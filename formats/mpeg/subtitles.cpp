#include "formats/mpeg/subtitles.h"

#include <fmt/format.h>

namespace gcfs::formats::mpeg {
namespace {

constexpr uint64_t kRecordSize = 16;

// Windows-1252's 0x80-0x9F; 0 where the code page defines nothing.
constexpr std::array<char16_t, 32> kCp1252High = {
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
    0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178};

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
        if (b >= 0x20 && b < 0x7F) out += static_cast<char>(b);
        else if (b >= 0xA0) append_utf8(out, b);
        else if (b >= 0x80 && kCp1252High[b - 0x80]) append_utf8(out, kCp1252High[b - 0x80]);
        else append_utf8(out, 0xFFFD);
    }
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

std::string subrip(const std::vector<Subtitle>& subtitles, size_t language, VideoRegion region) {
    std::string out;
    int cue = 0;
    for (const Subtitle& s : subtitles) {
        const std::string text = game_text_utf8(s.text[language]);
        if (text.empty()) continue;
        out += fmt::format("{}\n{} --> {}\n{}\n\n", ++cue, timestamp(frame_milliseconds(s.start_frame, region)),
                           timestamp(frame_milliseconds(s.stop_frame, region)), text);
    }
    return out;
}

}  // namespace gcfs::formats::mpeg
