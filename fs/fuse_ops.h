// libfuse3 low-level operations over the virtual tree. Thin: every answer
// comes from tree::Node; every write operation is EROFS, or with -o edits
// forwarded to the edit session (fs/edit_ops.h).
#pragma once

#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>

#include "fs/served.h"

namespace gcfs::fs {

// The ops table; userdata passed to fuse_session_new must be a Served*.
// Without `xattrs` the user.gcfs.* attributes are off and the kernel stops
// asking after the first request; with them, names outside user.* (POSIX
// ACLs, SELinux labels) answer EOPNOTSUPP, so `ls -l` stops asking after the
// first file it meets.
const fuse_lowlevel_ops& operations(bool xattrs);

// The largest read under -o edits, where reads bypass the page cache (each
// open file keeps its generation): a 1 MiB direct read's reply and header do
// not fit the 1 MiB pipe splice may use (/proc/sys/fs/pipe-max-size), and
// libfuse's copying fallback read edited.iso at 0.3 GB/s against 3 GB/s
// for 512 KiB requests (dd of the full-scale disc's edited.iso, cold).
constexpr uint32_t kEditMaxRead = 512u << 10;

}  // namespace gcfs::fs
