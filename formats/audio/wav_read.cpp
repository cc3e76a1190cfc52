#include "formats/audio/wav_read.h"

#include <sndfile.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "formats/common/late_library.h"

namespace gcfs::formats::audio {
namespace {

// libsndfile, opened when a user's sound is first read (Debian 12's libsndfile1).
struct Libsndfile {
    LateLibrary library{"libsndfile.so.1"};
    GCFS_LATE_FUNCTION(open_virtual, sf_open_virtual);
    GCFS_LATE_FUNCTION(strerror, sf_strerror);
    GCFS_LATE_FUNCTION(readf_float, sf_readf_float);
    GCFS_LATE_FUNCTION(command, sf_command);
    GCFS_LATE_FUNCTION(close, sf_close);
};

// libsndfile's virtual I/O over a byte span.
struct Memory {
    ByteSpan bytes;
    sf_count_t at = 0;
};
sf_count_t length(void* user) { return static_cast<sf_count_t>(static_cast<Memory*>(user)->bytes.size()); }
sf_count_t seek(sf_count_t offset, int whence, void* user) {
    auto* m = static_cast<Memory*>(user);
    const sf_count_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? m->at : static_cast<sf_count_t>(m->bytes.size());
    m->at = std::clamp<sf_count_t>(base + offset, 0, static_cast<sf_count_t>(m->bytes.size()));
    return m->at;
}
sf_count_t read(void* out, sf_count_t count, void* user) {
    auto* m = static_cast<Memory*>(user);
    const sf_count_t n = std::clamp<sf_count_t>(count, 0, static_cast<sf_count_t>(m->bytes.size()) - m->at);
    std::memcpy(out, m->bytes.data() + m->at, static_cast<size_t>(n));
    m->at += n;
    return n;
}
sf_count_t write(const void*, sf_count_t, void*) { return 0; }
sf_count_t tell(void* user) { return static_cast<Memory*>(user)->at; }

struct CloseFile {
    void operator()(SNDFILE* f) const { late_table<Libsndfile>().close(f); }
};

}  // namespace

Result<WavInput> read_wav(ByteSpan file, uint64_t max_samples, uint32_t max_rate) {
    const Libsndfile& api = late_table<Libsndfile>();
    if (!api.library.error().empty()) return FormatError{Errc::unavailable, 0, "sounds cannot be read: " + api.library.error()};
    SF_VIRTUAL_IO io{length, seek, read, write, tell};
    Memory memory{file};
    SF_INFO info{};
    std::unique_ptr<SNDFILE, CloseFile> sound(api.open_virtual(&io, SFM_READ, &info, &memory));
    if (!sound) return FormatError{Errc::bad_magic, 0, fmt::format("not a sound file libsndfile reads ({})", api.strerror(nullptr))};
    if (info.channels < 1 || info.channels > 8) return FormatError{Errc::bad_value, 0, fmt::format("{} channels", info.channels)};
    if (info.samplerate <= 0 || static_cast<uint32_t>(info.samplerate) > max_rate)
        return FormatError{Errc::bad_value, 0, fmt::format("a rate of {} Hz: the disc's sounds play at most {} Hz; resample it first",
                                                           info.samplerate, max_rate)};
    if (info.frames < 0 || static_cast<uint64_t>(info.frames) > max_samples)
        return FormatError{Errc::too_large, 0, fmt::format("{} samples, past the {} a sound may hold", info.frames, max_samples)};
    WavInput out;
    out.sample_rate = static_cast<uint32_t>(info.samplerate);
    out.channels = info.channels;
    std::vector<float> interleaved(static_cast<size_t>(info.frames) * static_cast<size_t>(info.channels));
    const sf_count_t got = api.readf_float(sound.get(), interleaved.data(), info.frames);
    if (got != info.frames) return FormatError{Errc::truncated, 0, fmt::format("{} of {} samples could be read", got, info.frames)};
    out.samples.resize(static_cast<size_t>(info.frames));
    for (size_t i = 0; i < out.samples.size(); ++i) {
        double sum = 0;
        for (int c = 0; c < info.channels; ++c) sum += interleaved[i * static_cast<size_t>(info.channels) + static_cast<size_t>(c)];
        const double v = std::round(sum / info.channels * 32768.0);
        out.samples[i] = static_cast<int16_t>(std::clamp(v, -32768.0, 32767.0));
    }
    SF_INSTRUMENT instrument{};
    if (api.command(sound.get(), SFC_GET_INSTRUMENT, &instrument, sizeof instrument) == SF_TRUE && instrument.loop_count > 0 &&
        instrument.loops[0].end > instrument.loops[0].start)
        // libsndfile reports the smpl chunk's inclusive end one past (its loop ends are exclusive).
        out.loop = WavLoop{instrument.loops[0].start, instrument.loops[0].end - 1};
    return out;
}

}  // namespace gcfs::formats::audio
