// What went wrong so far and what the cache did: the errors a reader met
// (logged once each) and the text of .gcfs/stats.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "cache/lru_cache.h"

namespace gcfs::tree {

class Diagnostics {
public:
    // Records a failed open or read of `path` and logs one line the first
    // time; `what` says which ("open", "read at file offset 4096").
    void report(const std::string& path, const std::string& what, const std::string& error);
    std::map<std::string, std::string> errors() const;
    std::optional<std::string> error_of(const std::string& path) const;
    std::map<std::string, std::string> errors_under(const std::string& folder) const;  // paths inside folder/
    std::string render(const cache::CacheStats& cache) const;

private:
    mutable std::mutex mutex_;
    std::map<std::string, std::string> errors_;
};

}  // namespace gcfs::tree
