#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "formats/audio/audio_wad.h"
#include "tree/level/audio_files.h"
#include "tree/parts/parts.h"

namespace gcfs::tree::parts {

// audio/ (formats-globals.md §3): the level AUDIO WAD's sound effects as
// stored (.vag, each slot's exact range) and as WAV, audio.csv and info.json.
// Its 0x1018-byte header is read when the level folder is built.
void audio(LevelFolder& f) {
    const auto& part = f.level.audio;
    if (!part || part->file_lba <= 0) return;
    const uint64_t offset = static_cast<uint64_t>(part->file_lba) * formats::kSectorSize;
    const uint64_t size = static_cast<uint64_t>(part->size_sectors) * formats::kSectorSize;
    const uint64_t dir = f.directory(f.dir, "audio");
    const formats::Bytes header = f.image().read_clamped(offset, std::min<uint64_t>(size, formats::kLevelAudioHeaderSize));
    auto parsed = formats::audio::parse_level_audio(header, size);
    auto rows = std::make_shared<std::vector<AudioRow>>();
    if (parsed.ok()) {
        for (const auto& e : *parsed) {
            const std::string where = fmt::format("{} of audio.wad: {} bytes at sector {} (formats-globals.md 3)", e.name,
                                                  e.range.size_bytes, e.range.offset);
            if (!e.error.empty()) {
                auto bad = std::make_shared<Unreadable>(e.error);
                f.file(dir, e.name + ".vag", bad, f.raw(offset, 0, e.error));
                f.file(dir, e.name + ".wav", bad, f.raw(offset, 0, e.error));
                rows->push_back({e.name, e.index, "", 0, nullptr, e.error});
                continue;
            }
            const uint64_t at = e.range.byte_offset(), bytes = e.range.byte_size();
            auto clip = std::make_shared<const VagClip>(f.image(), offset + at, bytes, true, fmt::format("audio.wad byte 0x{:x}", at));
            f.file(dir, e.name + ".vag", std::make_shared<VagFile>(clip), f.raw(offset + at, bytes, where));
            f.file(dir, e.name + ".wav", std::make_shared<WavFile>(f.cache(), clip),
                   f.decoded(offset + at, bytes, "PS-ADPCM (formats-globals.md 1), then 16-bit PCM WAV", where));
            rows->push_back({e.name, e.index, "", formats::sectors_for(bytes), clip, {}});
        }
        f.file(dir, "audio.csv", std::make_shared<GeneratedText>([rows] { return audio_csv(*rows); }),
               f.decoded(offset, size, "CSV written by gcfs", "every present slot of the level AUDIO WAD with its VAG (formats-globals.md 3)"));
    }
    const std::string error = parsed.ok() ? std::string() : parsed.error().describe() + " (audio.wad)";
    f.file(dir, "info.json", std::make_shared<GeneratedText>([rows, error, offset, size] {
               nlohmann::ordered_json j = {{"wad", "level audio"}, {"image_offset", offset}, {"bytes", size},
                                           {"header_size", formats::kLevelAudioHeaderSize}};
               nlohmann::ordered_json entries = nlohmann::ordered_json::array(), failures = nlohmann::ordered_json::array();
               for (const AudioRow& row : *rows) {
                   auto e = vag_json(row);
                   if (!e["ok"].get<bool>()) failures.push_back({{"file", row.file}, {"error", e["error"]}});
                   entries.push_back(std::move(e));
               }
               if (!error.empty()) failures.push_back({{"file", "audio.wad"}, {"error", error}});
               j["entries"] = entries;
               j["failures"] = failures;
               j["ok"] = failures.empty();
               return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
           }),
           f.decoded(offset, size, "JSON written by gcfs", "the level AUDIO WAD's slots and every failure (formats-globals.md 3)"));
}

}  // namespace gcfs::tree::parts
