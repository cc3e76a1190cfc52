#include "edit/deferred.h"

#include <spdlog/spdlog.h>

#include <exception>
#include <vector>

namespace gcfs::edit {

Deferred::Deferred(std::chrono::milliseconds delay) : delay_(delay) {}

Deferred::~Deferred() {
    flush();
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void Deferred::schedule(const std::string& key, std::function<void()> task) {
    {
        std::lock_guard lock(mutex_);
        tasks_[key] = Task{std::chrono::steady_clock::now() + delay_, std::move(task)};
        if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
    }
    wake_.notify_all();
}

void Deferred::cancel(const std::string& key) {
    std::lock_guard lock(mutex_);
    tasks_.erase(key);
}

void Deferred::flush() {
    std::map<std::string, Task> due;
    {
        std::lock_guard lock(mutex_);
        due.swap(tasks_);
    }
    for (auto& [key, task] : due) {
        try {
            task.run();
        } catch (const std::exception& e) {
            spdlog::warn("a deferred edit decision failed: {}", e.what());
        }
    }
}

void Deferred::loop() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        if (tasks_.empty()) {
            wake_.wait(lock);
            continue;
        }
        auto first = tasks_.begin();
        for (auto it = tasks_.begin(); it != tasks_.end(); ++it)
            if (it->second.due < first->second.due) first = it;
        if (std::chrono::steady_clock::now() < first->second.due) {
            wake_.wait_until(lock, first->second.due);
            continue;
        }
        auto run = std::move(first->second.run);
        tasks_.erase(first);
        lock.unlock();  // a task takes the session's locks: never under this one
        try {
            run();
        } catch (const std::exception& e) {
            spdlog::warn("a deferred edit decision failed: {}", e.what());
        }
        lock.lock();
    }
}

}  // namespace gcfs::edit
