// Maps the daemon's own program text and read-only data page by page on a
// thread of its own, once mounted.
#pragma once

#include <thread>

namespace gcfs::fs {

// The first lookup, stat or read of each kind of file runs code nothing has
// run before: from a cold page cache each such first operation used to wait
// on a few of the program's 2.2 MB of text being read from disk (5 major
// faults, about 3 of the 9.5 ms of a first patch OBJ read, measured). Pages
// mapped here stay resident while the daemon runs. Join the returned thread
// before exit.
std::thread map_program_in_background();

}  // namespace gcfs::fs
