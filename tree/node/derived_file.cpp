#include "tree/node/derived_file.h"

#include <fmt/format.h>

#include "tree/node/sources.h"

namespace gcfs::tree {

DerivedFile::DerivedFile(cache::LruCache& cache, Size size, Make make, std::string where)
    : cache_(cache), size_of_(std::move(size)), make_(std::move(make)), where_(std::move(where)), key_(new_cache_key()) {}

std::string DerivedFile::describe(const formats::FormatError& error) const { return fmt::format("{} ({})", error.describe(), where_); }

uint64_t DerivedFile::size() const {
    std::call_once(sized_, [&] {
        const auto got = size_of_();
        if (got.ok())
            size_ = *got;
        else
            size_error_ = describe(got.error());
    });
    return size_.value_or(0);
}

std::string DerivedFile::open_error() const {
    size();
    return size_error_;
}

ReadOutcome DerivedFile::read(uint64_t offset, std::span<uint8_t> out) const {
    if (std::string error = open_error(); !error.empty()) return {0, error};
    const cache::Loaded made = cache_.get(key_, [this]() -> cache::Loaded {
        auto bytes = make_();
        if (!bytes.ok()) return {nullptr, describe(bytes.error())};
        if (bytes->size() != *size_)  // stat reported the size a look at the header gave
            return {nullptr, fmt::format("made {} bytes, {} declared ({})", bytes->size(), *size_, where_)};
        return {cache::Blob::copy_of(*bytes), {}};
    });
    if (!made.bytes) return {0, made.error};
    return copy_window(made.bytes->bytes(), offset, out);
}

}  // namespace gcfs::tree
