"""A desktop's notification service for the edit trust test: owns
org.freedesktop.Notifications on the session bus it is started on and
appends each Notify call's summary and body to FILE, one line each.
Usage: notify_listener.py FILE   (Debian's python3 with python3-dbus, python3-gi)"""
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

out = sys.argv[1]


class Notifications(dbus.service.Object):
    @dbus.service.method("org.freedesktop.Notifications", in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        with open(out, "a") as f:
            f.write("%s | %s | %s\n" % (app, summary, body.replace("\n", " ")))
        return 1


dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = dbus.service.BusName("org.freedesktop.Notifications", bus)
Notifications(bus, "/org/freedesktop/Notifications")
open(out, "a").close()  # ready
GLib.MainLoop().run()
