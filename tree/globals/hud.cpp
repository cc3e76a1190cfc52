#include <fmt/format.h>

#include "formats/hud/hud.h"
#include "formats/pif/pif.h"
#include "tree/level/audio_files.h"
#include "tree/globals/global_images.h"
#include "tree/globals/globals.h"

namespace gcfs::tree::globals {
namespace {

using namespace formats;
using Json = GlobalFolder::Json;

struct HudRange {
    const RangeEntry* entry;
    std::string stem;  // "mission_ss/07", "hud_header"
    hud::Content content = hud::Content::unknown;
    bool pif_inside = false;  // a WAD-LZ stream whose first decoded bytes are "2FIP"
    std::string note;         // why nothing more was made of it
};

const char* content_name(const HudRange& r) {
    switch (r.content) {
        case hud::Content::wad_lz: return r.pif_inside ? "a WAD-LZ stream holding a PIF" : "a WAD-LZ stream";
        case hud::Content::pif: return "a PIF";
        case hud::Content::vag: return "a VAG";
        case hud::Content::unknown: return "unknown";
    }
    return "?";
}

}  // namespace

// global/hud/ (formats-globals.md §9): every present range raw under its
// field's name; beside it, what its own first bytes prove it to be, decoded:
// a WAD-LZ stream as .decoded.bin (and .png when a PIF is inside), a PIF as
// .png, a VAG as .wav. No unpacker confirms these layouts, so info.json says
// each was identified by content.
void hud(GlobalFolder& f) {
    auto parsed = f.parsed(read_range_tables(f.header, hud::kHudHeaderSize, hud::kHudTables, f.size, "the HUD header"));
    if (!parsed) return;
    const auto entries = std::make_shared<const std::vector<RangeEntry>>(std::move(*parsed));
    auto ranges = std::make_shared<std::vector<HudRange>>();
    for (const RangeEntry& e : *entries) {
        const std::string stem = e.table->count == 1 ? e.table->name : fmt::format("{}/{:02d}", e.table->name, e.index);
        HudRange r{&e, stem};
        if (!e.error.empty()) {
            f.file(stem + ".bin", std::make_shared<Unreadable>(e.error), f.from_wad(0, 0, "none", e.error));
            r.note = e.error;
            ranges->push_back(std::move(r));
            continue;
        }
        const uint64_t at = e.byte_offset(), size = e.byte_size();
        const std::string detail = fmt::format("{}[{}]: sectors [{}, {}) of {} (formats-globals.md 9)", e.table->name, e.index, e.range.offset,
                                               e.range.end(), f.label);
        f.file(stem + ".bin", std::make_shared<ImageSlice>(f.image(), f.offset + at, size), f.from_wad(at, size, "none: the whole sector span", detail));
        const WadItem raw{&f.image(), f.offset + at, size, false, f.label + " " + stem};
        const auto head = raw.head(16);
        r.content = head.ok() ? hud::identify(*head) : hud::Content::unknown;
        const std::string by_content = "identified by its own bytes, not by a published layout";
        if (r.content == hud::Content::wad_lz) {
            WadItem stream = raw;
            stream.compressed = true;
            const auto inside = stream.head(4);
            r.pif_inside = inside.ok() && hud::identify(*inside) == hud::Content::pif;
            if (!inside.ok()) r.note = fmt::format("its WAD-LZ stream does not decode: {}", inside.error().describe());
            f.file(stem + ".decoded.bin", std::make_shared<WadStream>(f.image(), f.cache(), raw.offset, size, std::nullopt),
                   f.from_wad(at, size, "WAD LZ (formats.md 5)", detail + "; " + by_content));
            if (r.pif_inside)
                f.file(stem + ".png", pif_png(f.cache(), stream),
                       f.from_wad(at, size, "WAD LZ (formats.md 5), then PIF (formats-globals.md 5), then PNG", detail + "; " + by_content));
        } else if (r.content == hud::Content::pif) {
            f.file(stem + ".png", pif_png(f.cache(), raw), f.from_wad(at, size, "PIF (formats-globals.md 5), then PNG", detail + "; " + by_content));
        } else if (r.content == hud::Content::vag) {
            auto clip = std::make_shared<const VagClip>(f.image(), f.offset + at, size, false, fmt::format("{} byte 0x{:x}", f.label, at));
            f.file(stem + ".wav", std::make_shared<WavFile>(f.cache(), clip),
                   f.from_wad(at, size, "PS-ADPCM (formats-globals.md 1), then 16-bit PCM WAV", detail + "; " + by_content));
        }
        ranges->push_back(std::move(r));
    }
    f.info_json([entries, ranges](Json& j) {
        Json tables = Json::object();
        for (const RangeTable& t : hud::kHudTables) {
            size_t present = 0;
            for (const RangeEntry& e : *entries) present += e.table == &t;
            tables[t.name] = {{"header_offset", t.offset}, {"slots", t.count}, {"present", present}};
        }
        j["tables"] = tables;
        j["contents"] = "no unpacker confirms what a HUD range holds (formats-globals.md 9); each range's identified content comes from its own bytes";
        Json list = Json::array(), failures = Json::array();
        for (const HudRange& r : *ranges) {
            Json e = {{"file", r.stem + ".bin"}, {"field", r.entry->table->name}, {"index", r.entry->index}, {"sector", r.entry->range.offset},
                      {"sectors", r.entry->range.size}, {"identified_by_content", content_name(r)}};
            if (!r.note.empty()) e["note"] = r.note;
            if (!r.entry->error.empty()) failures.push_back({{"file", r.stem + ".bin"}, {"error", r.entry->error}});
            list.push_back(std::move(e));
        }
        j["ranges"] = list;
        j["failures"] = failures;
        j["ok"] = failures.empty();
    });
}

}  // namespace gcfs::tree::globals
