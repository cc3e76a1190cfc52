// A file gcfs makes from bytes it reads or decodes (a PNG of a PIF, an ELF
// rebuilt from a ratchet executable, an armor model): its size from a small
// look made once (a header, a class's counts), its bytes made on first read
// through the cache and held to that size.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "cache/lru_cache.h"
#include "formats/common/bytes.h"
#include "tree/node/node.h"

namespace gcfs::tree {

class DerivedFile final : public Source {
public:
    using Size = std::function<formats::Result<uint64_t>()>;
    using Make = std::function<formats::Result<formats::Bytes>()>;
    // `where` names what the bytes come from, appended to every error
    // ("bonus.wad sketchbook[0] at image byte 0x5000").
    DerivedFile(cache::LruCache& cache, Size size, Make make, std::string where);
    uint64_t size() const override;
    std::string open_error() const override;
    ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const override;

private:
    std::string describe(const formats::FormatError& error) const;

    cache::LruCache& cache_;
    Size size_of_;
    Make make_;
    std::string where_;
    uint64_t key_;
    mutable std::once_flag sized_;
    mutable std::optional<uint64_t> size_;
    mutable std::string size_error_;
};

}  // namespace gcfs::tree
