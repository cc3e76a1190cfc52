#include <fmt/format.h>

#include <algorithm>

#include "formats/export/csv.h"
#include "formats/mpeg/mpeg_wad.h"
#include "formats/mpeg/pss_audio.h"
#include "formats/mpeg/pss_mpg.h"
#include "formats/mpeg/subtitles.h"
#include "tree/node/derived_file.h"
#include "tree/globals/globals.h"

namespace gcfs::tree::globals {
namespace {

using namespace formats::mpeg;
using Json = GlobalFolder::Json;

// §4 offsets are s16, so a subtitle table reaches at most 32 KiB plus its
// last string: a larger blob is damage, and is not read.
constexpr uint64_t kMaxSubtitleBlob = 0x10000;

struct SlotSubtitles {
    std::vector<Subtitle> records;
    std::string error;
};

SlotSubtitles read_subtitles(const GlobalFolder& f, const MpegSlot& slot) {
    if (!slot.subtitles_error.empty()) return {{}, slot.subtitles_error};
    const uint64_t at = slot.subtitles.byte_offset(), size = slot.subtitles.byte_size();
    if (size > kMaxSubtitleBlob)
        return {{}, fmt::format("slot {} subtitles claim {} bytes, more than s16 offsets address (formats-globals.md 4)", slot.index, size)};
    formats::Bytes blob(size);
    if (!f.image().read(f.offset + at, blob)) return {{}, fmt::format("image read at 0x{:x} failed", f.offset + at)};
    auto parsed = parse_subtitles(blob);
    if (!parsed.ok())
        return {{}, fmt::format("slot {} subtitles: {} ({} byte 0x{:x})", slot.index, parsed.error().message, f.label, at + parsed.error().offset)};
    return {std::move(*parsed), {}};
}

// Where a PSS's sound track headers lie: its first packets (the builder's
// first sound packet follows the first picture).
constexpr uint64_t kSoundHeadBytes = 64 << 10;

// NN.wav: the PSS's sound track as 16-bit PCM (formats/mpeg/pss_audio.h),
// and NN.mpg: the PSS with that sound added as DVD LPCM, for the rates LPCM
// can carry (formats/mpeg/pss_mpg.h). Whether there is a sound track, and
// both sizes, come from the headers in the PSS's first packets; a first read
// reads the PSS whole.
void sound_file(GlobalFolder& f, const MpegSlot& slot, const std::string& nn) {
    const uint64_t at = slot.video.byte_offset(), size = slot.video.byte_size();
    const uint64_t in_image = f.offset + at;
    const std::string where = fmt::format("{}.pss, slot {} video at image byte 0x{:x}", nn, slot.index, in_image);
    const auto head = pss_sound_header(f.image().read_clamped(in_image, std::min(size, kSoundHeadBytes)));
    const auto origin = f.from_wad(at, size, "the PSS's sound track (private stream 1, sub-stream 0: SShd, SSbd, PS-ADPCM), as 16-bit PCM",
                                   fmt::format("slot {} video's sound; layout from public descriptions, not formats-globals.md (README)", slot.index));
    if (!head.ok()) {
        f.file(nn + ".wav", std::make_shared<Unreadable>(fmt::format("sound track: {} ({})", head.error().describe(), where)), origin);
        return;
    }
    if (!*head) return;  // a video without sound
    const SpuStreamHeader sound = **head;
    const Image& image = f.image();
    // The PSS whole, for either file.
    auto made_from_pss = [&image, in_image, size](formats::Result<formats::Bytes> (*make)(formats::ByteSpan)) {
        return [&image, in_image, size, make]() -> formats::Result<formats::Bytes> {
            formats::Bytes pss(size);
            if (!image.read(in_image, pss))
                return formats::FormatError{formats::Errc::truncated, 0, fmt::format("image read at 0x{:x} failed", in_image)};
            return make(pss);
        };
    };
    f.file(nn + ".wav",
           std::make_shared<DerivedFile>(
               f.cache(), [sound]() -> formats::Result<uint64_t> { return formats::audio::wav_size(sound.wav()); },
               made_from_pss(&pss_sound_wav), where),
           origin);
    if (!lpcm_carries(sound)) return;  // README: DVD LPCM names four rates only
    f.file(nn + ".mpg",
           std::make_shared<DerivedFile>(
               f.cache(), [sound, size]() -> formats::Result<uint64_t> { return mpg_size(size, sound); }, made_from_pss(&pss_to_mpg), where),
           f.from_wad(at, size, "the PSS with its sound track added as DVD LPCM (private stream 1, sub-stream 0xA0)",
                      fmt::format("slot {} video with sound every player plays (README)", slot.index)));
}

std::string seconds(int64_t frame, VideoRegion region) {
    const int64_t ms = frame_milliseconds(frame, region);
    return fmt::format("{}.{:03}", ms / 1000, ms % 1000);
}

void subtitle_rows(std::string& out, int slot, const SlotSubtitles& subs, VideoRegion region) {
    if (!subs.error.empty()) {
        formats::csv::row(out, {std::to_string(slot), "", "", "", "", "", "", "", "", "", "", "failed", subs.error});
        return;
    }
    for (size_t i = 0; i < subs.records.size(); ++i) {
        const Subtitle& s = subs.records[i];
        std::vector<std::string> cells = {std::to_string(slot), std::to_string(i), std::to_string(s.start_frame), std::to_string(s.stop_frame),
                                          seconds(s.start_frame, region), seconds(s.stop_frame, region)};
        for (const auto& text : s.text) cells.push_back(game_text_utf8(text));
        cells.push_back("ok");
        cells.push_back("");
        formats::csv::row(out, cells);
    }
}

}  // namespace

// global/mpeg/ (formats-globals.md §4): each slot's video as NN.pss, its
// sound track as NN.wav, both together as NN.mpg, its subtitles as one SubRip file per language with
// text, and subtitles.csv.
// The subtitle tables are small and read when the folder is built, so the
// SubRip files' sizes are known at once.
void mpeg(GlobalFolder& f) {
    auto parsed = f.parsed(parse_mpeg_wad(f.header, f.size));
    if (!parsed) return;
    const VideoRegion region = video_region(f.disc.scan);
    auto slots = std::make_shared<const std::vector<MpegSlot>>(std::move(*parsed));
    auto subtitles = std::make_shared<std::vector<SlotSubtitles>>();
    for (const MpegSlot& slot : *slots) {
        const std::string nn = fmt::format("{:02d}", slot.index);
        if (!slot.video.empty()) {
            const uint64_t at = slot.video.byte_offset(), size = slot.video.byte_size();
            if (slot.video_error.empty()) {
                f.file(nn + ".pss", std::make_shared<ImageSlice>(f.image(), f.offset + at, size),
                       f.from_wad(at, size, "none: the PSS as stored (an MPEG-2 program stream)",
                                  fmt::format("slot {} video: {} bytes at sector {} of {} (formats-globals.md 4)", slot.index, size,
                                              slot.video.offset, f.label)));
                sound_file(f, slot, nn);
            } else
                f.file(nn + ".pss", std::make_shared<Unreadable>(slot.video_error), f.from_wad(0, 0, "none", slot.video_error));
        }
        subtitles->push_back(slot.subtitles.empty() ? SlotSubtitles{} : read_subtitles(f, slot));
        if (slot.subtitles.empty()) continue;
        const SlotSubtitles& subs = subtitles->back();
        const uint64_t at = slot.subtitles.byte_offset(), size = slot.subtitles.byte_size();
        for (size_t l = 0; l < kSubtitleLanguages.size(); ++l) {
            const std::string name = fmt::format("{}.{}.srt", nn, kSubtitleLanguageCodes[l]);
            if (!subs.error.empty()) {
                f.file(name, std::make_shared<Unreadable>(subs.error), f.from_wad(at, size, "none", subs.error));
                continue;
            }
            std::string text = subrip(subs.records, l, region);
            if (text.empty()) continue;  // no record has text in this language
            f.file(name, std::make_shared<StaticText>(std::move(text)),
                   f.from_wad(at, size, "the subtitle table (formats-globals.md 4), then SubRip in UTF-8",
                              fmt::format("slot {} subtitles, {}: {} records; times frame x 1001/30000 s (NTSC) or / 25 (PAL); "
                                          "text bytes >= 0x80 read as Windows-1252",
                                          slot.index, kSubtitleLanguages[l], subs.records.size())));
        }
    }
    std::string csv = "slot,index,start_frame,stop_frame,start,stop,english,french,german,spanish,italian,status,error\n";
    for (size_t i = 0; i < slots->size(); ++i)
        if (!(*slots)[i].subtitles.empty()) subtitle_rows(csv, (*slots)[i].index, (*subtitles)[i], region);
    f.file("subtitles.csv", std::make_shared<StaticText>(std::move(csv)),
           f.from_wad(0, f.size, "CSV written by gcfs", "every subtitle of every slot, times in seconds, text in UTF-8 (formats-globals.md 4)"));
    f.info_json([slots, subtitles, region, image = &f.image(), offset = f.offset](Json& j) {
        j["video_region"] = region == VideoRegion::pal ? "PAL (25 frames per second)" : "NTSC (30000/1001 frames per second)";
        Json list = Json::array(), failures = Json::array();
        for (size_t i = 0; i < slots->size(); ++i) {
            const MpegSlot& slot = (*slots)[i];
            Json s = {{"slot", slot.index}};
            if (!slot.video.empty()) {
                Json v = {{"sector", slot.video.offset}, {"bytes", slot.video.size_bytes}};
                if (slot.video_error.empty()) {
                    const formats::Bytes head = image->read_clamped(offset + slot.video.byte_offset(), 4);
                    v["program_stream_pack_header"] = starts_with_pack_header(head);
                } else {
                    v["error"] = slot.video_error;
                    failures.push_back({{"file", fmt::format("{:02d}.pss", slot.index)}, {"error", slot.video_error}});
                }
                s["video"] = v;
            }
            if (!slot.subtitles.empty()) {
                const SlotSubtitles& subs = (*subtitles)[i];
                Json t = {{"sector", slot.subtitles.offset}, {"bytes", slot.subtitles.size_bytes}};
                if (subs.error.empty()) {
                    t["records"] = subs.records.size();
                } else {
                    t["error"] = subs.error;
                    failures.push_back({{"file", fmt::format("{:02d}.*.srt", slot.index)}, {"error", subs.error}});
                }
                s["subtitles"] = t;
            }
            list.push_back(std::move(s));
        }
        j["slots"] = list;
        j["failures"] = failures;
        j["ok"] = failures.empty();
    });
}

}  // namespace gcfs::tree::globals
