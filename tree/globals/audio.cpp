#include <fmt/format.h>

#include <map>

#include "formats/audio/audio_wad.h"
#include "tree/level/audio_files.h"
#include "tree/globals/globals.h"

namespace gcfs::tree::globals {
namespace {

using namespace formats::audio;
using Json = GlobalFolder::Json;

// "vendor/007", "help/english/012": the table's folder, the slot's index.
std::string stem(const GlobalAudioEntry& e) {
    const AudioTable& t = kGlobalAudioTables[e.table];
    return *t.language ? fmt::format("help/{}/{:03d}", t.language, e.index) : fmt::format("vendor/{:03d}", e.index);
}

}  // namespace

// global/audio/ (formats-globals.md §2): each present slot's VAG, as stored
// and as WAV, under vendor/ and help/<language>/.
void audio(GlobalFolder& f) {
    auto parsed = f.parsed(parse_global_audio(f.header, f.size));
    if (!parsed) return;
    const auto wad = std::make_shared<const GlobalAudioWad>(std::move(*parsed));
    auto rows = std::make_shared<std::vector<AudioRow>>();
    std::map<int32_t, std::vector<std::string>> by_start;  // slots sharing one recording
    for (const GlobalAudioEntry& e : wad->entries) {
        const AudioTable& table = kGlobalAudioTables[e.table];
        const std::string name = stem(e);
        by_start[e.start_sector].push_back(name);
        const std::string slot = fmt::format("{}[{}]", table.name, e.index);
        if (!e.error.empty()) {
            auto bad = std::make_shared<Unreadable>(e.error);
            f.file(name + ".vag", bad, f.from_wad(0, 0, "none", slot + ": " + e.error));
            f.file(name + ".wav", bad, f.from_wad(0, 0, "none", slot + ": " + e.error));
            rows->push_back({name, e.index, table.language, 0, nullptr, e.error});
            continue;
        }
        const uint64_t at = static_cast<uint64_t>(e.start_sector) * formats::kSectorSize;
        const uint64_t range = std::min(e.span_sectors * formats::kSectorSize, f.size - at);
        auto clip = std::make_shared<const VagClip>(f.image(), f.offset + at, range, false, fmt::format("{} byte 0x{:x}", f.label, at));
        const std::string where = fmt::format("{}: {} sectors from sector {} of {} (the extent rule, formats-globals.md 2)", slot,
                                              e.span_sectors, e.start_sector, f.label);
        f.file(name + ".vag", std::make_shared<VagFile>(clip),
               f.from_wad(at, range, "cut from its span: the VAG as stored, its 0x30-byte header and data_size bytes (formats-globals.md 1)", where));
        f.file(name + ".wav", std::make_shared<WavFile>(f.cache(), clip),
               f.from_wad(at, range, "PS-ADPCM (formats-globals.md 1), then 16-bit PCM WAV", where));
        rows->push_back({name, e.index, table.language, e.span_sectors, clip, {}});
    }
    f.file("audio.csv", std::make_shared<GeneratedText>([rows] { return audio_csv(*rows); }),
           f.from_wad(0, f.size, "CSV written by gcfs", "every slot of the six tables with its VAG's header and frames (formats-globals.md 2)"));
    f.info_json([wad, rows, by_start](Json& j) {
        Json tables = Json::object();
        for (size_t t = 0; t < kGlobalAudioTables.size(); ++t) {
            const AudioTable& table = kGlobalAudioTables[t];
            size_t present = 0;
            for (const auto& e : wad->entries) present += e.table == t;
            tables[table.name] = {{"header_offset", table.offset}, {"slots", table.count}, {"present", present}};
        }
        j["file_sectors"] = wad->file_sectors;
        j["tables"] = tables;
        Json entries = Json::array(), failures = Json::array();
        for (size_t i = 0; i < wad->entries.size(); ++i) {
            const AudioRow& row = (*rows)[i];
            std::vector<std::string> others;
            for (const std::string& name : by_start.at(wad->entries[i].start_sector))
                if (name != row.file) others.push_back(name);
            const GlobalAudioEntry& entry = wad->entries[i];
            Json e = {{"table", kGlobalAudioTables[entry.table].name}, {"index", entry.index}, {"start_sector", entry.start_sector},
                      {"span_sectors", entry.span_sectors}};
            if (!others.empty()) e["same_start_as"] = others;
            e.update(vag_json(row));
            if (!e["ok"].get<bool>()) failures.push_back({{"file", row.file}, {"error", e["error"]}});
            entries.push_back(std::move(e));
        }
        j["entries"] = entries;
        j["failures"] = failures;
        j["ok"] = failures.empty();
    });
}

}  // namespace gcfs::tree::globals
