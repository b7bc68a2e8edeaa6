#!/usr/bin/env python3
"""An RTSP server on 127.0.0.1 for the network source's tests: gst-rtsp-server (Debian's
gir1.2-gst-rtsp-server-1.0) through python3-gi. Each client gets its own media, from the start.

usage: rtsp_test_server.py [--damage N] PORT MOUNT LAUNCH [USER:PASSWORD]
  LAUNCH: a gst-launch description whose payloader is named pay0, e.g.
  "( filesrc location=clip.mkv ! matroskademux ! h264parse ! rtph264pay name=pay0 pt=96 )"
  --damage N: each client loses one RTP packet, as a network would: the first, from frame N on
  (counted from 1), that does not end its frame, so that frame arrives damaged.
Prints "ready" on stdout once it listens; runs until killed.
"""
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402


def lose_one_packet(media, frame):
    """Drops the first packet from `frame` on that does not end its frame (RTP's marker bit).
    rtph264pay pushes a frame's fragments as one buffer list: the rest of that list is passed on
    to the peer here, without the packet."""
    pay = media.get_element().get_by_name("pay0")
    state = {"frame": 1, "lost": False}

    def lose(buffer):
        marker = bool(buffer.extract_dup(0, 2)[1] & 0x80)
        drop = state["frame"] >= frame and not marker and not state["lost"]
        if marker:
            state["frame"] += 1
        state["lost"] = state["lost"] or drop
        return drop

    def probe(pad, info):
        if info.type & Gst.PadProbeType.BUFFER:
            return Gst.PadProbeReturn.DROP if lose(info.get_buffer()) else Gst.PadProbeReturn.OK
        packets = info.get_buffer_list()
        kept = [packets.get(i) for i in range(packets.length()) if not lose(packets.get(i))]
        if len(kept) == packets.length():
            return Gst.PadProbeReturn.OK
        peer = pad.get_peer()
        for packet in kept:
            peer.chain(packet)
        return Gst.PadProbeReturn.DROP

    pay.get_static_pad("src").add_probe(
        Gst.PadProbeType.BUFFER | Gst.PadProbeType.BUFFER_LIST, probe)


def main():
    args = sys.argv[1:]
    damage = None
    if args[:1] == ["--damage"]:
        damage, args = int(args[1]), args[2:]
    port, mount, launch = args[:3]
    Gst.init(None)
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(port)
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_launch(launch)
    factory.set_shared(False)
    if damage:
        factory.connect("media-configure", lambda _, media: lose_one_packet(media, damage))
    if len(args) > 3:
        user, password = args[3].split(":", 1)
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
