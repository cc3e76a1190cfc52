// The persistent index's file: one SQLite database, $XDG_CACHE_HOME/gcfs/
// index.sqlite by default (ratarmount's design: an SQLite index kept apart
// from a read-only archive), never beside the image. It keeps, per image,
// each level folder's record (formats/saved_index/folder_record.h) and the
// level core's WAD-LZ restart points (formats/wad_lz/wad_lz.h), both under
// the digest of the level's headers they were made from.
//
// An image is known by its size, its modification time and a digest of its
// table of contents; a level by a digest of the header bytes gcfs reads for
// it. A row made for other headers is never answered.
//
// Every record and restart point carries an HMAC under a key kept apart
// from the file (cache/index_key.h): one whose mark fails is dropped with
// one log line and made again, so neither a forged row nor another
// machine's index is ever answered. Without a key there is no index.
//
// The file is a cache: when it cannot be read (damaged, truncated, another
// program's or version's), one line is logged and a new one replaces it;
// when it cannot be written (a read-only or full place), one line is logged
// and it is read only, or, holding nothing of the image, left alone and the
// mount goes on without it. Nothing is left beside it that it did not hold.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cache/index_key.h"
#include "formats/common/bytes.h"

struct sqlite3;

namespace gcfs::cache {

struct ImageIdentity {
    uint64_t size = 0;
    int64_t mtime_ns = 0;
    std::string toc_digest;
};

class IndexStore {
public:
    // The default folder: $XDG_CACHE_HOME/gcfs, else $HOME/.cache/gcfs; empty when neither is set.
    static std::string default_dir();
    // Opens (making the folder and the file if need be) `dir`/index.sqlite
    // for `image`; null when it cannot (logged once).
    static std::unique_ptr<IndexStore> open(const std::string& dir, const ImageIdentity& image);
    ~IndexStore();
    IndexStore(const IndexStore&) = delete;
    IndexStore& operator=(const IndexStore&) = delete;

    const std::string& path() const { return path_; }
    bool read_only() const { return read_only_; }  // saves are skipped

    // The level folder's record saved for these headers, if any.
    std::optional<formats::Bytes> record(const std::string& folder, const std::string& headers) const;
    // Every level folder's record saved for this image, by folder, with the
    // headers it was saved for: read in one query, so that a mount's first
    // lookups need not wait on the file (tree/index/persistent_index.h).
    struct SavedRecord {
        std::string headers;
        formats::Bytes record;
    };
    std::map<std::string, SavedRecord> records() const;
    // Replaces what is saved for the folder (its record and restart points
    // made for other headers go).
    void save_record(const std::string& folder, const std::string& headers, formats::ByteSpan record);

    // The decoded positions of the restart points saved for the level's core stream.
    std::vector<uint64_t> points(const std::string& folder, const std::string& headers) const;
    // One point whole, when it is there and its mark (cache/index_key.h)
    // over every field (cursor, position, check and history) holds. The
    // caller still bounds the cursor by its stream, and the decoder holds
    // its output to the check.
    struct SavedPoint {
        uint64_t p = 0, pos = 0, check = 0;
        formats::Bytes history;
    };
    std::optional<SavedPoint> point(const std::string& folder, const std::string& headers, uint64_t pos) const;
    void save_point(const std::string& folder, const std::string& headers, const SavedPoint& point);
    // Forgets a point that failed its check (one log line is the caller's).
    void drop_point(const std::string& folder, const std::string& headers, uint64_t pos);

    // Records whose mark failed since the file was opened (each dropped).
    uint64_t unmarked_records() const;

    // Whether the file has failed since it was opened (every call is then a no-op).
    bool failed() const;

private:
    IndexStore(std::string path, sqlite3* db, int64_t image_id, bool read_only, IndexKey key, const ImageIdentity& image);
    static std::unique_ptr<IndexStore> open_for_reading(const std::string& path, const ImageIdentity& image, const std::string& why,
                                                        const IndexKey& key);
    IndexMac record_mac(const std::string& folder, const std::string& headers, formats::ByteSpan record) const;
    IndexMac point_mac(const std::string& folder, const std::string& headers, const SavedPoint& point) const;
    // `record` as read for `folder`, when its mark holds; otherwise it is
    // dropped (unless the file is read only) and counted. The caller holds mutex_.
    std::optional<formats::Bytes> marked(const std::string& folder, const std::string& headers, formats::Bytes record,
                                         const formats::Bytes& mac) const;
    // Logs the first failure and stops using the file.
    void failure(const char* doing) const;
    // The row of one restart point, gone; the caller holds mutex_ and may write.
    void delete_point(const std::string& folder, const std::string& headers, uint64_t pos) const;

    const std::string path_;
    sqlite3* const db_;
    const int64_t image_id_;
    const bool read_only_;
    const IndexKey key_;
    const std::string identity_text_;  // what every mark covers first: the image's size, mtime and table-of-contents digest
    mutable std::mutex mutex_;
    mutable bool failed_ = false;
    mutable uint64_t unmarked_records_ = 0;
    mutable bool damaged_ = false;  // SQLite found the file damaged: it goes at close, and the next mount makes a new one
};

}  // namespace gcfs::cache
