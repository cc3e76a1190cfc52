#include "edit/writer_state.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace gcfs::edit {

std::optional<int> killing_signal(pid_t pid) {
    if (pid <= 0) return std::nullopt;
    std::ifstream in(fmt::format("/proc/{}/stat", pid));
    std::string text;
    if (!std::getline(in, text)) return std::nullopt;
    // The command name (field 2) may hold spaces and parentheses: fields count from the last ')'.
    const size_t close = text.rfind(')');
    if (close == std::string::npos) return std::nullopt;
    std::istringstream rest(text.substr(close + 1));
    std::vector<std::string> fields{"pid", "comm"};
    for (std::string f; rest >> f;) fields.push_back(f);
    if (fields.size() < 52) return std::nullopt;
    constexpr unsigned long kExiting = 0x4;  // PF_EXITING, include/linux/sched.h
    const unsigned long flags = std::stoul(fields[8]);
    const long exit_code = std::stol(fields[51]);
    if (!(flags & kExiting) || (exit_code & 0x7f) == 0) return std::nullopt;
    return static_cast<int>(exit_code & 0x7f);
}

}  // namespace gcfs::edit
