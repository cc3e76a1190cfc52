// libFuzzer: the text edit decoders (edit/ gameplay files): a CSV table
// (rows changed, added and removed), settings.json or a help text written
// over a gameplay file, and the file that comes out read back and shown.
// Input: a u32 length, that many bytes of gameplay.bin, one byte choosing
// the file (its top bit: the level's core holds classes 0-1023, so a new tie
// or shrub may name any of them), then the file's text (tests/fuzz/run.sh
// cuts seeds from a built disc, some with rows added and removed). The text
// also goes through the rewriting of a save made again (rebase.h).
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "formats/export/csv_read.h"
#include "formats/gameplay/export.h"
#include "formats/gameplay/gameplay.h"
#include "formats/gameplay/import.h"
#include "formats/gameplay/rebase.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const char* const kNames[] = {"mobies.csv", "ties.csv", "shrubs.csv", "cameras.csv", "sounds.csv",
                                         "env_samples.csv", "settings.json", "help/us_english.txt", "help/french.txt", "paths.csv",
                                         "pvars/moby_1007.bin",  // the disc builder's moby 1
                                         "env_transitions.csv", "lights.csv", "groups.csv", "areas.csv", "volumes.csv"};
    if (size < 5) return 0;
    uint32_t length;
    std::memcpy(&length, data, 4);
    if (length > size - 5) return 0;
    const ByteSpan gameplay(data + 4, length);
    const uint8_t pick = data[4 + length];
    const char* name = kNames[(pick & 0x7f) % (sizeof kNames / sizeof *kNames)];
    static const gameplay::LevelContext held = [] {
        gameplay::LevelContext h;
        for (int32_t c = 0; c < 1024; ++c)
            for (auto& kind : h.held) kind.insert(c);
        return h;
    }();
    const std::string_view text(reinterpret_cast<const char*>(data) + 5 + length, size - 5 - length);
    (void)csv::parse(text);
    const auto encoded = gameplay::import_file(gameplay, name, text, pick & 0x80 ? &held : nullptr);
    if (encoded.ok()) (void)gameplay::export_gameplay(gameplay::read_gameplay(encoded->gameplay));
    // The position cells reconciled against the text's own first half as what was shown.
    try {
        (void)gameplay::reconcile_positions(name, text, text.substr(0, text.size() / 2));
    } catch (const std::invalid_argument&) {
    }
    // A table saved again under a groups.csv edit (formats/gameplay/rebase.h): the text against its
    // own halves as what was shown and what the earlier save held, and as the groups.csv that follows.
    const std::string_view half = text.substr(0, text.size() / 2);
    (void)gameplay::cells_as_earlier(name, half, text.substr(text.size() / 2), text, {"group", "paths_links"});
    (void)gameplay::follow_rows(name, half, text, "groups.csv", text);
    (void)gameplay::follow_rows("mobies.csv", text, half, "groups.csv", text);
    (void)gameplay::follow_rows(name, half, text, "areas.csv", text);
    (void)gameplay::settings_as_earlier(half, text.substr(text.size() / 2), text, {"ship_path", "ship_camera_cuboid_start"});
    return 0;
}
