// Sizes the level folders after the one being listed, on threads of their
// own, while the listing goes on: a walk of the disc (`ls -lR`, `find`, `du`,
// a file manager stepping through levels) then finds the next levels' indexes
// built. A level's sizes need its core decoded through its class tables
// (formats.md 6.2: they follow 25 MB of textures), and one thread answering
// the listing cannot overlap that with anything.
//
// Two helpers, two folders ahead of a listing of a folder they sized, one
// ahead of any other listing (which sizes its own folder meanwhile): at most
// two levels are sized at once. A folder is sized once. What a helper builds is what a stat would have built (the indexes are
// std::call_once), so the answers do not change, only who waits. Measured on
// the full-scale disc (2 cores): a first `ls -lR` took 4.0 s without helpers,
// 3.2-3.8 s with one folder ahead, 2.3-2.7 s with two; peak RSS 55 MiB
// without, 59-60 MiB with this rule, 65 MiB when three levels were sized at
// once (the listing's own and two helpers').
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gcfs::tree {

class Tree;

// Asks every file under `folder` its size, as a stat would (cache::SizingLoads).
void size_every_file(const Tree& tree, uint64_t folder);

class IndexAhead {
public:
    static constexpr size_t kHelpers = 2;

    using SizeFolder = std::function<void(uint64_t folder)>;
    // `folders` in listing order (the root's name order). With
    // `size_listed`, a listed folder no helper took is sized by one too,
    // after the folders ahead, beside the listing (their work is shared:
    // what a stat builds is built once), so that every listed folder ends
    // up sized whole (its record saved to the persistent index).
    IndexAhead(std::vector<uint64_t> folders, SizeFolder size_folder, bool size_listed = false);
    ~IndexAhead();  // waits for the folders being sized, drops the rest
    IndexAhead(const IndexAhead&) = delete;
    IndexAhead& operator=(const IndexAhead&) = delete;

    // A listing of `folder` began. The helpers' own listings are ignored, so
    // sizing a folder does not chain through the disc.
    void listed(uint64_t folder);
    // Returns once nothing is being sized or waits to be (tests).
    void wait_idle();
    // Folders sized so far, in the order the helpers finished them.
    std::vector<uint64_t> sized() const;

private:
    void run();
    bool is_helper() const;  // with mutex_ held

    const std::vector<uint64_t> folders_;
    const SizeFolder size_folder_;
    const bool size_listed_;
    mutable std::mutex mutex_;
    std::condition_variable wake_, idle_;
    std::vector<bool> claimed_;  // by position in folders_: asked for once already
    std::deque<size_t> pending_;  // positions to size, nearest first
    std::vector<uint64_t> sized_;
    size_t busy_ = 0;
    bool stop_ = false;
    std::vector<std::thread> helpers_;  // started by the first request
};

}  // namespace gcfs::tree
