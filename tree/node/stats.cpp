#include "tree/node/stats.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "tree/node/sources.h"

namespace gcfs::tree {

void Diagnostics::report(const std::string& path, const std::string& what, const std::string& error) {
    std::lock_guard lock(mutex_);
    if (errors_.emplace(path, error).second) spdlog::error("{}: {} failed: {}", path, what, error);
}

std::map<std::string, std::string> Diagnostics::errors() const {
    std::lock_guard lock(mutex_);
    return errors_;
}

std::optional<std::string> Diagnostics::error_of(const std::string& path) const {
    std::lock_guard lock(mutex_);
    const auto it = errors_.find(path);
    return it == errors_.end() ? std::nullopt : std::optional<std::string>(it->second);
}

std::map<std::string, std::string> Diagnostics::errors_under(const std::string& folder) const {
    std::lock_guard lock(mutex_);
    std::map<std::string, std::string> found;
    const std::string prefix = folder + "/";
    for (auto it = errors_.lower_bound(prefix); it != errors_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it)
        found.insert(*it);
    return found;
}

std::string Diagnostics::render(const cache::CacheStats& c) const {
    std::string out = fmt::format(
        "cache_budget_bytes {}\ncache_resident_bytes {}\ncache_sizing_bytes {}\ncache_entries {}\ncache_hits {}\n"
        "cache_misses {}\ncache_waits {}\ncache_evictions {}\nbytes_decoded {}\ndecode_failures {}\n"
        "cache_live_bytes {}\ncache_room_waits {}\ncache_stalled_starts {}\nbytes_walked {}\n",
        c.budget_bytes, c.resident_bytes, c.sizing_bytes, c.entries, c.hits, c.misses, c.waits, c.evictions, c.loaded_bytes,
        c.failures, cache::Blob::live_bytes(), c.room_waits, c.stalled_starts, window_walk_bytes());
    const auto errs = errors();
    out += fmt::format("errors {}\n", errs.size());
    for (const auto& [path, error] : errs) out += fmt::format("error {}: {}\n", path, error);
    return out;
}

}  // namespace gcfs::tree
