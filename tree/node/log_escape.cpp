#include "tree/node/log_escape.h"

#include <fmt/format.h>

#include "formats/common/game_text.h"

namespace gcfs::tree {
namespace {

class EscapingSink final : public spdlog::sinks::sink {
public:
    explicit EscapingSink(spdlog::sink_ptr inner) : inner_(std::move(inner)) {}
    void log(const spdlog::details::log_msg& msg) override {
        const std::string escaped = escape_log_text({msg.payload.data(), msg.payload.size()});
        spdlog::details::log_msg copy = msg;
        copy.payload = escaped;
        inner_->log(copy);
    }
    void flush() override { inner_->flush(); }
    void set_pattern(const std::string& pattern) override { inner_->set_pattern(pattern); }
    void set_formatter(std::unique_ptr<spdlog::formatter> formatter) override { inner_->set_formatter(std::move(formatter)); }

private:
    spdlog::sink_ptr inner_;
};

}  // namespace

std::string escape_log_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t at = 0; at < text.size();) {
        const size_t start = at;
        const auto c = formats::next_utf8(text, at);
        if (!c) at = start + 1;  // not UTF-8: that byte is escaped
        const bool control = !c || *c < 0x20 || (*c >= 0x7F && *c < 0xA0);
        if (!control) out.append(text.substr(start, at - start));
        else
            for (size_t k = start; k < at; ++k) out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[k]));
    }
    return out;
}

spdlog::sink_ptr escaping_sink(spdlog::sink_ptr inner) { return std::make_shared<EscapingSink>(std::move(inner)); }

}  // namespace gcfs::tree
