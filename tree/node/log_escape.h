// Log lines quote names and bytes from the disc, the persistent index and
// the edits folder, all untrusted: a newline there would split a line, an
// escape sequence reach a terminal. Every sink gcfs logs to sees the message
// with such bytes written as \xNN (tools/main.cpp and fs/mount.cpp wrap them).
#pragma once

#include <spdlog/sinks/sink.h>

#include <string>
#include <string_view>

namespace gcfs::tree {

// Control bytes (C0, DEL, and C1 U+0080-U+009F) and bytes that are not
// UTF-8 as \xNN; the rest as is (a message may escape its quotes itself).
std::string escape_log_text(std::string_view text);

// `inner`, seeing every message escaped.
spdlog::sink_ptr escaping_sink(spdlog::sink_ptr inner);

}  // namespace gcfs::tree
