#include "fs/mount.h"

#include <dirent.h>
#include <malloc.h>
#include <fmt/format.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/syslog_sink.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include "fs/fuse_ops.h"
#include "fs/memory_trim.h"
#include "fs/resident_program.h"
#include "fs/stop_signals.h"
#include "tree/node/log_escape.h"
#include "tree/node/log_tail.h"

namespace gcfs::fs {

bool parse_size(const std::string& text, uint64_t& bytes) {
    // stoull would take "-5" as 2^64 - 5 and " 5" as 5: a size starts with a digit.
    if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return false;
    size_t used = 0;
    unsigned long long value;
    try {
        value = std::stoull(text, &used);
    } catch (const std::exception&) {
        return false;
    }
    const std::string suffix = text.substr(used);
    uint64_t scale = 1;
    if (suffix == "K" || suffix == "k" || suffix == "KiB") scale = 1ull << 10;
    else if (suffix == "M" || suffix == "m" || suffix == "MiB") scale = 1ull << 20;
    else if (suffix == "G" || suffix == "g" || suffix == "GiB") scale = 1ull << 30;
    else if (!suffix.empty()) return false;
    if (value > UINT64_MAX / scale) return false;
    bytes = value * scale;
    return true;
}

namespace {

uint64_t physical_memory() {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}

// index_dir=DIR, edits=DIR, log=FILE: each made absolute here, from the
// directory gcfs was started in, since the daemon leaves it.
struct PathOption {
    std::string key, value, error;
};
std::optional<PathOption> path_option(const std::string& item) {
    for (const auto& [key, what] : {std::pair{"index_dir", "folder"}, std::pair{"edits", "folder"}, std::pair{"log", "file"}}) {
        const std::string prefix = std::string(key) + "=";
        if (item.rfind(prefix, 0) != 0) continue;
        PathOption o{key, item.substr(prefix.size()), {}};
        if (o.value.empty()) {
            o.error = fmt::format("bad {}: an empty path\nusage: gcfs mount IMAGE MOUNTPOINT -o {}=path/to/{}", key, key, what);
            return o;
        }
        std::error_code error;
        const auto absolute = std::filesystem::absolute(o.value, error);
        if (error) o.error = fmt::format("bad {} '{}': {}", key, o.value, error.message());
        else o.value = absolute.lexically_normal().string();
        return o;
    }
    return std::nullopt;
}

}  // namespace

std::string apply_o_option(const std::string& list, MountOptions& options) {
    size_t start = 0;
    while (start <= list.size()) {
        const size_t comma = list.find(',', start);
        const std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.rfind("cache_size=", 0) == 0) {
            if (!parse_size(item.substr(11), options.cache_bytes) || options.cache_bytes == 0)
                return fmt::format("bad cache_size '{}': a positive byte count, K, M or G after it\n"
                                   "usage: gcfs mount IMAGE MOUNTPOINT -o cache_size=SIZE   (e.g. 256M; default 512M)",
                                   item.substr(11));
            if (const uint64_t memory = physical_memory(); memory && options.cache_bytes > memory)
                fmt::print(stderr, "gcfs: warning: cache_size {} bytes is more than this machine's {} bytes of memory\n",
                           options.cache_bytes, memory);
        } else if (item == "debug") {
            options.debug = true;
        } else if (item == "noxattr") {
            options.xattrs = false;
        } else if (item == "noindexahead") {
            options.index_ahead = false;
        } else if (item == "noindex") {
            options.persistent_index = false;
        } else if (item.rfind("mods=", 0) == 0) {
            // Folders joined by ':' (a ',' ends the -o item), each made absolute.
            options.mods_dirs.clear();
            for (size_t at = 5; at <= item.size();) {
                const size_t colon = std::min(item.find(':', at), item.size());
                const std::string folder = item.substr(at, colon - at);
                const auto path = path_option("edits=" + folder);
                if (folder.empty() || !path->error.empty())
                    return fmt::format("bad mods '{}': {}\nusage: gcfs mount IMAGE MOUNTPOINT -o mods=MOD1:MOD2[,edits=DIR]", item.substr(5),
                                       folder.empty() ? "an empty folder name" : path->error);
                options.mods_dirs.push_back(path->value);
                at = colon + 1;
            }
        } else if (const auto path = path_option(item)) {
            if (!path->error.empty()) return path->error;
            (path->key == "index_dir" ? options.index_dir : path->key == "edits" ? options.edits_dir : options.log_file) = path->value;
        } else if (item == "rw") {
            return "gcfs mounts read-only: -o rw is not supported (-o edits=DIR makes what gcfs can encode writable, and keeps "
                   "the image untouched)";
        } else if (!item.empty()) {
            options.fuse_options.push_back(item);
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return {};
}

namespace {

constexpr uint32_t kFuseSuperMagic = 0x65735546;  // linux/magic.h FUSE_SUPER_MAGIC

// A FUSE daemon that died leaves its mount behind: every access is ENOTCONN.
std::string access_problem(const std::string& mountpoint, int error) {
    if (error == ENOTCONN)
        return fmt::format("mountpoint {} is a stale FUSE mount (Transport endpoint is not connected); "
                           "clear it with: fusermount3 -u {}", mountpoint, mountpoint);
    return fmt::format("mountpoint {}: {}", mountpoint, std::strerror(error));
}

}  // namespace

std::string mountpoint_problem(const std::string& mountpoint) {
    struct stat st {};
    if (::stat(mountpoint.c_str(), &st) != 0) return access_problem(mountpoint, errno);
    if (!S_ISDIR(st.st_mode)) return fmt::format("mountpoint {} is not a directory", mountpoint);
    // A live FUSE mount (gcfs's own, say) is named as one, not just "not empty".
    if (struct statfs fs {}; ::statfs(mountpoint.c_str(), &fs) == 0 && static_cast<uint32_t>(fs.f_type) == kFuseSuperMagic)
        return fmt::format("mountpoint {} is already a FUSE mount (a gcfs mount?); unmount it first: fusermount3 -u {}", mountpoint,
                           mountpoint);
    DIR* dir = ::opendir(mountpoint.c_str());
    if (!dir) return access_problem(mountpoint, errno);
    bool empty = true;
    while (const dirent* e = ::readdir(dir)) {
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) {
            empty = false;
            break;
        }
    }
    ::closedir(dir);
    if (!empty) return fmt::format("mountpoint {} is not empty", mountpoint);
    return {};
}

namespace {

struct Session {
    fuse_session* se = nullptr;
    bool mounted = false;
    bool signals = false;
    ~Session() {
        if (!se) return;
        if (signals) fuse_remove_signal_handlers(se);
        if (mounted) fuse_session_unmount(se);
        fuse_session_destroy(se);
    }
};

// The daemon's worker threads each build indexes and scenes from many small
// allocations, then free them. glibc's defaults keep what they freed: an arena
// per thread (up to 8 per core) and a trim threshold that grows with the
// largest block freed. Measured on a first `ls -lR` of the full-scale disc:
// peak RSS 101-123 MiB with the defaults, 73 MiB with these (the cache's own
// buffers are mapped apart from malloc and unaffected).
void keep_heap_small() {
    mallopt(M_ARENA_MAX, 2);
    mallopt(M_MMAP_THRESHOLD, 256 << 10);  // fixed: no growth with what is freed
    mallopt(M_TRIM_THRESHOLD, 1 << 20);
}

}  // namespace

int run_mount(const MountOptions& given, Served& served) {
    const auto held = served.disc();
    tree::Disc& disc = *held;
    if (given.debug) spdlog::set_level(spdlog::level::debug);
    keep_heap_small();
    // Resolved once: the daemon leaves its working directory (libfuse's
    // fuse_daemonize changes to "/"), and a relative path would then unmount
    // nothing when a signal stops it.
    MountOptions options = given;
    if (char* absolute = ::realpath(given.mountpoint.c_str(), nullptr)) {
        options.mountpoint = absolute;
        std::free(absolute);
    }

    const std::string mode = served.session ? "rw" : "ro";
    std::vector<std::string> args = {"gcfs", "-o", mode + ",default_permissions,fsname=gcfs:" + options.image + ",subtype=gcfs"};
    if (served.session) args.insert(args.end(), {"-o", fmt::format("max_read={}", kEditMaxRead)});
    for (const auto& o : options.fuse_options) {
        args.push_back("-o");
        args.push_back(o);
    }
    if (options.debug) args.push_back("-d");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    fuse_args fargs = FUSE_ARGS_INIT(static_cast<int>(argv.size()), argv.data());

    Session session;
    session.se = fuse_session_new(&fargs, &operations(options.xattrs), sizeof(fuse_lowlevel_ops), &served);
    if (!session.se) {
        fmt::print(stderr, "gcfs: libfuse rejected the options (see above)\n");
        return 5;
    }
    if (fuse_set_signal_handlers(session.se) != 0) {
        fmt::print(stderr, "gcfs: cannot install signal handlers\n");
        return 5;
    }
    session.signals = true;
    if (fuse_session_mount(session.se, options.mountpoint.c_str()) != 0) {
        fmt::print(stderr, "gcfs: cannot mount on {} (is /dev/fuse available and are you allowed to use it?)\n",
                   options.mountpoint);
        return 6;
    }
    session.mounted = true;
    // A daemon logs to syslog, in the foreground to stderr; both keep the
    // tail .gcfs/log shows, and -o log=FILE appends every line to FILE too.
    {
        std::vector<spdlog::sink_ptr> sinks = spdlog::default_logger()->sinks();
        if (!options.foreground)
            sinks = {tree::escaping_sink(std::make_shared<spdlog::sinks::syslog_sink_mt>("gcfs", LOG_PID, LOG_USER, false)),
                     tree::escaping_sink(tree::log_tail())};
        if (!options.log_file.empty()) {
            try {
                auto file = std::make_shared<spdlog::sinks::basic_file_sink_mt>(options.log_file);
                file->set_pattern("%Y-%m-%d %H:%M:%S %l: %v");
                sinks.push_back(tree::escaping_sink(file));
            } catch (const spdlog::spdlog_ex& e) {
                fmt::print(stderr, "gcfs: -o log={}: {}\n", options.log_file, e.what());
            }
        }
        auto logger = std::make_shared<spdlog::logger>("gcfs-daemon", sinks.begin(), sinks.end());
        logger->set_level(spdlog::default_logger()->level());
        logger->flush_on(spdlog::level::info);  // each line reaches FILE as it is logged
        spdlog::set_default_logger(logger);
    }
    spdlog::info("mounted {} on {}: {} levels, {} nodes, cache {} bytes", options.image, options.mountpoint,
                 disc.scan.levels.size(), disc.tree.size(), options.cache_bytes);
    if (fuse_daemonize(options.foreground ? 1 : 0) != 0) return 7;
    if (served.session) served.session->daemonized();  // the edits folder's lock names the daemon

    std::thread mapping;
    std::thread opening_index;  // none without an index (-o noindex, an edit session)
    std::optional<MemoryTrimmer> trimmer;
    {
        const StopSignalsBlocked stops_to_the_loop;  // for the threads started here
        mapping = map_program_in_background();  // after daemonising: threads do not survive the fork
        // After daemonising too: SQLite's file locks belong to the process that took them.
        // An edit session's generations are new images each: they are neither
        // kept in the persistent index nor sized ahead (README, Modding).
        if (options.persistent_index && !served.session) tree::use_persistent_index(disc, options.index_dir);
        // The index file opened, and every level's record read, beside the first
        // answers rather than by the first lookup in a level folder, which waited
        // on SQLite's code being paged in and the file being read: about 1.5 of
        // its 6 ms from a cold page cache (issue 43), and the record's own read
        // after that (issue 58).
        if (disc.index) opening_index = std::thread([&disc] { disc.index->read_ahead(); });
        trimmer.emplace(*disc.cache);
    }
    if (options.index_ahead && !served.session) disc.start_index_ahead();  // its thread starts with the first level listing
    fuse_loop_config* config = fuse_loop_cfg_create();
    fuse_loop_cfg_set_max_threads(config, 16);
    fuse_loop_cfg_set_idle_threads(config, 4);
    const int loop = fuse_session_loop_mt(session.se, config);
    fuse_loop_cfg_destroy(config);
    mapping.join();
    if (opening_index.joinable()) opening_index.join();
    spdlog::info("unmounting {}", options.mountpoint);
    // libfuse's signal handler ends the loop with the signal's number: a stop
    // asked for (SIGINT, SIGTERM, SIGHUP) is a clean end, as an unmount is.
    const bool asked = loop == 0 || loop == SIGINT || loop == SIGTERM || loop == SIGHUP;
    return asked ? 0 : 8;
}

}  // namespace gcfs::fs
