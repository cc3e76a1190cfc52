// Keeps the signals that stop a mount away from the threads gcfs starts itself.
#pragma once

#include <signal.h>

namespace gcfs::fs {

// libfuse's handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT only marks the
// session as ended; the loop sees that when its own thread is interrupted.
// A stop taken by any other thread would leave the loop asleep until the next
// request. libfuse's workers block these signals for that reason
// (fuse_start_thread); threads started while one of these is alive inherit
// the same mask, so only the loop's thread takes a stop.
class StopSignalsBlocked {
public:
    StopSignalsBlocked();
    ~StopSignalsBlocked();
    StopSignalsBlocked(const StopSignalsBlocked&) = delete;
    StopSignalsBlocked& operator=(const StopSignalsBlocked&) = delete;

private:
    sigset_t before_;
};

}  // namespace gcfs::fs
