// Mounting: option handling, mountpoint checks, the session and its loop.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fs/served.h"

namespace gcfs::fs {

struct MountOptions {
    std::string image;
    std::string mountpoint;
    bool foreground = false;
    bool debug = false;
    uint64_t cache_bytes = 512ull << 20;
    bool xattrs = true;  // -o noxattr turns the user.gcfs.* attributes off
    bool index_ahead = true;  // -o noindexahead: no level is sized before it is listed (tree/index/index_ahead.h)
    // -o noindex: no persistent index; -o index_dir=DIR: where it is kept
    // (default cache::IndexStore::default_dir(), never beside the image).
    bool persistent_index = true;
    std::string index_dir;
    std::string edits_dir;  // -o edits=DIR: writable for what gcfs encodes (edit/session.h); empty: read-only
    std::vector<std::string> mods_dirs;  // -o mods=A:B: edits folders stacked under it, only read (edit/mods/mod_stack.h)
    std::string log_file;   // -o log=FILE: every log line appended there too (the tail is in .gcfs/log)
    std::vector<std::string> fuse_options;  // passed through to libfuse (allow_other, ...)
};

// Parses one "-o" argument list ("cache_size=256M,allow_other"), moving what
// gcfs understands into `options` and the rest into fuse_options.
// Returns an error message, empty on success.
std::string apply_o_option(const std::string& list, MountOptions& options);
// "512M", "1G", "65536", "64K" -> bytes; false if malformed.
bool parse_size(const std::string& text, uint64_t& bytes);

// Why the mountpoint cannot be used, or empty when it can.
std::string mountpoint_problem(const std::string& mountpoint);

// Mounts the opened disc, serves until unmounted or signalled. Returns the
// process exit code; errors are printed as one line on stderr.
int run_mount(const MountOptions& options, Served& served);

}  // namespace gcfs::fs
