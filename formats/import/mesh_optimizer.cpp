#include "formats/import/mesh_optimizer.h"

#include <meshoptimizer.h>

#include <fmt/format.h>

#include <algorithm>

#include "formats/common/late_library.h"

namespace gcfs::formats {
namespace {

// The header overloads these names with templates, so each C entry point's
// type is spelled out (meshoptimizer.h 0.18) rather than taken by decltype.
using SimplifyFunction = size_t(unsigned int*, const unsigned int*, size_t, const float*, size_t, size_t, size_t, float, unsigned int, float*);
using StripifyFunction = size_t(unsigned int*, const unsigned int*, size_t, size_t, unsigned int);
using CacheStripFunction = void(unsigned int*, const unsigned int*, size_t, size_t);

struct Libmeshoptimizer {
    LateLibrary library{"libmeshoptimizer.so.2d"};
    SimplifyFunction* const simplify = library.function<SimplifyFunction>("meshopt_simplify");
    StripifyFunction* const stripify = library.function<StripifyFunction>("meshopt_stripify");
    CacheStripFunction* const order_for_strips = library.function<CacheStripFunction>("meshopt_optimizeVertexCacheStrip");
    GCFS_LATE_FUNCTION(stripify_bound, meshopt_stripifyBound);
};

constexpr uint32_t kRestart = ~0u;

const Libmeshoptimizer& api() {
    const auto& table = late_table<Libmeshoptimizer>();
    if (!table.library.error().empty())
        fail(Errc::unavailable, 0, "meshes cannot be simplified or stripped: " + table.library.error());
    return table;
}

bool degenerate(const std::vector<uint32_t>& run, size_t j) {
    return run[j] == run[j + 1] || run[j + 1] == run[j + 2] || run[j] == run[j + 2];
}

// meshoptimizer joins strips with repeated indices where a strip turns
// against its parity; a GS strip would draw those as degenerate triangles
// and count them in tri_count (formats.md 7.8), so the run is cut there.
// A piece that starts on an odd triangle begins with that triangle alone,
// corners swapped, since an odd triangle (a, b, c) is drawn as (b, a, c).
void add_without_degenerates(const std::vector<uint32_t>& run, std::vector<std::vector<uint32_t>>& out) {
    if (run.size() < 3) return;
    const size_t triangles = run.size() - 2;
    size_t k = 0;
    while (k < triangles) {
        if (degenerate(run, k)) {
            ++k;
            continue;
        }
        size_t end = k;
        while (end < triangles && !degenerate(run, end)) ++end;
        if (k % 2 == 1) {
            out.push_back({run[k + 1], run[k], run[k + 2]});
            ++k;
        }
        if (k < end) out.emplace_back(run.begin() + static_cast<int64_t>(k), run.begin() + static_cast<int64_t>(end + 2));
        k = end;
    }
}

}  // namespace

Result<std::vector<uint32_t>> simplify_triangles(const std::vector<uint32_t>& triangles, const std::vector<std::array<float, 3>>& positions,
                                                 size_t target) {
    return capture([&] {
        // meshoptimizer asserts its preconditions (Debian's build keeps them), so each is checked here first.
        if (triangles.size() % 3 != 0) fail(Errc::bad_value, 0, "a triangle list whose length is not a multiple of 3");
        for (uint32_t v : triangles)
            if (v >= positions.size()) fail(Errc::out_of_range, 0, fmt::format("a triangle names vertex {} of {}", v, positions.size()));
        if (triangles.empty()) return std::vector<uint32_t>{};
        target = std::min(target, triangles.size() / 3);
        std::vector<uint32_t> out(triangles.size());
        // target_error 1: as far as the triangle target, never stopped early by the error bound.
        const size_t kept = api().simplify(out.data(), triangles.data(), triangles.size(), positions.data()->data(), positions.size(),
                                           sizeof(positions[0]), target * 3, 1.0f, meshopt_SimplifyLockBorder, nullptr);
        out.resize(kept);
        return out;
    });
}

Result<std::vector<std::vector<uint32_t>>> triangle_strips(const std::vector<uint32_t>& triangles, size_t vertex_count) {
    return capture([&] {
        const auto& lib = api();
        if (triangles.size() % 3 != 0) fail(Errc::bad_value, 0, "a triangle list whose length is not a multiple of 3");
        for (uint32_t v : triangles)
            if (v >= vertex_count) fail(Errc::out_of_range, 0, fmt::format("a triangle names vertex {} of {}", v, vertex_count));
        // meshoptimizer's own advice: order the triangles for a strip-like
        // cache first, which gives the stripifier runs several times longer.
        std::vector<uint32_t> ordered(triangles.size());
        if (!triangles.empty()) lib.order_for_strips(ordered.data(), triangles.data(), triangles.size(), vertex_count);
        std::vector<uint32_t> joined(lib.stripify_bound(triangles.size()));
        joined.resize(lib.stripify(joined.data(), ordered.data(), ordered.size(), vertex_count, kRestart));
        std::vector<std::vector<uint32_t>> strips;
        std::vector<uint32_t> run;
        for (uint32_t index : joined) {
            if (index != kRestart) {
                run.push_back(index);
                continue;
            }
            add_without_degenerates(run, strips);
            run.clear();
        }
        add_without_degenerates(run, strips);
        return strips;
    });
}

}  // namespace gcfs::formats
