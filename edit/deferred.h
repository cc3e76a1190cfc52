// Decisions an edit session takes a moment after a close rather than at it:
// an editor's close is often followed at once by more of the same save (a
// second open that writes the file, a rename of its temporary), and only
// what is left when the save is over should be reported. Each task runs
// once on the timer's thread after its delay unless cancelled by its key
// first; flush() runs every task still waiting at once (unmount).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace gcfs::edit {

class Deferred {
public:
    explicit Deferred(std::chrono::milliseconds delay);
    ~Deferred();  // runs what is waiting, then stops
    // Schedules `task` under `key`, replacing a task already waiting under it.
    void schedule(const std::string& key, std::function<void()> task);
    void cancel(const std::string& key);
    void flush();

private:
    struct Task {
        std::chrono::steady_clock::time_point due;
        std::function<void()> run;
    };
    void loop();

    const std::chrono::milliseconds delay_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::map<std::string, Task> tasks_;
    bool stopping_ = false;
    // Started by the first task, not with the timer: a session is made before
    // the daemon forks (tools/cmd_mount.cpp) and a thread does not survive a
    // fork, so one started here would be missing from the daemon that serves.
    std::thread thread_;
};

}  // namespace gcfs::edit
