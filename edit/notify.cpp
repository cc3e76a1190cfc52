#include "edit/notify.h"

#include <spdlog/spdlog.h>
#include <systemd/sd-bus.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "formats/common/late_library.h"

namespace gcfs::edit {
namespace {

struct SdBus {
    formats::LateLibrary library{"libsystemd.so.0"};
    GCFS_LATE_FUNCTION(open_user, sd_bus_open_user);
    GCFS_LATE_FUNCTION(call_method, sd_bus_call_method);
    GCFS_LATE_FUNCTION(error_free, sd_bus_error_free);
    GCFS_LATE_FUNCTION(message_unref, sd_bus_message_unref);
    GCFS_LATE_FUNCTION(flush_close_unref, sd_bus_flush_close_unref);
};

}  // namespace

namespace {

void send(const std::string& summary, const std::string& body) {
    static std::mutex one_at_a_time;
    std::lock_guard lock(one_at_a_time);
    const SdBus& bus = formats::late_table<SdBus>();
    if (!bus.library.error().empty()) {
        spdlog::debug("no desktop notification: {}", bus.library.error());
        return;
    }
    sd_bus* connection = nullptr;
    if (const int r = bus.open_user(&connection); r < 0) {
        spdlog::debug("no desktop notification: no session bus ({})", r);
        return;
    }
    sd_bus_error error{};  // SD_BUS_ERROR_NULL, spelled out: its compound literal is not C++
    sd_bus_message* reply = nullptr;
    // Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout)
    const int r = bus.call_method(connection, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                  "org.freedesktop.Notifications", "Notify", &error, &reply, "susssasa{sv}i", "gcfs", 0u,
                                  "dialog-warning", summary.c_str(), body.c_str(), 0, 0, -1);
    if (r < 0) spdlog::debug("no desktop notification: {}", error.message ? error.message : "the call failed");
    bus.error_free(&error);
    bus.message_unref(reply);
    bus.flush_close_unref(connection);
}

std::atomic<int> in_flight{0};
constexpr int kMostInFlight = 4;  // a bus that does not answer holds at most this many threads

}  // namespace

void notify_desktop(const std::string& summary, const std::string& body) {
    // Without a session bus address there is no desktop to tell (a daemon
    // started from a service, CI): sd-bus would look for one under XDG_RUNTIME_DIR.
    if (!std::getenv("DBUS_SESSION_BUS_ADDRESS") && !std::getenv("XDG_RUNTIME_DIR")) return;
    if (in_flight.fetch_add(1) >= kMostInFlight) {
        in_flight.fetch_sub(1);
        spdlog::debug("no desktop notification: {} are still being sent", kMostInFlight);
        return;
    }
    // The call waits for the service's answer: on a thread of its own, so an
    // edit never waits on the desktop.
    std::thread([summary, body] {
        send(summary, body);
        in_flight.fetch_sub(1);
    }).detach();
}

}  // namespace gcfs::edit
