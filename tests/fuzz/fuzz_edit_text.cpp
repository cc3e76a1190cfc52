// libFuzzer: the text edit decoders (edit/ gameplay files): a CSV table,
// settings.json or a help text written over a gameplay file. Input: a u32
// length, that many bytes of gameplay.bin, one byte choosing the file, then
// the file's text (tests/fuzz/run.sh cuts seeds from a built disc).
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "formats/export/csv_read.h"
#include "formats/gameplay/import.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const char* const kNames[] = {"mobies.csv", "ties.csv", "shrubs.csv", "cameras.csv", "sounds.csv",
                                         "env_samples.csv", "settings.json", "help/us_english.txt", "help/french.txt"};
    if (size < 5) return 0;
    uint32_t length;
    std::memcpy(&length, data, 4);
    if (length > size - 5) return 0;
    const ByteSpan gameplay(data + 4, length);
    const char* name = kNames[data[4 + length] % (sizeof kNames / sizeof *kNames)];
    const std::string_view text(reinterpret_cast<const char*>(data) + 5 + length, size - 5 - length);
    (void)csv::parse(text);
    const auto encoded = gameplay::import_file(gameplay, name, text);
    (void)encoded.ok();
    // The position cells reconciled against the text's own first half as what was shown.
    try {
        (void)gameplay::reconcile_positions(name, text, text.substr(0, text.size() / 2));
    } catch (const std::invalid_argument&) {
    }
    return 0;
}
