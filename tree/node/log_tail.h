// The last lines the program logged, kept in memory for .gcfs/log: the
// line the README points at for every EIO is there even on a machine with
// no syslog to keep it (tools/main.cpp and fs/mount.cpp add it to every logger).
#pragma once

#include <spdlog/sinks/ringbuffer_sink.h>

#include <memory>
#include <string>

namespace gcfs::tree {

constexpr size_t kLogTailLines = 500;
// With its own pattern: date and time, level, message.
std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> log_tail();
std::string log_tail_text();  // one line each, oldest first

}  // namespace gcfs::tree
