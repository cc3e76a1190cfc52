// gcfs_bench: in-process figures for bench/run.py, each a median of repeated
// runs against a baseline timed in the same run.
//   gcfs_bench codec IMAGE [LEVELS]  WAD LZ decode of each core stream vs memcpy of its output, and its packets walked alone
//   gcfs_bench terrain IMAGE          tfrag region decode + index build, per level
//   gcfs_bench adpcm VAG              PS-ADPCM decode of one VAG file, MB/s of WAV out on one core
// Prints one "key value" line per figure.
#include <fmt/format.h>

#include <cmath>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "formats/audio/vag.h"
#include "formats/tfrag/tfrag_export.h"
#include "formats/wad_lz/wad_lz.h"
#include "tree/tree_builder.h"

namespace {

using namespace gcfs;
using Clock = std::chrono::steady_clock;

double median_seconds(int runs, const std::function<void()>& body) {
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        body();
        times.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

struct Stream {
    std::string level;
    formats::Bytes compressed;
    uint64_t decoded_size;
    uint64_t tfrag_size;
};

std::vector<Stream> core_streams(const tree::Disc& disc, size_t limit) {
    std::vector<Stream> streams;
    disc.tree.build_all();  // every level's headers read
    for (const auto& level : disc.scan.levels) {
        if (!level.lump || !level.core || streams.size() >= limit) continue;
        Stream s{level.folder, formats::Bytes(static_cast<size_t>(level.lump->core_data.size)),
                 static_cast<uint64_t>(level.core->assets_decompressed_size), 0};
        if (!disc.image->read(level.data_offset + static_cast<uint64_t>(level.lump->core_data.offset), s.compressed))
            throw std::runtime_error("cannot read " + level.folder);
        if (const auto* tfrag = level.region("tfrag")) s.tfrag_size = tfrag->offset + tfrag->size;
        streams.push_back(std::move(s));
    }
    return streams;
}

int codec(const std::string& image, size_t levels) {
    auto disc = tree::open_disc(image, 1 << 20);
    const auto streams = core_streams(*disc, levels);
    uint64_t out_bytes = 0, tfrag_bytes = 0;
    double lz = 0, walk = 0, copy = 0, tfrag = 0, tfrag_copy = 0;
    for (const auto& s : streams) {
        formats::Bytes out(s.decoded_size), source(s.decoded_size, 0x5A), sink(s.decoded_size);
        // Touch every page first so neither side pays for first-touch faults.
        (void)formats::wad_lz::decompress_into(s.compressed, out).value();
        std::memcpy(sink.data(), source.data(), sink.size());
        lz += median_seconds(7, [&] { (void)formats::wad_lz::decompress_into(s.compressed, out).value(); });
        // The same packets walked with nothing written (wad_lz::measure): what
        // reading the packets alone costs, a bound under any decoder of this loop.
        walk += median_seconds(7, [&] { (void)formats::wad_lz::measure(s.compressed).value(); });
        copy += median_seconds(7, [&] { std::memcpy(sink.data(), source.data(), sink.size()); asm volatile("" ::: "memory"); });
        // The geometry alone: the tfrag region at the head of the core.
        tfrag += median_seconds(7, [&] { (void)formats::wad_lz::decompress_prefix(s.compressed, s.tfrag_size).value(); });
        tfrag_copy += median_seconds(7, [&] {
            formats::Bytes copy_out(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(s.tfrag_size));
            asm volatile("" ::"r"(copy_out.data()) : "memory");
        });
        out_bytes += s.decoded_size;
        tfrag_bytes += s.tfrag_size;
    }
    const double mb = out_bytes / 1e6, tmb = tfrag_bytes / 1e6;
    fmt::print("levels {}\ncore_bytes {}\nlz_core_mb_s {:.0f}\nlz_core_walk_mb_s {:.0f}\nmemcpy_mb_s {:.0f}\nlz_over_memcpy {:.3f}\n",
               streams.size(), out_bytes, mb / lz, mb / walk, mb / copy, copy / lz);
    fmt::print("tfrag_bytes {}\nlz_tfrag_mb_s {:.0f}\ntfrag_alloc_copy_mb_s {:.0f}\nlz_tfrag_over_copy {:.3f}\n", tfrag_bytes,
               tmb / tfrag, tmb / tfrag_copy, tfrag_copy / tfrag);
    return 0;
}

int terrain(const std::string& image) {
    auto disc = tree::open_disc(image, 1ull << 30);
    uint64_t patches = 0;
    double total = 0;
    for (const auto& [folder, decoders] : disc->decoders) {
        if (!decoders.terrain) continue;
        const auto start = Clock::now();
        patches += decoders.terrain->index().summary.patches.size();
        total += std::chrono::duration<double>(Clock::now() - start).count();
    }
    fmt::print("terrain_levels {}\nterrain_patches {}\nterrain_index_ms_per_level {:.2f}\n", disc->decoders.size(), patches,
               1000 * total / std::max<size_t>(1, disc->decoders.size()));
    return 0;
}

int adpcm(const std::string& path) {
    const auto bytes = [&] {
        std::FILE* f = std::fopen(path.c_str(), "rb");
        if (!f) throw std::runtime_error("cannot read " + path);
        formats::Bytes out;
        for (int c; (c = std::fgetc(f)) != EOF;) out.push_back(static_cast<uint8_t>(c));
        std::fclose(f);
        return out;
    }();
    using namespace formats::audio;
    const auto header = parse_vag_header(bytes, bytes.size()).value();
    const formats::ByteSpan data = formats::ByteSpan(bytes).subspan(kVagHeaderSize, header.data_size);
    const auto scan = scan_vag(data).value();
    std::vector<int16_t> pcm(scan.samples());
    auto decode = [&] {
        AdpcmHistory history;
        (void)decode_frames(data, scan.sample_frames, history, pcm).value();
        asm volatile("" ::"r"(pcm.data()) : "memory");
    };
    decode();  // first-touch faults paid before timing
    const double t = median_seconds(7, decode);
    fmt::print("adpcm_samples {}\nadpcm_wav_mb_s {:.0f}\n", scan.samples(), 2.0 * static_cast<double>(scan.samples()) / 1e6 / t);
    return 0;
}

// The PS-ADPCM encoder an edited sound goes through (issue 41): SNR of
// what the decoder gives back against the input, and MB/s of 16-bit WAV
// encoded, for a tone, white noise and a chirp of `seconds` at 22050 Hz;
// exhaustive (every filter and shift, what edits use) beside the builder's
// three shifts a filter.
int adpcm_encode(double seconds) {
    using namespace formats::audio;
    const size_t n = static_cast<size_t>(seconds * 22050);
    std::vector<std::pair<const char*, std::vector<int16_t>>> signals = {{"tone", {}}, {"noise", {}}, {"chirp", {}}};
    uint32_t seed = 2026;
    for (size_t i = 0; i < n; ++i) {
        const double t = static_cast<double>(i) / 22050;
        signals[0].second.push_back(static_cast<int16_t>(12000 * std::sin(2 * M_PI * 440 * t)));
        seed = seed * 1664525u + 1013904223u;
        signals[1].second.push_back(static_cast<int16_t>(static_cast<int32_t>(seed >> 16) - 32768) / 3);
        signals[2].second.push_back(static_cast<int16_t>(12000 * std::sin(2 * M_PI * (100 * t + 0.5 * (8000.0 / seconds) * t * t))));
    }
    for (const auto& [name, samples] : signals)
        for (const bool exhaustive : {true, false}) {
            const std::vector<int16_t>& pcm = samples;  // clang 14's lambdas cannot capture a structured binding
            VagEncodeOptions options;
            options.exhaustive = exhaustive;
            options.end_frame = false;
            formats::Bytes adpcm;
            const double t = median_seconds(3, [&] { adpcm = encode_adpcm(pcm, options); });
            std::vector<int16_t> back(adpcm.size() / kFrameSize * kSamplesPerFrame);
            AdpcmHistory history;
            (void)decode_frames(adpcm, adpcm.size() / kFrameSize, history, back).value();
            double signal = 0, noise = 0;
            for (size_t i = 0; i < pcm.size(); ++i) {
                signal += double(pcm[i]) * pcm[i];
                noise += (double(pcm[i]) - back[i]) * (double(pcm[i]) - back[i]);
            }
            const char* how = exhaustive ? "exhaustive" : "three_shifts";
            fmt::print("encode_{}_{}_snr_db {:.1f}\nencode_{}_{}_mb_s {:.2f}\n", name, how, 10 * std::log10(signal / std::max(noise, 1.0)), name,
                       how, 2.0 * static_cast<double>(pcm.size()) / 1e6 / t);
        }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    try {
        if (mode == "codec" && argc >= 3) return codec(argv[2], argc > 3 ? std::stoul(argv[3]) : SIZE_MAX);
        if (mode == "terrain" && argc == 3) return terrain(argv[2]);
        if (mode == "adpcm" && argc == 3) return adpcm(argv[2]);
        if (mode == "adpcm-encode") return adpcm_encode(argc > 2 ? std::stod(argv[2]) : 10.0);
    } catch (const std::exception& e) {
        fmt::print(stderr, "gcfs_bench: {}\n", e.what());
        return 1;
    }
    fmt::print(stderr, "usage: gcfs_bench codec IMAGE [LEVELS] | terrain IMAGE | adpcm VAG | adpcm-encode [SECONDS]\n");
    return 2;
}
