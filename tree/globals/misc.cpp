#include <fmt/format.h>

#include <optional>

#include "formats/executable/executable.h"
#include "formats/misc/misc.h"
#include "tree/level/executable_file.h"
#include "tree/globals/global_images.h"
#include "tree/globals/globals.h"

namespace gcfs::tree::globals {
namespace {

using namespace formats;
using Json = GlobalFolder::Json;

struct MiscState {
    std::vector<RangeEntry> entries;
    std::vector<misc::IrxItem> irx;       // the table, when it decoded
    std::string irx_error;
    std::shared_ptr<const WadStream> irx_stream;
    std::vector<WadItem> modules;         // irx/<name>.irx, for the ELF check (parts of the decoded irx)
    std::optional<WadItem> frontbin;
};

// irx/: the decompressed irx range's table (§8), read now (its first 0x60
// bytes), each module as <name>.irx and the RGBA image as image.png.
void irx_folder(GlobalFolder& f, const RangeEntry& e, MiscState& state) {
    const WadItem item{&f.image(), f.offset + e.byte_offset(), e.byte_size(), true, f.label + " irx"};
    // The stream's decoded size (measured: its packets walked, nothing written) bounds every range.
    state.irx_stream = std::make_shared<WadStream>(f.image(), f.cache(), item.offset, item.length, std::nullopt);
    const auto table = state.irx_stream->open_error().empty() ? item.head(misc::kIrxTableSize)
                                                              : Result<Bytes>(FormatError{Errc::bad_value, 0, state.irx_stream->open_error()});
    const auto items = table.ok() ? misc::parse_irx_table(*table, state.irx_stream->size()) : Result<std::vector<misc::IrxItem>>(table.error());
    if (!items.ok()) {
        state.irx_error = fmt::format("irx: {} ({})", items.error().describe(), item.where());
        f.file("irx/table.bin", std::make_shared<Unreadable>(state.irx_error), f.from_wad(0, 0, "none", state.irx_error));
        return;
    }
    state.irx = *items;
    for (const misc::IrxItem& it : state.irx) {
        const std::string path = it.name == "image" ? "irx/image.png" : fmt::format("irx/{}.irx", it.name);
        if (!it.error.empty()) {
            f.file(path, std::make_shared<Unreadable>(it.error), f.from_wad(0, 0, "none", it.error));
            continue;
        }
        const auto at = static_cast<uint64_t>(it.range.offset), size = static_cast<uint64_t>(it.range.size);
        WadItem inner = item;
        inner.name = f.label + " irx " + it.name;
        inner.part = {at, size};
        const std::string detail = fmt::format("IRX table {}: irx decompressed [0x{:x}, +{}) (formats-globals.md 8)", it.name, at, size);
        if (it.name == "image") {
            f.file(path, rgba_png(f.cache(), inner), f.from_wad(e.byte_offset(), e.byte_size(), "WAD LZ (formats.md 5), then RGBA image to PNG", detail));
        } else {
            f.file(path, std::make_shared<SubRange>(state.irx_stream, at, size),
                   f.from_wad(e.byte_offset(), e.byte_size(), "WAD LZ (formats.md 5): the module's bytes as the table gives them", detail));
            state.modules.push_back(inner);
        }
    }
}

}  // namespace

// global/misc/ (formats-globals.md §8): the debug font as PNG, the IOP modules
// and their table's image, the front end's executable raw and as ELF, the
// other items raw (whole sector spans, as Wrench cuts them) or decompressed.
void misc(GlobalFolder& f) {
    auto parsed = f.parsed(read_range_tables(f.header, misc::kMiscHeaderSize, misc::kMiscTables, f.size, "the MISC header"));
    if (!parsed) return;
    auto state = std::make_shared<MiscState>();
    state->entries = std::move(*parsed);
    for (const RangeEntry& e : state->entries) {
        const std::string name = e.table->name;
        const uint64_t at = e.byte_offset(), size = e.byte_size();
        const std::string detail = fmt::format("{}: sectors [{}, {}) of {} (formats-globals.md 8)", name, e.range.offset, e.range.end(), f.label);
        if (!e.error.empty()) {
            f.file(name + (name == "debug_font" ? ".png" : ".bin"), std::make_shared<Unreadable>(e.error), f.from_wad(0, 0, "none", e.error));
            continue;
        }
        const WadItem item{&f.image(), f.offset + at, size, false, f.label + " " + name};
        if (name == "debug_font") {
            f.file("debug_font.png", pif_png(f.cache(), item), f.from_wad(at, size, "PIF (formats-globals.md 5), then PNG", detail));
        } else if (name == "irx") {
            irx_folder(f, e, *state);
        } else if (name == "frontbin_net") {
            f.file("frontbin_net.bin", std::make_shared<WadStream>(f.image(), f.cache(), item.offset, size, std::nullopt),
                   f.from_wad(at, size, "WAD LZ (formats.md 5)", detail + "; decompressed"));
        } else {
            f.file(name + ".bin", std::make_shared<ImageSlice>(f.image(), item.offset, size), f.from_wad(at, size, "none: the whole sector span", detail));
            if (name == "frontbin") {
                state->frontbin = item;
                f.file("frontbin.elf", rebuilt_elf(f.cache(), item),
                       f.from_wad(at, size, "ratchet executable (formats-globals.md 8), then ELF", detail + "; an ELF section per block"));
            }
        }
    }
    f.info_json([state](Json& j) {
        Json items = Json::array(), failures = Json::array();
        for (const RangeEntry& e : state->entries) {
            Json item = {{"field", e.table->name}, {"sector", e.range.offset}, {"sectors", e.range.size}};
            if (!e.error.empty()) {
                item["error"] = e.error;
                failures.push_back({{"file", e.table->name}, {"error", e.error}});
            }
            items.push_back(std::move(item));
        }
        j["items"] = items;
        if (!state->irx_error.empty()) failures.push_back({{"file", "irx/"}, {"error", state->irx_error}});
        Json irx = Json::array();
        for (const misc::IrxItem& it : state->irx) {
            Json entry = {{"name", it.name}, {"offset", it.range.offset}, {"bytes", it.range.size}};
            if (!it.error.empty()) {
                entry["error"] = it.error;
                failures.push_back({{"file", "irx/" + it.name}, {"error", it.error}});
            }
            irx.push_back(std::move(entry));
        }
        for (const WadItem& m : state->modules) {  // §8: an IOP module is an ELF
            const auto bytes = m.bytes();
            const auto elf = bytes.ok() ? executable::read_elf(*bytes) : Result<executable::ElfOutline>(bytes.error());
            for (Json& entry : irx)
                if (m.name.ends_with(" " + entry["name"].get<std::string>()))
                    entry["elf"] = elf.ok() ? Json{{"ok", true}, {"sections", elf->sections.size()}} : Json{{"ok", false}, {"error", elf.error().describe()}};
        }
        j["irx_table"] = irx;
        if (state->frontbin) {
            j["frontbin"] = executable_json(*state->frontbin);
            if (!j["frontbin"]["ok"].get<bool>()) failures.push_back({{"file", "frontbin.elf"}, {"error", j["frontbin"]["error"]}});
        }
        j["failures"] = failures;
        j["ok"] = failures.empty();
    });
}

}  // namespace gcfs::tree::globals
