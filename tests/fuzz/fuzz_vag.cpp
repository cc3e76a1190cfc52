// libFuzzer: a VAG (formats-globals.md §1) through everything a .wav read
// does: the header against its range, the frame-flag scan, the PS-ADPCM
// decode and the WAV header, holding the decode to the size the scan gave;
// and the same bytes as global and level AUDIO WAD headers (§2, §3).
#include <vector>

#include "formats/audio/audio_wad.h"
#include "formats/audio/vag.h"
#include "formats/audio/wav.h"

using namespace gcfs::formats;
using namespace gcfs::formats::audio;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan bytes(data, size);
    (void)parse_global_audio(bytes, size);
    (void)parse_level_audio(bytes, size);
    const auto header = parse_vag_header(bytes, size);
    if (!header.ok()) return 0;
    const ByteSpan frames = bytes.subspan(kVagHeaderSize, header->data_size);
    const auto scan = scan_vag(frames);
    if (!scan.ok()) return 0;
    std::vector<int16_t> pcm(scan->samples());
    AdpcmHistory history;
    const auto decoded = decode_frames(frames, scan->sample_frames, history, pcm);
    if (!decoded.ok() || *decoded != scan->samples()) __builtin_trap();  // the scan vouched for these frames
    const WavLayout layout{header->sample_rate, 1, scan->samples()};
    const auto wav = wav_header(layout);
    if (wav.ok() && wav->size() + 2 * pcm.size() != wav_size(layout)) __builtin_trap();
    return 0;
}
