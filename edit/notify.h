// A refused edit told to the desktop: many editors ignore the error a close
// returns (README, Modding), so a refusal is also sent as a notification
// (org.freedesktop.Notifications, the Desktop Notifications Specification)
// on the session bus the mount was started under, where one is there. The
// bus is spoken through libsystemd's sd-bus, opened on first use
// (formats/common/late_library.h): no bus, no library or no service is no
// error, one debug line. Each is sent from a thread of its own (the call waits
// for the service's answer), at most four at once: an edit never waits on it.
#pragma once

#include <string>

namespace gcfs::edit {

void notify_desktop(const std::string& summary, const std::string& body);

}  // namespace gcfs::edit
