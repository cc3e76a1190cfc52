// What one global WAD's unit (tree/globals/) needs to add its folder under
// global/: the tree, where the WAD lies in the image, its own header, and the
// helpers that record where each file's bytes come from.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "formats/disc/toc.h"
#include "tree/level/level_folder.h"

namespace gcfs::tree {

class GlobalFolder : public Origins {
public:
    // `offset`, `size`: the WAD file's image bytes (its ISO9660 file).
    GlobalFolder(Disc& disc, const formats::GlobalWad& wad, uint64_t offset, uint64_t size, Tree& tree, uint64_t dir);

    Disc& disc;
    const formats::GlobalWad& wad;
    const uint64_t offset, size;
    Tree& tree;
    const uint64_t dir;       // global/<name>
    const std::string label;  // "audio.wad", for messages
    // The WAD's own header (header_size bytes from its first byte); shorter
    // when the file or the image ends first.
    const formats::Bytes header;

    const Image& image() const { return *disc.image; }
    cache::LruCache& cache() const { return *disc.cache; }

    // "global/<name>/" plus `path`'s folders, made as needed ("help/english/x.wav").
    uint64_t folder_of(const std::string& path) const;
    void file(const std::string& path, std::shared_ptr<const Source> source, Origin origin) const;
    // Bytes [at, at + length) of the WAD file, read as they are or decoded.
    Origin from_wad(uint64_t at, uint64_t length, std::string decoder, std::string detail) const {
        return decoded(offset + at, length, std::move(decoder), std::move(detail));
    }
    using Json = nlohmann::ordered_json;
    // The fields every global info.json starts with: the file, its header's
    // size and sector words, and whether the TOC's copy of the header agrees.
    Json identity_json() const;
    // Adds info.json: identity_json()'s fields, then what `fill` adds when
    // the file is first stat'ed or read.
    void info_json(std::function<void(Json&)> fill) const;

    // The WAD's header as its unit parses it: the value, or, when the header
    // does not parse, nothing, with info.json saying why ("ok": false and
    // the error) as the folder's only file.
    template <class T>
    std::optional<T> parsed(formats::Result<T> header) const {
        if (header.ok()) return std::move(*header);
        refused(header.error().describe());
        return std::nullopt;
    }

private:
    void refused(const std::string& error) const;
};

}  // namespace gcfs::tree
