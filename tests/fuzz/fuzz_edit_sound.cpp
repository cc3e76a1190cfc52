// libFuzzer: the sound edit decoders (edit/ audio and subtitles): any bytes
// as a WAV through libsndfile and the PS-ADPCM encoder, and as a SubRip file
// over a fixed subtitle table of two records.
#include <string_view>

#include "formats/audio/vag.h"
#include "formats/audio/wav_read.h"
#include "formats/mpeg/subtitles.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan input(data, size);
    if (auto wav = audio::read_wav(input, 1 << 16, 48000); wav.ok()) {
        audio::VagEncodeOptions options;
        options.exhaustive = true;
        const Bytes adpcm = audio::encode_adpcm(wav->samples, options);
        if (adpcm.size() % audio::kFrameSize) __builtin_trap();
    }
    static const Bytes table = mpeg::write_subtitles({{"Hello", "Bonjour", "", "Hola", "Ciao"}, {"Two", "Deux", "Zwei", "Dos", "Due"}},
                                                     {{30, 90}, {120, 200}});
    std::string note;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (size_t language : {0u, 2u}) (void)mpeg::import_subrip(table, language, text, mpeg::VideoRegion::ntsc, note).ok();
    (void)mpeg::game_text_from_utf8(text).ok();
    return 0;
}
