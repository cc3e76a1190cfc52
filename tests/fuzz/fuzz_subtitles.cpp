// libFuzzer: a cutscene's subtitle table (formats-globals.md §4) through the
// SubRip writer in every language, and the same bytes as an MPEG WAD header.
#include "formats/mpeg/mpeg_wad.h"
#include "formats/mpeg/subtitles.h"

using namespace gcfs::formats;
using namespace gcfs::formats::mpeg;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan bytes(data, size);
    (void)parse_mpeg_wad(bytes, size);
    const auto subtitles = parse_subtitles(bytes);
    if (!subtitles.ok()) return 0;
    for (size_t language = 0; language < kSubtitleLanguages.size(); ++language) {
        (void)subrip(*subtitles, language, VideoRegion::ntsc);
        (void)subrip(*subtitles, language, VideoRegion::pal);
    }
    return 0;
}
