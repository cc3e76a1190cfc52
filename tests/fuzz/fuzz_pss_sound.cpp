// libFuzzer: a cutscene's sound track (formats/mpeg/pss_audio.h): the PSS's
// packets walked, the SShd/SSbd headers held to their checks, the PS-ADPCM
// decoded into a WAV and into the PSS with LPCM (pss_mpg.h), each of which
// must be the size the header gave.
#include <cstdlib>

#include "formats/audio/wav.h"
#include "formats/mpeg/pss_audio.h"
#include "formats/mpeg/pss_mpg.h"

using namespace gcfs::formats;
using namespace gcfs::formats::mpeg;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan bytes(data, size);
    const auto head = pss_sound_header(bytes);
    const auto wav = pss_sound_wav(bytes);
    if (wav.ok() && head.ok() && *head && wav->size() != audio::wav_size((*head)->wav())) std::abort();  // the size stat gave
    const auto mpg = pss_to_mpg(bytes);
    if (mpg.ok() && head.ok() && *head && mpg->size() != mpg_size(size, **head)) std::abort();
    (void)parse_spu_header(bytes);
    return 0;
}
