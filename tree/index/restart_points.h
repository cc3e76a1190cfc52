// Where a level's core stream can be resumed (wad_lz::RestartPoint), so that
// a window near the core's end is not decoded from the stream's head each
// time it is missed: one point per kSpacing of output and one where each
// window's lead begins, met by the windows' walks. The cursors are kept
// here; each point's 48 KiB history is kept in the cache, where it may be
// evicted, and, with a persistent index, saved in it (cache/index_store.h),
// whence an evicted or earlier mount's point comes back. A window then costs
// nothing before its own lead once it has been decoded, and at most kSpacing
// plus one walk step (1 MiB) before that. A saved point is untrusted: its
// fields are bounded here, the decoder holds its output to its check, and
// one that fails is dropped (drop()) with one log line.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "cache/index_store.h"
#include "cache/lru_cache.h"
#include "formats/wad_lz/wad_lz.h"

namespace gcfs::tree {

class RestartPoints {
public:
    static constexpr uint64_t kSpacing = 2ull << 20;

    // Saved under the level `folder` and its `headers` digest in `store` (null: none),
    // for a stream that decodes to `decoded` bytes from `available` compressed.
    RestartPoints(cache::LruCache& cache, std::shared_ptr<cache::IndexStore> store, std::string folder, std::string headers,
                  uint64_t available, uint64_t decoded);

    struct Start {
        formats::wad_lz::RestartPoint point;
        cache::Buffer history;  // holds point.history's bytes
    };
    // The furthest point a window at `from` may start from (wad_lz::usable_restart)
    // whose history is at hand; none: the walk starts at the head.
    std::optional<Start> before(uint64_t from) const;
    // A point a walk met: kept when it is a window's own (`window_start`,
    // wad_lz::OfferRestart), or when its kSpacing stretch has none yet.
    void offer(const formats::wad_lz::RestartPoint& point, bool window_start);
    // A point a walk could not resume from (`why`): forgotten, here and in the store.
    void drop(uint64_t pos, const std::string& why);

    // A damaged stream costs one walk to its damage: a walk that failed past
    // `pos` decoded bytes (wad_lz::decompress_window_read's fails_past) is
    // remembered, and a later window ending past it fails alike at once.
    void failed_past(uint64_t pos, const formats::FormatError& error);
    std::optional<formats::FormatError> fails(uint64_t end) const;

    uint64_t known() const;  // points known (tests, stats)

private:
    struct Known {
        uint64_t key;                // of its history in the cache
        uint64_t p = 0, check = 0;  // known once read (a saved point's come with its history)
        bool read = false;
    };
    void load_saved() const;

    cache::LruCache& cache_;
    const std::shared_ptr<cache::IndexStore> store_;
    const std::string folder_, headers_;
    const uint64_t available_, decoded_;
    mutable std::mutex mutex_;
    mutable std::once_flag saved_read_;
    mutable std::map<uint64_t, Known> points_;  // by decoded position
    std::optional<std::pair<uint64_t, formats::FormatError>> failure_;  // the first failing byte, guarded by mutex_
};

}  // namespace gcfs::tree
