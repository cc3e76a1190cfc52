// libFuzzer: two mod folders' files merged (edit/mods/merge.h), the folders
// being untrusted input: a table, help text, subtitle file or settings.json
// as the image shows it and two versions of it. Input: one byte choosing the
// grain, then the three texts separated by NUL bytes (tests/fuzz/run.sh cuts
// seeds from a built disc, with cells, rows and cues changed). Whatever the
// texts, a merge either throws std::runtime_error or gives a text that cuts
// into parts again, and the diff's cutting holds the same.
#include <stdexcept>
#include <string_view>

#include "edit/mods/merge.h"

using namespace gcfs::edit::mods;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    static constexpr Grain kGrains[] = {Grain::table_cells, Grain::help_messages, Grain::subtitle_cues, Grain::settings_keys, Grain::whole};
    const Grain grain = kGrains[data[0] % 5];
    std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::string_view texts[3];
    for (auto& text : texts) {
        const size_t nul = rest.find('\0');
        text = rest.substr(0, nul);
        rest = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
    }
    try {
        const Merged merged = merge3(grain, texts[0], texts[1], texts[2]);
        if (grain != Grain::whole) (void)keyed_parts(grain, texts[0], merged.text, false);
    } catch (const std::runtime_error&) {
    }
    if (grain == Grain::whole) return 0;
    try {
        const KeyedParts parts = keyed_parts(grain, texts[0], texts[1], true);
        for (const Part& p : parts.base) (void)parts.describe(p.key);
        for (const Part& p : parts.other) (void)parts.describe(p.key);
    } catch (const std::runtime_error&) {
    }
    return 0;
}
