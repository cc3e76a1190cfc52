#include <fmt/format.h>

#include "formats/bonus/bonus.h"
#include "formats/export/csv.h"
#include "tree/globals/global_images.h"
#include "tree/globals/globals.h"

namespace gcfs::tree::globals {
namespace {

using namespace formats;
using Json = GlobalFolder::Json;

struct BonusFile {
    std::string path;  // "sketchbook/00.png", "credits_text_3.bin"
    const RangeEntry* entry;
    WadItem item;
    bonus::Item kind;
    std::string error;
};

const char* kind_name(bonus::Item kind) {
    switch (kind) {
        case bonus::Item::compressed_pif: return "compressed PIF";
        case bonus::Item::rgba_image: return "RGBA image";
        case bonus::Item::credits_text: return "credits text part";
    }
    return "?";
}

}  // namespace

// global/bonus/ (formats-globals.md §7): every present image as PNG under its
// field's name, the credits text's parts as binary files, bonus.csv, info.json.
void bonus(GlobalFolder& f) {
    auto parsed = f.parsed(read_range_tables(f.header, bonus::kBonusHeaderSize, bonus::kBonusTables, f.size, "the BONUS header"));
    if (!parsed) return;
    const auto entries = std::make_shared<const std::vector<RangeEntry>>(std::move(*parsed));
    auto files = std::make_shared<std::vector<BonusFile>>();
    for (const RangeEntry& e : *entries) {
        const bonus::Item kind = bonus::item_of(*e.table);
        const std::string slot = fmt::format("{}[{}]", e.table->name, e.index);
        WadItem item{&f.image(), f.offset + e.byte_offset(), e.byte_size(), kind == bonus::Item::compressed_pif, f.label + " " + slot};
        if (kind != bonus::Item::credits_text) {
            const std::string path = fmt::format("{}/{:02d}.png", e.table->name, e.index);
            files->push_back({path, &e, item, kind, e.error});
            if (!e.error.empty())
                f.file(path, std::make_shared<Unreadable>(e.error), f.from_wad(0, 0, "none", e.error));
            else
                f.file(path, kind == bonus::Item::rgba_image ? rgba_png(f.cache(), item) : pif_png(f.cache(), item),
                       f.from_wad(e.byte_offset(), e.byte_size(),
                                  kind == bonus::Item::rgba_image ? "RGBA image (formats-globals.md 7), then PNG"
                                                                  : "WAD LZ (formats.md 5), then PIF (formats-globals.md 5), then PNG",
                                  fmt::format("{}: sectors [{}, {}) of {}", slot, e.range.offset, e.range.end(), f.label)));
            continue;
        }
        // §7 credits_text: the offsets table is read now, for the parts' names and sizes.
        const auto bytes = e.error.empty() ? item.bytes() : Result<Bytes>(FormatError{Errc::out_of_range, 0, e.error});
        const auto parts = bytes.ok() ? bonus::read_credits_text(*bytes) : Result<std::vector<bonus::CreditsPart>>(bytes.error());
        if (!parts.ok()) {
            const std::string error = fmt::format("credits_text: {} ({})", parts.error().describe(), item.where());
            f.file("credits_text.bin", std::make_shared<Unreadable>(error), f.from_wad(0, 0, "none", error));
            files->push_back({"credits_text.bin", &e, item, kind, error});
            continue;
        }
        for (const auto& part : *parts) {
            const std::string path = fmt::format("credits_text_{}.bin", part.index);
            const uint64_t at = e.byte_offset() + static_cast<uint64_t>(part.range.offset);
            f.file(path, std::make_shared<ImageSlice>(f.image(), f.offset + at, static_cast<uint64_t>(part.range.size)),
                   f.from_wad(at, static_cast<uint64_t>(part.range.size), "none: the part as stored",
                              fmt::format("credits_text part {} (formats-globals.md 7: to the next part, the last to the range's end)", part.index)));
            files->push_back({path, &e, {&f.image(), f.offset + at, static_cast<uint64_t>(part.range.size), false, item.name}, kind, {}});
        }
    }
    f.file("bonus.csv", std::make_shared<GeneratedText>([entries, files] {
               std::string out = "file,field,index,sectors,bytes,kind,format,width,height,status,error\n";
               for (const BonusFile& b : *files) {
                   Json image = b.error.empty() && b.kind != bonus::Item::credits_text
                                    ? (b.kind == bonus::Item::rgba_image ? rgba_json(b.item) : pif_json(b.item))
                                    : Json{{"ok", b.error.empty()}, {"error", b.error}};
                   const bool ok = image.value("ok", false);
                   csv::row(out, {b.path, b.entry->table->name, std::to_string(b.entry->index), std::to_string(b.entry->range.size),
                                  std::to_string(b.item.length), kind_name(b.kind), image.value("format", ""),
                                  image.contains("width") ? std::to_string(image["width"].get<int>()) : "",
                                  image.contains("height") ? std::to_string(image["height"].get<int>()) : "", ok ? "ok" : "failed",
                                  image.value("error", "")});
               }
               return out;
           }),
           f.from_wad(0, f.size, "CSV written by gcfs", "every present range of the BONUS header with its image's header (formats-globals.md 7)"));
    f.info_json([entries, files](Json& j) {
        Json tables = Json::object();
        for (const RangeTable& t : bonus::kBonusTables) {
            size_t present = 0;
            for (const RangeEntry& e : *entries) present += e.table == &t;
            tables[t.name] = {{"header_offset", t.offset}, {"slots", t.count}, {"present", present}};
        }
        j["tables"] = tables;
        Json list = Json::array(), failures = Json::array();
        for (const BonusFile& b : *files) {
            Json e = {{"file", b.path}, {"field", b.entry->table->name}, {"index", b.entry->index}, {"sector", b.entry->range.offset},
                      {"sectors", b.entry->range.size}, {"kind", kind_name(b.kind)}};
            if (b.error.empty() && b.kind != bonus::Item::credits_text)
                e["image"] = b.kind == bonus::Item::rgba_image ? rgba_json(b.item) : pif_json(b.item);
            const std::string error = !b.error.empty() ? b.error : e.contains("image") ? e["image"].value("error", "") : "";
            if (!error.empty()) failures.push_back({{"file", b.path}, {"error", error}});
            list.push_back(std::move(e));
        }
        j["entries"] = list;
        j["failures"] = failures;
        j["ok"] = failures.empty();
    });
}

}  // namespace gcfs::tree::globals
