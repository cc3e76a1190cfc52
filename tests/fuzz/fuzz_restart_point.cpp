// libFuzzer: resuming a WAD LZ window at a restart point read from an
// untrusted index (formats/wad_lz/wad_lz.h): a point the walk itself met,
// then changed as the input says (its cursor, position, check, history
// bytes), on a fixed stream. Whatever the point holds, the window either
// fails or is exactly what a walk from the head decodes: never wrong bytes.
#include <algorithm>
#include <cstring>
#include <random>

#include "formats/wad_lz/wad_lz.h"

using namespace gcfs::formats;

namespace {

struct Truth {
    Bytes data, stream;
    struct Point {
        uint64_t p, pos, check;
        Bytes history;
    };
    std::vector<Point> points;  // as a walk to the end offers them
};

const Truth& truth() {
    static const Truth t = [] {
        Truth made;
        std::mt19937 rng(7);
        while (made.data.size() < 3'000'000) {
            const size_t n = 1 + rng() % 3000;
            for (size_t i = 0; i < n; ++i) made.data.push_back(rng() % 4 == 0 ? static_cast<uint8_t>(rng()) : static_cast<uint8_t>(i % 11));
        }
        made.stream = wad_lz::compress(made.data, "fuzz");
        const uint64_t from = made.data.size() - 4096;
        Bytes out(wad_lz::kWindowLead + 4096 + wad_lz::kPrefixSlack);
        const wad_lz::ReadStream read = [&](uint64_t offset, std::span<uint8_t> into) -> std::string {
            std::copy_n(made.stream.data() + offset, into.size(), into.begin());
            return {};
        };
        (void)wad_lz::decompress_window_read(made.stream.size(), read, out, from, 4096, wad_lz::kInputStep, nullptr,
                                             [&](const wad_lz::RestartPoint& p, bool) {
                                                 made.points.push_back({p.p, p.pos, p.check, Bytes(p.history.begin(), p.history.end())});
                                             });
        if (made.points.empty()) __builtin_trap();
        return made;
    }();
    return t;
}

uint64_t take(const uint8_t*& data, size_t& size, size_t bytes) {
    uint64_t v = 0;
    for (size_t k = 0; k < bytes && size; ++k, ++data, --size) v |= uint64_t{*data} << (8 * k);
    return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const Truth& t = truth();
    // Which point, then signed changes to its cursor and position, a check to xor, the window.
    const Truth::Point& met = t.points[take(data, size, 1) % t.points.size()];
    wad_lz::RestartPoint point{met.p + static_cast<uint64_t>(static_cast<int64_t>(static_cast<int16_t>(take(data, size, 2)))),
                               met.pos + static_cast<uint64_t>(static_cast<int64_t>(static_cast<int16_t>(take(data, size, 2)))), {},
                               met.check ^ take(data, size, 8)};
    const uint64_t from = point.pos + wad_lz::kWindowLead + take(data, size, 3) % 200'000;
    const uint64_t length = 1 + take(data, size, 2) % 8192;
    // The rest: (offset, xor) pairs on the history.
    Bytes history = met.history;
    while (size >= 3) {
        const uint64_t at = take(data, size, 2) % history.size();
        history[at] ^= static_cast<uint8_t>(take(data, size, 1));
    }
    point.history = history;
    if (from + length > t.data.size()) return 0;
    const wad_lz::ReadStream read = [&](uint64_t offset, std::span<uint8_t> into) -> std::string {
        if (offset + into.size() > t.stream.size()) __builtin_trap();  // the decoder reads only inside the extent
        std::copy_n(t.stream.data() + offset, into.size(), into.begin());
        return {};
    };
    Bytes out(wad_lz::kWindowLead + length + wad_lz::kPrefixSlack);
    const auto at = wad_lz::decompress_window_read(t.stream.size(), read, out, from, length, wad_lz::kInputStep, &point);
    if (at.ok() && !std::equal(out.begin() + static_cast<std::ptrdiff_t>(*at), out.begin() + static_cast<std::ptrdiff_t>(*at + length),
                               t.data.begin() + static_cast<std::ptrdiff_t>(from)))
        __builtin_trap();  // wrong bytes from a lying point
    return 0;
}
