#!/usr/bin/env python3
"""An RTSP server on 127.0.0.1 for the network source's tests: gst-rtsp-server (Debian's
gir1.2-gst-rtsp-server-1.0) through python3-gi. Each client gets its own media, from the start.

usage: rtsp_test_server.py PORT MOUNT LAUNCH [USER:PASSWORD]
  LAUNCH: a gst-launch description whose payloader is named pay0, e.g.
  "( filesrc location=clip.mkv ! matroskademux ! h264parse ! rtph264pay name=pay0 pt=96 )"
Prints "ready" on stdout once it listens; runs until killed.
"""
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402


def main():
    port, mount, launch = sys.argv[1], sys.argv[2], sys.argv[3]
    Gst.init(None)
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(port)
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_launch(launch)
    factory.set_shared(False)
    if len(sys.argv) > 4:
        user, password = sys.argv[4].split(":", 1)
        auth = GstRtspServer.RTSPAuth()
        token = GstRtspServer.RTSPToken()
        token.set_string(GstRtspServer.RTSP_TOKEN_MEDIA_FACTORY_ROLE, "user")
        auth.add_basic(GstRtspServer.RTSPAuth.make_basic(user, password), token)
        server.set_auth(auth)
        permissions = GstRtspServer.RTSPPermissions()
        permissions.add_role_from_structure(
            Gst.Structure.new_from_string("user, media.factory.access=true, media.factory.construct=true"))
        factory.set_permissions(permissions)
    server.get_mount_points().add_factory(mount, factory)
    if server.attach(None) == 0:
        print("cannot listen", flush=True)
        return 1
    print("ready", flush=True)
    GLib.MainLoop().run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
