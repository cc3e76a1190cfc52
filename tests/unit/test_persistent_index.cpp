// The persistent index (cache/index_store.h, tree/index/persistent_index.h): its
// record format, its file, a second opening of an image listing level
// folders without decoding, what it refuses (changed headers, damaged
// records, a damaged file), and the WAD-LZ restart points it keeps.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "cache/index_store.h"
#include "disc_fixture.h"
#include "formats/saved_index/folder_record.h"
#include "formats/wad_lz/wad_lz.h"
#include "tree/index/index_ahead.h"
#include "tree/index/program_build.h"
#include "tree/index/persistent_index.h"
#include "tree/index/restart_points.h"

namespace test_persistent_index {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using formats::Bytes;
using formats::saved_index::FolderRecord;

namespace {

struct TempDir {
    std::string path;
    TempDir() {
        char pattern[] = "/tmp/gcfs-index-XXXXXX";
        path = ::mkdtemp(pattern);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

// Every entry under `folder`: path -> size (directories -1).
std::map<std::string, int64_t> listing(const tree::Disc& disc, const std::string& folder) {
    std::map<std::string, int64_t> found;
    std::vector<std::pair<uint64_t, std::string>> dirs = {{*disc.tree.resolve(folder), folder}};
    while (!dirs.empty()) {
        const uint64_t dir = dirs.back().first;
        const std::string path = dirs.back().second;  // not a structured binding: clang 14's lambdas cannot capture one
        dirs.pop_back();
        disc.tree.for_each_child(dir, 0, [&](const std::string& name, uint64_t ino, tree::NodeType type) {
            const std::string child = path + "/" + name;
            if (type == tree::NodeType::directory) dirs.emplace_back(ino, child);
            found[child] = type == tree::NodeType::file ? static_cast<int64_t>(disc.tree.node(ino)->source->size()) : -1;
            return true;
        });
    }
    return found;
}

std::unique_ptr<tree::Disc> open_with_index(const std::string& image, const std::string& dir) {
    auto disc = tree::open_disc(image, 256ull << 20);
    tree::use_persistent_index(*disc, dir);
    REQUIRE(disc->index);
    return disc;
}

// Sizes level `i`'s folder whole and saves its record, as a mount's helper does.
void size_and_save(tree::Disc& disc, size_t i) {
    const auto folder = *disc.tree.resolve(disc.scan.levels[i].folder);
    tree::size_every_file(disc.tree, folder);
    disc.index->save(disc.tree, folder, disc.level(i));
}

// A first opening of `image` that sizes LEVEL01 and saves it to the index in `dir`: its listing.
std::map<std::string, int64_t> first_opening(const std::string& image, const std::string& dir) {
    auto disc = open_with_index(image, dir);
    size_and_save(*disc, 1);
    CHECK(disc->cache->stats().misses > 0);
    return listing(*disc, "LEVEL01");
}

std::string copy_of(const std::string& image, const std::string& dir) {
    const std::string copy = dir + "/disc.iso";
    std::filesystem::copy_file(image, copy);
    return copy;
}

}  // namespace

TEST_CASE("a folder record writes and reads back, and a damaged one is refused with the reason") {
    FolderRecord record;
    record.files = {{"info.json", 1234}, {"tfrag/terrain.obj", 1ull << 40}};
    record.runs.push_back({"ties", 0, {"tie_500.obj", "tie_501.obj"}, {10, 20}});
    record.runs.push_back({"", 1, {}, {}});
    const Bytes blob = formats::saved_index::encode_record(record);
    auto back = formats::saved_index::decode_record(blob, 1ull << 41);
    REQUIRE_MESSAGE(back.ok(), back.error().describe());
    CHECK(back->files == record.files);
    REQUIRE(back->runs.size() == 2);
    CHECK(back->runs[0].names == record.runs[0].names);
    CHECK(back->runs[0].sizes == record.runs[0].sizes);
    CHECK(back->runs[1].ordinal == 1);

    auto refused = [](const Bytes& b) { return !formats::saved_index::decode_record(b, 1ull << 41).ok(); };
    Bytes bad = blob;
    bad[0] = 'X';
    CHECK(refused(bad));  // magic
    bad = blob;
    bad[4] = 2;
    CHECK(refused(bad));  // version
    bad = blob;
    bad[8] ^= 1;
    CHECK(refused(bad));  // CRC
    bad = blob;
    bad[12] = 0xff, bad[13] = 0xff, bad[14] = 0xff, bad[15] = 0x7f;
    CHECK(refused(bad));  // a plain size no deflated record of this length reaches
    CHECK(refused(Bytes(blob.begin(), blob.end() - 3)));  // truncated
    CHECK(refused(Bytes(blob.begin(), blob.begin() + 10)));

    // Sizes past what the level can decode to, or past INT64_MAX.
    for (uint64_t size : {uint64_t{(1ull << 41) + 1}, uint64_t{1} << 63, uint64_t{UINT64_MAX}}) {
        FolderRecord big;
        big.files["level.glb"] = size;
        CHECK(refused(formats::saved_index::encode_record(big)));
        big.files.clear();
        big.runs.push_back({"ties", 0, {"tie_500.obj"}, {size}});
        CHECK(refused(formats::saved_index::encode_record(big)));
    }
    // Names that would become path steps, and names the tree never makes: the disc-name
    // rules of tree/node/safe_name.h (printable ASCII, %XX escapes, at most 255 bytes).
    for (const std::string& name : {std::string(".."), std::string("."), std::string("a/b"), std::string("x\0y", 3), std::string(),
                                    std::string(256, 'a'), std::string(65000, 'n'), std::string("evil\nname\x1b[31m"), std::string("\xff\xfe"),
                                    std::string("100%"), std::string("%zz"), std::string("%2e"), std::string("tab\there")}) {
        FolderRecord evil;
        evil.runs.push_back({"ties", 0, {name}, {1}});
        CHECK(refused(formats::saved_index::encode_record(evil)));
    }
    for (const auto& path : {"../etc/passwd", "a//b", "/abs", "a/./b"}) {
        FolderRecord evil;
        evil.files[path] = 1;
        CHECK(refused(formats::saved_index::encode_record(evil)));
    }
    CHECK(formats::saved_index::is_entry_name("tie_500.obj"));
    CHECK(formats::saved_index::is_entry_name("..%2F..%2FPWNED1"));
    CHECK(formats::saved_index::is_entry_name(std::string(255, 'a')));
}

TEST_CASE("the index file keeps records and restart points per image and per level headers") {
    TempDir dir;
    const cache::ImageIdentity image{1000, 42, "toc-a"};
    {
        auto store = cache::IndexStore::open(dir.path, image);
        REQUIRE(store);
        store->save_record("LEVEL00", "h1", Bytes{1, 2, 3});
        const Bytes history(formats::wad_lz::kRestartHistory, 7);
        store->save_point("LEVEL00", "h1", {100, 3 << 20, 77, history});
        CHECK_FALSE(store->failed());
    }
    auto store = cache::IndexStore::open(dir.path, image);
    REQUIRE(store);
    CHECK(store->record("LEVEL00", "h1") == Bytes{1, 2, 3});
    CHECK_FALSE(store->record("LEVEL00", "h2"));  // other headers
    CHECK_FALSE(store->record("LEVEL01", "h1"));
    // All at once (a mount's read-ahead): each with the headers it was saved for.
    const auto all = store->records();
    REQUIRE(all.size() == 1);
    CHECK(all.at("LEVEL00").headers == "h1");
    CHECK(all.at("LEVEL00").record == Bytes{1, 2, 3});
    REQUIRE(store->points("LEVEL00", "h1") == std::vector<uint64_t>{3 << 20});
    const auto point = store->point("LEVEL00", "h1", 3 << 20);
    REQUIRE(point);
    CHECK(point->p == 100);
    CHECK(point->check == 77);
    CHECK(point->history.size() == formats::wad_lz::kRestartHistory);
    CHECK(store->points("LEVEL00", "h2").empty());
    // New headers for the level: its old record and points go.
    store->save_record("LEVEL00", "h2", Bytes{9});
    CHECK(store->points("LEVEL00", "h1").empty());
    CHECK(store->record("LEVEL00", "h2") == Bytes{9});
    for (const cache::ImageIdentity& other :
         {cache::ImageIdentity{1001, 42, "toc-a"}, cache::ImageIdentity{1000, 43, "toc-a"}, cache::ImageIdentity{1000, 42, "toc-b"}}) {
        auto elsewhere = cache::IndexStore::open(dir.path, other);
        REQUIRE(elsewhere);
        CHECK_FALSE(elsewhere->record("LEVEL00", "h2"));
    }
    store.reset();

    // Any field of a point changed in the file (its history, its cursor, its
    // check) fails the CRC-32 over all of them, and the point is not used.
    for (const char* change : {"UPDATE restarts SET history = zeroblob(49152)", "UPDATE restarts SET p = p + 1",
                               "UPDATE restarts SET check_digest = check_digest + 1"}) {
        CAPTURE(change);
        auto reopened = cache::IndexStore::open(dir.path, image);
        reopened->save_point("LEVEL00", "h2", {200, 4 << 20, 5, Bytes(formats::wad_lz::kRestartHistory, 1)});
        CHECK(reopened->point("LEVEL00", "h2", 4 << 20));
        reopened.reset();
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open((dir.path + "/index.sqlite").c_str(), &db) == SQLITE_OK);
        REQUIRE(sqlite3_exec(db, change, nullptr, nullptr, nullptr) == SQLITE_OK);
        sqlite3_close(db);
        auto damaged = cache::IndexStore::open(dir.path, image);
        CHECK_FALSE(damaged->point("LEVEL00", "h2", 4 << 20));
        damaged->drop_point("LEVEL00", "h2", 4 << 20);
        CHECK(damaged->points("LEVEL00", "h2").empty());
    }

    // A file that is no SQLite database is replaced by a new, empty index.
    std::ofstream(dir.path + "/index.sqlite", std::ios::trunc) << std::string(5000, 'x');
    std::filesystem::remove(dir.path + "/index.sqlite-wal");
    auto fresh = cache::IndexStore::open(dir.path, image);
    REQUIRE(fresh);
    CHECK_FALSE(fresh->record("LEVEL00", "h2"));
    fresh->save_record("LEVEL00", "h3", Bytes{4});
    CHECK(fresh->record("LEVEL00", "h3") == Bytes{4});
}

TEST_CASE("a mount whose image was marked used today opens the index without writing; an older mark is renewed") {
    TempDir dir;
    const cache::ImageIdentity image{1000, 42, "toc-a"};
    const std::string file = dir.path + "/index.sqlite";
    auto used = [&] {
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
        sqlite3_stmt* row = nullptr;
        REQUIRE(sqlite3_prepare_v2(db, "SELECT used FROM images", -1, &row, nullptr) == SQLITE_OK);
        REQUIRE(sqlite3_step(row) == SQLITE_ROW);
        const int64_t value = sqlite3_column_int64(row, 0);
        sqlite3_finalize(row);
        sqlite3_close(db);
        return value;
    };
    REQUIRE(cache::IndexStore::open(dir.path, image));  // the first mount writes the row
    const int64_t first = used();
    CHECK(first > 0);
    {
        auto again = cache::IndexStore::open(dir.path, image);
        REQUIRE(again);
        std::error_code error;
        CHECK(std::filesystem::file_size(file + "-wal", error) == 0);  // nothing logged: nothing written
    }
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, "UPDATE images SET used = used - 2 * 86400", nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    REQUIRE(cache::IndexStore::open(dir.path, image));
    CHECK(used() >= first);
}

TEST_CASE("a level folder saved to the persistent index lists again without a decode, the same, and reads the same bytes") {
    const BuiltDisc& built = small_disc();
    TempDir dir;
    const auto first = first_opening(built.path, dir.path);
    REQUIRE(first.size() > 100);
    auto disc = open_with_index(built.path, dir.path);
    CHECK(listing(*disc, "LEVEL01") == first);
    CHECK(disc->cache->stats().misses == 0);  // nothing decoded for names and sizes
    CHECK(disc->index->render().find("listed from it: 1") != std::string::npos);
    // The same with the records read ahead, as a mount does once it answers:
    // the folder is built from the record read then.
    {
        auto ahead = open_with_index(built.path, dir.path);
        ahead->index->read_ahead();
        // Gone from the file since (nothing later here needs it): the folder
        // comes from what was read ahead, not from another query.
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open((dir.path + "/index.sqlite").c_str(), &db) == SQLITE_OK);
        REQUIRE(sqlite3_exec(db, "DELETE FROM levels WHERE folder = 'LEVEL01'", nullptr, nullptr, nullptr) == SQLITE_OK);
        CHECK(listing(*ahead, "LEVEL01") == first);
        CHECK(ahead->cache->stats().misses == 0);
        CHECK(ahead->index->render().find("listed from it: 1") != std::string::npos);
        sqlite3_close(db);
    }
    // Sizing it whole again decodes nothing, and saving it again is skipped.
    size_and_save(*disc, 1);
    CHECK(disc->cache->stats().misses == 0);

    // Every file reads as the same bytes as without the index, at the size stat gave.
    auto plain = tree::open_disc(built.path, 256ull << 20);
    size_t files = 0;
    for (const auto& entry : first) {
        const std::string& path = entry.first;  // CAPTURE is a lambda: clang 14 cannot capture a structured binding
        if (entry.second < 0) continue;
        CAPTURE(path);
        CHECK(file_text(*disc, path) == file_text(*plain, path));
        ++files;
    }
    CHECK(files > 100);
    // A level never saved is built by decoding, as before.
    CHECK(listing(*disc, "LEVEL02") == listing(*plain, "LEVEL02"));
    CHECK(disc->cache->stats().misses > 0);
}

TEST_CASE("a level whose headers changed under the same size and modification time is decoded, not listed from the index") {
    const BuiltDisc& built = small_disc();
    TempDir dir;
    const std::string image = copy_of(built.path, dir.path);
    struct stat before {};
    REQUIRE(::stat(image.c_str(), &before) == 0);
    uint64_t byte = 0;
    {
        auto disc = open_with_index(image, dir.path + "/index");
        size_and_save(*disc, 1);
        size_and_save(*disc, 2);
        // The last byte of LEVEL02's container header sector (formats.md 3.1).
        byte = disc->level(2).file_offset + formats::kSectorSize - 1;
    }
    {
        std::fstream f(image, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(static_cast<std::streamoff>(byte));
        const char old = static_cast<char>(f.get());
        f.seekp(static_cast<std::streamoff>(byte));
        f.put(static_cast<char>(old ^ 0x5a));
    }
    const timespec times[2] = {before.st_atim, before.st_mtim};
    REQUIRE(::utimensat(AT_FDCWD, image.c_str(), times, 0) == 0);  // the same size and mtime
    auto disc = open_with_index(image, dir.path + "/index");
    INFO(disc->index->render());
    auto truth = tree::open_disc(image, 256ull << 20);
    CHECK(listing(*disc, "LEVEL01") == listing(*truth, "LEVEL01"));
    CHECK(disc->cache->stats().misses == 0);  // LEVEL01's headers did not change
    CHECK(listing(*disc, "LEVEL02") == listing(*truth, "LEVEL02"));
    CHECK(disc->cache->stats().misses > 0);  // LEVEL02's did: decoded
    CHECK(disc->index->render().find("listed from it: 1") != std::string::npos);
}

TEST_CASE("a damaged record is refused with one log line and the folder decoded; a damaged index file is replaced") {
    const BuiltDisc& built = small_disc();
    TempDir dir;
    const auto first = first_opening(built.path, dir.path);
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open((dir.path + "/index.sqlite").c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, "UPDATE levels SET record = substr(record, 1, 40)", nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    {
        auto disc = open_with_index(built.path, dir.path);
        CHECK(listing(*disc, "LEVEL01") == first);
        CHECK(disc->cache->stats().misses > 0);
        CHECK(disc->index->render().find("records refused (damaged, or without this machine's mark): 1") != std::string::npos);
    }
    // The file cut short: the mount goes on with a new index.
    std::filesystem::resize_file(dir.path + "/index.sqlite", 1000);
    std::filesystem::remove(dir.path + "/index.sqlite-wal");
    std::filesystem::remove(dir.path + "/index.sqlite-shm");
    auto disc = open_with_index(built.path, dir.path);
    CHECK(listing(*disc, "LEVEL01") == first);
}

namespace {

// A stream of 7 MB in a file, as a core lies in an image, and a window read
// through restart points checked against the data.
struct StreamInFile {
    Bytes data, stream;
    TempDir dir;
    std::unique_ptr<tree::Image> image;
    cache::ImageIdentity identity;
    StreamInFile() {
        std::mt19937 rng(5);
        while (data.size() < 7'000'000) {
            const size_t n = 1 + rng() % 4000;
            for (size_t i = 0; i < n; ++i) data.push_back(rng() % 3 == 0 ? static_cast<uint8_t>(rng()) : static_cast<uint8_t>(i % 9));
        }
        stream = formats::wad_lz::compress(data, "core");
        const std::string file = dir.path + "/stream.bin";
        std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(stream.data()), static_cast<std::streamsize>(stream.size()));
        image = std::make_unique<tree::Image>(file);
        identity = {stream.size(), image->mtime_ns(), "toc"};
    }
    tree::RestartPoints points(cache::LruCache& cache, bool saved) const {
        return {cache, saved ? cache::IndexStore::open(dir.path, identity) : nullptr, "LEVEL00", "h", stream.size(), data.size()};
    }
    void window(tree::RestartPoints& points, uint64_t from, uint64_t length) const {
        auto got = tree::decode_stream_window(*image, 0, stream.size(), from, length, data.size(), &points);
        REQUIRE_MESSAGE(got.ok(), got.error().describe());
        CHECK(Bytes((*got)->begin(), (*got)->end()) ==
              Bytes(data.begin() + static_cast<std::ptrdiff_t>(from), data.begin() + static_cast<std::ptrdiff_t>(from + length)));
    }
};

}  // namespace

TEST_CASE("restart points: a window far into a stream starts at the nearest point, from the cache or the index file") {
    const StreamInFile s;
    const Bytes& data = s.data;
    auto window = [&](tree::RestartPoints& points, uint64_t from, uint64_t length) { s.window(points, from, length); };
    const uint64_t end = data.size() - 4096;
    {
        cache::LruCache cache(64ull << 20);
        tree::RestartPoints points = s.points(cache, true);
        window(points, end, 4096);
        // One point per 2 MiB stretch the walk crossed (the first at 1 MiB
        // and more), and the window's own: the packet that decodes the first
        // byte of its lead, at most one largest packet (§5.2: 288 + 3 bytes) before it.
        const uint64_t lead_start = end - formats::wad_lz::kWindowLead;
        CHECK(points.known() == lead_start / tree::RestartPoints::kSpacing + 2);
        const auto start = points.before(end);
        REQUIRE(start);
        CHECK(start->point.pos <= lead_start);
        CHECK(lead_start - start->point.pos < 288 + 3);
        // The same window again starts at its own point: nothing walked before its lead.
        const uint64_t walked = tree::window_walk_bytes();
        window(points, end, 4096);
        CHECK(tree::window_walk_bytes() == walked);
        window(points, 3'000'000, 70000);  // an earlier one, from a point of the stretches'
        CHECK(tree::window_walk_bytes() > walked);
        CHECK_FALSE(points.before(100'000));  // before the first point: the head
    }
    // A new cache and the index file: the points come back from it.
    cache::LruCache cache(64ull << 20);
    tree::RestartPoints saved = s.points(cache, true);
    CHECK(saved.known() >= 3);
    const auto start = saved.before(end);
    REQUIRE(start);
    CHECK(Bytes(start->point.history.begin(), start->point.history.end()) ==
          Bytes(data.begin() + static_cast<std::ptrdiff_t>(start->point.pos - formats::wad_lz::kRestartHistory),
                data.begin() + static_cast<std::ptrdiff_t>(start->point.pos)));
    window(saved, end, 4096);
    // Without an index file, a point whose history the cache let go is
    // forgotten, not misused: a cache of one byte keeps only the last.
    cache::LruCache tiny(1);
    tree::RestartPoints unsaved = s.points(tiny, false);
    window(unsaved, end, 4096);
    const uint64_t made = unsaved.known();
    CHECK(made >= 3);
    CHECK_FALSE(unsaved.before(3'000'000));  // the points before it were evicted
    CHECK(unsaved.known() < made);
    CHECK(unsaved.before(end));  // the last one is still cached
    window(unsaved, end, 4096);
}

TEST_CASE("a saved restart point that lies is not believed: the window reads as from the head, the point is dropped") {
    const StreamInFile s;
    const uint64_t end = s.data.size() - 4096;
    {
        cache::LruCache cache(64ull << 20);
        tree::RestartPoints points = s.points(cache, true);
        s.window(points, end, 4096);
    }
    // The point a window at `end` resumes from, whole, as the index holds it.
    auto store = cache::IndexStore::open(s.dir.path, s.identity);
    const uint64_t pos = [&] {
        cache::LruCache cache(64ull << 20);
        return s.points(cache, true).before(end)->point.pos;
    }();
    std::vector<cache::IndexStore::SavedPoint> saved;
    for (uint64_t at : store->points("LEVEL00", "h")) saved.push_back(*store->point("LEVEL00", "h", at));
    const cache::IndexStore::SavedPoint truth = *store->point("LEVEL00", "h", pos);
    // Each forgery is saved through the store, so its CRC-32 is right, as if whoever
    // changed the file computed it again: only the bounds and the check can tell.
    // A history byte no match reaches changes no output: such a point decodes right
    // and may stay. Every other forgery must go.
    using Forge = std::function<void(cache::IndexStore::SavedPoint&)>;
    struct Forgery {
        const char* name;
        Forge forge;
        bool may_stay;
    };
    const std::vector<Forgery> forgeries = {
        {"cursor + 1", [](auto& f) { f.p += 1; }, false},
        {"cursor - 1", [](auto& f) { f.p -= 1; }, false},
        {"cursor at a later packet", [](auto& f) { f.p += 1000; }, false},
        {"cursor past the stream", [&](auto& f) { f.p = s.stream.size() + 5; }, false},
        {"cursor at 2^62", [](auto& f) { f.p = uint64_t{1} << 62; }, false},
        {"position + 1", [](auto& f) { f.pos += 1; }, false},
        {"position - 4096", [](auto& f) { f.pos -= 4096; }, false},
        {"a history byte flipped", [](auto& f) { f.history[100] ^= 0x20; }, true},
        {"the history's last bytes changed", [](auto& f) { for (size_t k = 1; k <= 64; ++k) f.history[f.history.size() - k] ^= 0x55; }, false},
        {"the check flipped", [](auto& f) { f.check ^= 1; }, false},
        {"the check zeroed", [](auto& f) { f.check = 0; }, false},
        {"a short history", [](auto& f) { f.history.resize(100); }, false},
    };
    for (const auto& [name, forge, may_stay] : forgeries) {
        const std::string what = name;
        CAPTURE(what);
        // The index as the first walk left it, but for the one forged point.
        for (uint64_t at : store->points("LEVEL00", "h")) store->drop_point("LEVEL00", "h", at);
        cache::IndexStore::SavedPoint forged = truth;
        forge(forged);
        for (const auto& point : saved) store->save_point("LEVEL00", "h", point.pos == truth.pos ? forged : point);
        cache::LruCache cache(64ull << 20);
        tree::RestartPoints points = s.points(cache, true);
        s.window(points, end, 4096);  // right bytes, whatever the point said
        s.window(points, end, 4096);  // and again, with what the first walk left
        // The forged point is gone: whatever the index holds at its place now, the walks saved.
        const auto left = store->points("LEVEL00", "h");
        CHECK(left.size() >= saved.size() - 1);
        for (uint64_t at : left) {
            const auto point = store->point("LEVEL00", "h", at);
            REQUIRE(point);
            if (!may_stay) CHECK_FALSE((point->p == forged.p && point->pos == forged.pos && point->check == forged.check && point->history == forged.history));
        }
    }
}

TEST_CASE("a damaged stream costs one walk: the failing byte is remembered, windows before it still decode, windows past it fail at once") {
    StreamInFile s;
    // 4 KiB zeroed in the middle of the compressed stream.
    Bytes damaged = s.stream;
    std::fill_n(damaged.begin() + static_cast<std::ptrdiff_t>(damaged.size() / 2), 4096, 0);
    const std::string file = s.dir.path + "/damaged.bin";
    std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(damaged.data()), static_cast<std::streamsize>(damaged.size()));
    tree::Image image(file);
    cache::LruCache cache(64ull << 20);
    tree::RestartPoints points = s.points(cache, false);
    auto window = [&](uint64_t from, uint64_t length) { return tree::decode_stream_window(image, 0, damaged.size(), from, length, s.data.size(), &points); };
    const uint64_t end = s.data.size() - 4096;
    CHECK_FALSE(points.fails(end + 4096));
    const auto first = window(end, 4096);
    REQUIRE_FALSE(first.ok());
    // Remembered: where the walk failed, and why.
    const auto known = points.fails(end + 4096);
    REQUIRE(known);
    CHECK(known->describe() == first.error().describe());
    // A window early in the stream is before the damage: it decodes, and is right.
    const auto early = window(100'000, 4096);
    REQUIRE(early.ok());
    CHECK(Bytes((*early)->begin(), (*early)->end()) == Bytes(s.data.begin() + 100'000, s.data.begin() + 104'096));
    CHECK_FALSE(points.fails(104'096));
    // Past the damage, at once and alike, wherever the window starts.
    const auto again = window(end - 2'000'000, 4096);
    REQUIRE_FALSE(again.ok());
    CHECK(again.error().describe() == first.error().describe());
}

TEST_CASE("the index's key names the running build: its GNU build ID, which the linker writes") {
    const std::string& build = gcfs::tree::program_build();
    REQUIRE(build.size() >= 16);
    CHECK(build.find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(build.size() % 2 == 0);
}

TEST_CASE("the index's key: records made under another key (another machine's index) are dropped and made again; a FIFO as the key is refused") {
    const BuiltDisc& built = small_disc();
    TempDir dir, state_a, state_b;
    const char* before = std::getenv("XDG_STATE_HOME");
    const std::string kept = before ? before : "";
    ::setenv("XDG_STATE_HOME", state_a.path.c_str(), 1);
    const auto first = first_opening(built.path, dir.path);
    {
        auto same = open_with_index(built.path, dir.path);
        CHECK(listing(*same, "LEVEL01") == first);
        CHECK(same->cache->stats().misses == 0);  // the record, under its own key, is used
    }
    CHECK(std::filesystem::status(state_a.path + "/gcfs/index.key").permissions() == std::filesystem::perms(0600));
    ::setenv("XDG_STATE_HOME", state_b.path.c_str(), 1);  // another machine: another key
    {
        auto other = open_with_index(built.path, dir.path);
        other->index->read_ahead();  // the mark is held to it when read ahead too
        CHECK(listing(*other, "LEVEL01") == first);
        CHECK(other->cache->stats().misses > 0);  // decoded again, not answered from the index
        CHECK(other->index->render().find("without this machine's mark): 1") != std::string::npos);
    }
    // A FIFO where the key lies: no index, and no hang.
    std::filesystem::remove(state_b.path + "/gcfs/index.key");
    REQUIRE(::mkfifo((state_b.path + "/gcfs/index.key").c_str(), 0600) == 0);
    {
        auto fifo = tree::open_disc(built.path, 256ull << 20);
        tree::use_persistent_index(*fifo, dir.path);
        CHECK(fifo->index->store() == nullptr);
    }
    if (before) ::setenv("XDG_STATE_HOME", kept.c_str(), 1);
    else ::unsetenv("XDG_STATE_HOME");
}

}  // namespace test_persistent_index
