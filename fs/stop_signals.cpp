#include "fs/stop_signals.h"

#include <pthread.h>

namespace gcfs::fs {

StopSignalsBlocked::StopSignalsBlocked() {
    sigset_t stops;
    sigemptyset(&stops);
    for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&stops, signal);
    pthread_sigmask(SIG_BLOCK, &stops, &before_);
}

StopSignalsBlocked::~StopSignalsBlocked() { pthread_sigmask(SIG_SETMASK, &before_, nullptr); }

}  // namespace gcfs::fs
