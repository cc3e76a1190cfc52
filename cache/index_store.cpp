#include "cache/index_store.h"

#include <spdlog/spdlog.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <zlib.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <tuple>
#include <variant>

#include "formats/common/late_library.h"

namespace gcfs::cache {
namespace {

// SQLite, opened with the index (on the mount's own thread once it answers,
// fs/mount.cpp) rather than linked: loading it before main was 1.6 ms of a
// cold start (bench/results.md, issue 43). Debian 12's libsqlite3-0.
struct Sqlite {
    formats::LateLibrary library{"libsqlite3.so.0"};
    GCFS_LATE_FUNCTION(open_v2, sqlite3_open_v2);
    GCFS_LATE_FUNCTION(close, sqlite3_close);
    GCFS_LATE_FUNCTION(exec, sqlite3_exec);
    GCFS_LATE_FUNCTION(prepare_v2, sqlite3_prepare_v2);
    GCFS_LATE_FUNCTION(finalize, sqlite3_finalize);
    GCFS_LATE_FUNCTION(bind_int64, sqlite3_bind_int64);
    GCFS_LATE_FUNCTION(bind_text, sqlite3_bind_text);
    GCFS_LATE_FUNCTION(bind_blob64, sqlite3_bind_blob64);
    GCFS_LATE_FUNCTION(step, sqlite3_step);
    GCFS_LATE_FUNCTION(column_int64, sqlite3_column_int64);
    GCFS_LATE_FUNCTION(column_blob, sqlite3_column_blob);
    GCFS_LATE_FUNCTION(column_bytes, sqlite3_column_bytes);
    GCFS_LATE_FUNCTION(column_text, sqlite3_column_text);
    GCFS_LATE_FUNCTION(errcode, sqlite3_errcode);
    GCFS_LATE_FUNCTION(errmsg, sqlite3_errmsg);
    GCFS_LATE_FUNCTION(busy_timeout, sqlite3_busy_timeout);
};

const Sqlite& sqlite() { return formats::late_table<Sqlite>(); }

// Bumped whenever a table changes: a file of another version is replaced.
constexpr int kSchemaVersion = 3;  // 3: records and points carry an HMAC (cache/index_key.h)
// Images whose rows are kept; the least recently mounted beyond go.
constexpr int kImagesKept = 16;
// A row's "used" mark is renewed at most this often: a mount that finds its
// row marked within the day opens the file without writing (a write here
// made SQLite create its log and sync it, ~1 ms before the first answer).
constexpr int64_t kUsedGranularity = 24 * 60 * 60;

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS images(
    id INTEGER PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, toc TEXT NOT NULL,
    used INTEGER NOT NULL, UNIQUE(size, mtime_ns, toc));
CREATE TABLE IF NOT EXISTS levels(
    image INTEGER NOT NULL, folder TEXT NOT NULL, headers TEXT NOT NULL, record BLOB NOT NULL, mac BLOB NOT NULL,
    PRIMARY KEY(image, folder));
CREATE TABLE IF NOT EXISTS restarts(
    image INTEGER NOT NULL, folder TEXT NOT NULL, headers TEXT NOT NULL, pos INTEGER NOT NULL,
    p INTEGER NOT NULL, check_digest INTEGER NOT NULL, mac BLOB NOT NULL, history BLOB NOT NULL,
    PRIMARY KEY(image, folder, pos));
)sql";

// One prepared statement, finalised on every path out.
class Statement {
public:
    Statement(sqlite3* db, const char* sql) { ok_ = sqlite().prepare_v2(db, sql, -1, &s_, nullptr) == SQLITE_OK; }
    ~Statement() { sqlite().finalize(s_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    bool ok() const { return ok_; }
    Statement& bind(int i, int64_t v) {
        ok_ = ok_ && sqlite().bind_int64(s_, i, v) == SQLITE_OK;
        return *this;
    }
    Statement& bind(int i, const std::string& v) {
        ok_ = ok_ && sqlite().bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT) == SQLITE_OK;
        return *this;
    }
    Statement& bind(int i, formats::ByteSpan v) {
        ok_ = ok_ && sqlite().bind_blob64(s_, i, v.data(), v.size(), SQLITE_TRANSIENT) == SQLITE_OK;
        return *this;
    }
    // SQLITE_ROW, SQLITE_DONE, or an error (ok() false).
    int step() {
        if (!ok_) return SQLITE_ERROR;
        const int rc = sqlite().step(s_);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) ok_ = false;
        return rc;
    }
    int64_t integer(int column) const { return sqlite().column_int64(s_, column); }
    std::string text(int column) const {
        const auto* data = reinterpret_cast<const char*>(sqlite().column_text(s_, column));
        return data ? std::string(data, static_cast<size_t>(sqlite().column_bytes(s_, column))) : std::string();
    }
    formats::Bytes blob(int column) const {
        const auto* data = static_cast<const uint8_t*>(sqlite().column_blob(s_, column));
        return formats::Bytes(data, data + sqlite().column_bytes(s_, column));
    }

private:
    sqlite3_stmt* s_ = nullptr;
    bool ok_ = false;
};

bool exec(sqlite3* db, const char* sql) { return sqlite().exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK; }

int64_t now_seconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

int64_t image_row(sqlite3* db, const ImageIdentity& image);

// Why a file is not an index this gcfs can use, and whether that is the
// file's fault (damaged, another program's or version's: a new one may
// replace it) or the place's (it cannot be written: it may still be read).
struct Unusable {
    std::string why;
    bool file_at_fault = false;
};

// What the last SQLite call on `db` said, as an Unusable.
Unusable sqlite_said(sqlite3* db, const char* doing) {
    const int code = sqlite().errcode(db);
    const bool writing = code == SQLITE_READONLY || code == SQLITE_FULL || code == SQLITE_CANTOPEN || code == SQLITE_IOERR ||
                         code == SQLITE_PERM || code == SQLITE_BUSY || code == SQLITE_LOCKED;
    return {fmt::format("{}: {}", doing, sqlite().errmsg(db)), !writing};
}

// The schema version the file holds, when it holds one this gcfs reads.
std::optional<Unusable> schema_problem(sqlite3* db) {
    Statement version(db, "PRAGMA user_version");
    if (version.step() != SQLITE_ROW) return sqlite_said(db, "reading its version");
    const int64_t found = version.integer(0);
    if (found != 0 && found != kSchemaVersion) return Unusable{fmt::format("schema version {}, this gcfs keeps {}", found, kSchemaVersion), true};
    return std::nullopt;
}

// This image's row when the file holds one marked used within the day. A
// file schema_problem() passed is of this schema or new: a new one has no
// images table yet, so the query fails and finds none.
std::optional<int64_t> recently_used_row(sqlite3* db, const ImageIdentity& image) {
    Statement row(db, "SELECT id, used FROM images WHERE size = ?1 AND mtime_ns = ?2 AND toc = ?3");
    row.bind(1, static_cast<int64_t>(image.size)).bind(2, image.mtime_ns).bind(3, image.toc_digest);
    if (row.step() != SQLITE_ROW) return std::nullopt;
    const int64_t used = row.integer(1), now = now_seconds();
    if (used > now || now - used >= kUsedGranularity) return std::nullopt;
    return row.integer(0);
}

// The schema in place and this image's row: its id, or why not.
std::variant<int64_t, Unusable> prepare(sqlite3* db, const ImageIdentity& image) {
    // A crash loses at most the last rows; the file stays whole (WAL).
    if (!exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")) return sqlite_said(db, "setting its journal");
    if (auto problem = schema_problem(db)) return *problem;
    if (const auto id = recently_used_row(db, image)) return *id;
    // One transaction for the whole set-up: each commit is a write of its own.
    if (!exec(db, "BEGIN IMMEDIATE")) return sqlite_said(db, "starting a write");
    const int64_t id = image_row(db, image);
    if (id < 0 || !exec(db, "COMMIT")) {
        Unusable problem = sqlite_said(db, "writing the image's row");
        exec(db, "ROLLBACK");
        return problem;
    }
    return id;
}

// This image's row of a file opened read-only, or -1 when it has none.
int64_t existing_image_row(sqlite3* db, const ImageIdentity& image) {
    Statement id(db, "SELECT id FROM images WHERE size = ?1 AND mtime_ns = ?2 AND toc = ?3");
    id.bind(1, static_cast<int64_t>(image.size)).bind(2, image.mtime_ns).bind(3, image.toc_digest);
    return id.step() == SQLITE_ROW ? id.integer(0) : -1;
}

int64_t image_row(sqlite3* db, const ImageIdentity& image) {
    if (!exec(db, kSchema) || !exec(db, fmt::format("PRAGMA user_version = {}", kSchemaVersion).c_str())) return -1;
    Statement upsert(db,
                     "INSERT INTO images(size, mtime_ns, toc, used) VALUES(?1, ?2, ?3, ?4) "
                     "ON CONFLICT(size, mtime_ns, toc) DO UPDATE SET used = excluded.used");
    upsert.bind(1, static_cast<int64_t>(image.size)).bind(2, image.mtime_ns).bind(3, image.toc_digest).bind(4, now_seconds());
    if (upsert.step() != SQLITE_DONE) return -1;
    Statement id(db, "SELECT id FROM images WHERE size = ?1 AND mtime_ns = ?2 AND toc = ?3");
    id.bind(1, static_cast<int64_t>(image.size)).bind(2, image.mtime_ns).bind(3, image.toc_digest);
    if (id.step() != SQLITE_ROW) return -1;
    const int64_t image_id = id.integer(0);
    Statement count(db, "SELECT count(*) FROM images");
    if (count.step() != SQLITE_ROW) return -1;
    if (count.integer(0) <= kImagesKept) return image_id;
    // Images mounted long ago: their rows go.
    const auto forget = fmt::format(
        "DELETE FROM images WHERE id NOT IN (SELECT id FROM images ORDER BY used DESC LIMIT {0});"
        "DELETE FROM levels WHERE image NOT IN (SELECT id FROM images);"
        "DELETE FROM restarts WHERE image NOT IN (SELECT id FROM images);",
        kImagesKept);
    if (!exec(db, forget.c_str())) return -1;
    return image_id;
}

sqlite3* open_file(const std::string& path) {
    sqlite3* db = nullptr;
    if (sqlite().open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        sqlite().close(db);
        return nullptr;
    }
    sqlite().busy_timeout(db, 2000);  // two mounts of one image share the file
    return db;
}

// The file as it is, for reading only: "immutable" so SQLite writes nothing
// beside it (no -shm, no -wal), which a full or read-only place could not hold.
sqlite3* open_read_only(const std::string& path) {
    sqlite3* db = nullptr;
    const std::string uri = "file:" + path + "?immutable=1";
    if (sqlite().open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        sqlite().close(db);
        return nullptr;
    }
    return db;
}

// The database and the files SQLite keeps beside it in WAL mode.
void remove_index_files(const std::string& path) {
    std::error_code error;  // a file already gone is what was wanted
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix, error);
}

// What a failed attempt made beside the file (a full disk, say): with no
// log in -wal, the -shm index of it holds nothing either, so both go. A
// -wal with rows in it stays, with its -shm: those rows are the file's.
void remove_empty_companions(const std::string& path) {
    std::error_code error;
    const uint64_t wal = std::filesystem::exists(path + "-wal", error) ? std::filesystem::file_size(path + "-wal", error) : 0;
    if (wal != 0 || error) return;
    for (const char* suffix : {"-wal", "-shm"}) std::filesystem::remove(path + suffix, error);
}

// What SQLite would open that is not a plain file (a FIFO there would hang
// the mount's first lookup, a symlink lead elsewhere): said, or "" when the
// folder is a folder and each file is absent or plain.
std::string not_plain(const std::string& dir, const std::string& path) {
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return fmt::format("{} is not a folder", dir);
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        const std::string file = path + suffix;
        if (::lstat(file.c_str(), &st) != 0) continue;
        if (!S_ISREG(st.st_mode)) return fmt::format("{} is not a plain file", file);
    }
    return {};
}

formats::Bytes as_bytes(const IndexMac& mac) { return formats::Bytes(mac.begin(), mac.end()); }

}  // namespace

std::string IndexStore::default_dir() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && xdg[0] == '/') return std::string(xdg) + "/gcfs";
    if (const char* home = std::getenv("HOME"); home && home[0] == '/') return std::string(home) + "/.cache/gcfs";
    return {};
}

std::unique_ptr<IndexStore> IndexStore::open(const std::string& dir, const ImageIdentity& image) {
    if (const std::string& missing = sqlite().library.error(); !missing.empty()) {
        spdlog::warn("persistent index: SQLite: {}; mounting without it", missing);
        return nullptr;
    }
    std::string why;
    const auto key = IndexKey::load(why);
    if (!key) {
        spdlog::warn("persistent index: no key ({}); mounting without it", why);
        return nullptr;
    }
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error) {
        spdlog::warn("persistent index: cannot make {}: {}; mounting without it", dir, error.message());
        return nullptr;
    }
    const std::string path = dir + "/index.sqlite";
    if (const std::string odd = not_plain(dir, path); !odd.empty()) {
        spdlog::warn("persistent index: {}; mounting without it, nothing there touched", odd);
        return nullptr;
    }
    // Another mount may hold the file open, its -wal and -shm in use: only what this attempt made may go.
    const bool had_companions = std::filesystem::exists(path + "-wal", error) || std::filesystem::exists(path + "-shm", error);
    sqlite3* db = open_file(path);
    auto prepared = db ? prepare(db, image) : std::variant<int64_t, Unusable>(Unusable{"cannot open it for writing", false});
    if (const auto* problem = std::get_if<Unusable>(&prepared)) {
        sqlite().close(db);
        if (!had_companions) remove_empty_companions(path);
        if (!problem->file_at_fault) return open_for_reading(path, image, problem->why, *key);
        // Not an index this gcfs can use (damaged, of another version): it
        // is a cache, so a new one replaces it.
        spdlog::warn("persistent index {} is not one this gcfs can use ({}); replacing it", path, problem->why);
        remove_index_files(path);
        db = open_file(path);
        prepared = db ? prepare(db, image) : std::variant<int64_t, Unusable>(Unusable{"cannot open it for writing", false});
        if (const auto* again = std::get_if<Unusable>(&prepared)) {
            spdlog::warn("persistent index {}: cannot make a new one ({}); mounting without it", path, again->why);
            sqlite().close(db);
            remove_index_files(path);
            return nullptr;
        }
    }
    return std::unique_ptr<IndexStore>(new IndexStore(path, db, std::get<int64_t>(prepared), false, *key, image));
}

std::unique_ptr<IndexStore> IndexStore::open_for_reading(const std::string& path, const ImageIdentity& image, const std::string& why,
                                                         const IndexKey& key) {
    std::error_code error;
    if (!std::filesystem::exists(path, error)) {
        spdlog::warn("persistent index {} cannot be made ({}); mounting without it", path, why);
        return nullptr;
    }
    sqlite3* db = open_read_only(path);
    const auto problem = db ? schema_problem(db) : std::optional<Unusable>(Unusable{"cannot open it", true});
    const int64_t id = db && !problem ? existing_image_row(db, image) : -1;
    if (id < 0) {
        spdlog::warn("persistent index {} cannot be written ({}) and {}; mounting without it, the file left as it is", path, why,
                     problem ? "cannot be read either (" + problem->why + ")" : std::string("holds nothing of this image"));
        sqlite().close(db);
        return nullptr;
    }
    spdlog::warn("persistent index {} cannot be written ({}); reading it only: what it holds is used, nothing new is saved", path, why);
    return std::unique_ptr<IndexStore>(new IndexStore(path, db, id, true, key, image));
}

IndexStore::IndexStore(std::string path, sqlite3* db, int64_t image_id, bool read_only, IndexKey key, const ImageIdentity& image)
    : path_(std::move(path)), db_(db), image_id_(image_id), read_only_(read_only), key_(key),
      identity_text_(fmt::format("{} {} {}", image.size, image.mtime_ns, image.toc_digest)) {}

IndexStore::~IndexStore() {
    sqlite().close(db_);
    if (damaged_) remove_index_files(path_);
}

uint64_t IndexStore::unmarked_records() const {
    std::lock_guard lock(mutex_);
    return unmarked_records_;
}

bool IndexStore::failed() const {
    std::lock_guard lock(mutex_);
    return failed_;
}

void IndexStore::failure(const char* doing) const {
    if (failed_) return;
    failed_ = true;
    const int code = sqlite().errcode(db_);
    damaged_ = code == SQLITE_CORRUPT || code == SQLITE_NOTADB;
    spdlog::warn("persistent index {}: {} failed ({}); going on without it{}", path_, doing, sqlite().errmsg(db_),
                 damaged_ ? ", and a new one replaces it at the next mount" : "");
}

std::optional<formats::Bytes> IndexStore::marked(const std::string& folder, const std::string& headers, formats::Bytes record,
                                                 const formats::Bytes& mac) const {
    if (mac == as_bytes(record_mac(folder, headers, record))) return record;
    ++unmarked_records_;
    spdlog::warn("persistent index {}: {}'s record does not carry this machine's key's mark (another machine's, or changed); {}", path_,
                 folder, read_only_ ? "not used" : "dropped, and made again");
    if (!read_only_) {
        Statement drop(db_, "DELETE FROM levels WHERE image = ?1 AND folder = ?2");
        drop.bind(1, image_id_).bind(2, folder);
        if (drop.step() != SQLITE_DONE) failure("dropping a level's record");
    }
    return std::nullopt;
}

std::optional<formats::Bytes> IndexStore::record(const std::string& folder, const std::string& headers) const {
    std::lock_guard lock(mutex_);
    if (failed_) return std::nullopt;
    Statement s(db_, "SELECT record, mac FROM levels WHERE image = ?1 AND folder = ?2 AND headers = ?3");
    s.bind(1, image_id_).bind(2, folder).bind(3, headers);
    const int rc = s.step();
    if (rc == SQLITE_ROW) return marked(folder, headers, s.blob(0), s.blob(1));
    if (rc != SQLITE_DONE) failure("reading a level's record");
    return std::nullopt;
}

std::map<std::string, IndexStore::SavedRecord> IndexStore::records() const {
    std::lock_guard lock(mutex_);
    std::map<std::string, SavedRecord> out;
    if (failed_) return out;
    std::vector<std::tuple<std::string, std::string, formats::Bytes, formats::Bytes>> rows;
    {
        Statement s(db_, "SELECT folder, headers, record, mac FROM levels WHERE image = ?1");
        s.bind(1, image_id_);
        int rc;
        while ((rc = s.step()) == SQLITE_ROW) rows.emplace_back(s.text(0), s.text(1), s.blob(2), s.blob(3));
        if (rc != SQLITE_DONE) {
            failure("reading the levels' records");
            return out;
        }
    }
    // Checked once the query is done: a record without its mark is deleted.
    for (auto& [folder, headers, record, mac] : rows)
        if (auto kept = marked(folder, headers, std::move(record), mac)) out[folder] = {headers, std::move(*kept)};
    return out;
}

void IndexStore::save_record(const std::string& folder, const std::string& headers, formats::ByteSpan record) {
    std::lock_guard lock(mutex_);
    if (failed_ || read_only_) return;
    bool ok = exec(db_, "BEGIN IMMEDIATE");
    {
        Statement stale(db_, "DELETE FROM restarts WHERE image = ?1 AND folder = ?2 AND headers <> ?3");
        stale.bind(1, image_id_).bind(2, folder).bind(3, headers);
        ok = ok && stale.step() == SQLITE_DONE;
        Statement put(db_, "INSERT OR REPLACE INTO levels(image, folder, headers, record, mac) VALUES(?1, ?2, ?3, ?4, ?5)");
        put.bind(1, image_id_).bind(2, folder).bind(3, headers).bind(4, record).bind(5, formats::ByteSpan(record_mac(folder, headers, record)));
        ok = ok && put.step() == SQLITE_DONE;
    }
    ok = ok && exec(db_, "COMMIT");
    if (!ok) {
        exec(db_, "ROLLBACK");
        failure("saving a level's record");
    }
}

std::vector<uint64_t> IndexStore::points(const std::string& folder, const std::string& headers) const {
    std::lock_guard lock(mutex_);
    std::vector<uint64_t> found;
    if (failed_) return found;
    Statement s(db_, "SELECT pos FROM restarts WHERE image = ?1 AND folder = ?2 AND headers = ?3 ORDER BY pos");
    s.bind(1, image_id_).bind(2, folder).bind(3, headers);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW)
        if (const int64_t pos = s.integer(0); pos > 0) found.push_back(static_cast<uint64_t>(pos));
    if (rc != SQLITE_DONE) {
        failure("reading restart points");
        found.clear();
    }
    return found;
}

namespace {

formats::ByteSpan text(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

}  // namespace

// What a record's and a point's mark covers: the image it was made for, the
// level, the headers it was made from, then its own fields.
IndexMac IndexStore::record_mac(const std::string& folder, const std::string& headers, formats::ByteSpan record) const {
    return key_.mac({text("gcfs index record"), text(identity_text_), text(folder), text(headers), record});
}

IndexMac IndexStore::point_mac(const std::string& folder, const std::string& headers, const SavedPoint& point) const {
    uint8_t fields[24];
    for (int k = 0; k < 8; ++k) {
        fields[k] = static_cast<uint8_t>(point.p >> (8 * k));
        fields[8 + k] = static_cast<uint8_t>(point.pos >> (8 * k));
        fields[16 + k] = static_cast<uint8_t>(point.check >> (8 * k));
    }
    return key_.mac({text("gcfs index restart point"), text(identity_text_), text(folder), text(headers), formats::ByteSpan(fields), point.history});
}

std::optional<IndexStore::SavedPoint> IndexStore::point(const std::string& folder, const std::string& headers, uint64_t pos) const {
    std::lock_guard lock(mutex_);
    if (failed_) return std::nullopt;
    Statement s(db_, "SELECT p, check_digest, mac, history FROM restarts WHERE image = ?1 AND folder = ?2 AND headers = ?3 AND pos = ?4");
    s.bind(1, image_id_).bind(2, folder).bind(3, headers).bind(4, static_cast<int64_t>(pos));
    const int rc = s.step();
    if (rc != SQLITE_ROW) {
        if (rc != SQLITE_DONE) failure("reading a restart point");
        return std::nullopt;
    }
    SavedPoint point{static_cast<uint64_t>(s.integer(0)), pos, static_cast<uint64_t>(s.integer(1)), s.blob(3)};
    if (s.blob(2) != as_bytes(point_mac(folder, headers, point))) {
        spdlog::warn("persistent index {}: {} restart point at decoded byte {} does not carry this machine's key's mark; {}", path_, folder, pos,
                     read_only_ ? "not used" : "dropped");
        if (!read_only_) delete_point(folder, headers, pos);
        return std::nullopt;
    }
    return point;
}

void IndexStore::save_point(const std::string& folder, const std::string& headers, const SavedPoint& point) {
    std::lock_guard lock(mutex_);
    if (failed_ || read_only_) return;
    Statement put(db_, "INSERT OR IGNORE INTO restarts(image, folder, headers, pos, p, check_digest, mac, history) "
                       "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    put.bind(1, image_id_).bind(2, folder).bind(3, headers).bind(4, static_cast<int64_t>(point.pos)).bind(5, static_cast<int64_t>(point.p));
    put.bind(6, static_cast<int64_t>(point.check)).bind(7, formats::ByteSpan(point_mac(folder, headers, point))).bind(8, point.history);
    if (put.step() != SQLITE_DONE) failure("saving a restart point");
}

void IndexStore::drop_point(const std::string& folder, const std::string& headers, uint64_t pos) {
    std::lock_guard lock(mutex_);
    if (failed_ || read_only_) return;
    delete_point(folder, headers, pos);
}

void IndexStore::delete_point(const std::string& folder, const std::string& headers, uint64_t pos) const {
    Statement drop(db_, "DELETE FROM restarts WHERE image = ?1 AND folder = ?2 AND headers = ?3 AND pos = ?4");
    drop.bind(1, image_id_).bind(2, folder).bind(3, headers).bind(4, static_cast<int64_t>(pos));
    if (drop.step() != SQLITE_DONE) failure("dropping a restart point");
}

}  // namespace gcfs::cache
