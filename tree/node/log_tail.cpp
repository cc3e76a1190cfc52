#include "tree/node/log_tail.h"

namespace gcfs::tree {

std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> log_tail() {
    static const auto sink = [] {
        auto s = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(kLogTailLines);
        s->set_pattern("%Y-%m-%d %H:%M:%S %l: %v");
        return s;
    }();
    return sink;
}

std::string log_tail_text() {
    std::string out;
    for (const std::string& line : log_tail()->last_formatted()) out += line.ends_with('\n') ? line : line + '\n';
    return out;
}

}  // namespace gcfs::tree
