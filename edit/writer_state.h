// Whether the process closing a draft was killed: the kernel closes a
// killed process's files as it exits, and that close looks like any other
// to a FUSE daemon. A draft closed that way may be cut anywhere, so it is
// never applied (README, Modding). Linux's /proc/<pid>/stat tells: field 9
// holds the task's flags (PF_EXITING, 0x4, while it exits) and field 52 its
// exit code, whose low seven bits are the signal that ended it (proc(5)).
#pragma once

#include <optional>
#include <sys/types.h>

namespace gcfs::edit {

// The signal that is ending `pid`, when it is exiting because of one.
std::optional<int> killing_signal(pid_t pid);

}  // namespace gcfs::edit
