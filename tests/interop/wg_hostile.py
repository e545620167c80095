#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hostile UDP input for a WireGuard port (tests/interop/test_wg_device.sh).

  wg_hostile.py garbage HOST PORT           random datagrams, truncated and oversized
                                            messages, reserved bytes set, bad MAC1
  wg_hostile.py replay HOST PORT PCAP       every UDP payload of PCAP (to PORT) sent again, 3x
  wg_hostile.py load HOST PORT PUBKEY N     N initiations with a valid MAC1 (the receiver's
                                            public key is public), so the receiver comes
                                            under load and answers with cookie replies
Prints what it sent.
"""
import base64
import hashlib
import os
import socket
import struct
import sys
import time


def send_all(host, port, msgs):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    n = 0
    for i, m in enumerate(msgs):
        if i % 50 == 49:
            time.sleep(0.002)  # a veth's backlog holds 1000: pace, or the kernel drops them
        try:
            s.sendto(m, (host, port))
            n += 1
        except OSError:
            pass
    print(f"sent {n}")


def garbage():
    msgs = [os.urandom(b % 300) for b in os.urandom(200)]
    for t, size in ((1, 148), (2, 92), (3, 64), (4, 32)):
        hdr = struct.pack("<I", t)
        msgs.append(hdr + os.urandom(size - 5))  # one byte short
        msgs.append(hdr + os.urandom(size + 3))  # too long (data: a bad tag instead)
        msgs.append(bytes([t, 1, 0, 0]) + os.urandom(size - 4))  # reserved not zero
    msgs += [struct.pack("<I", 1) + os.urandom(144) for _ in range(50)]  # bad MAC1
    msgs.append(b"\x04\x00\x00\x00" + os.urandom(1600))  # oversized data, bad tag
    return msgs


def pcap_payloads(path, port):
    """UDP payloads to port from a little-endian Ethernet pcap."""
    with open(path, "rb") as f:
        data = f.read()
    off, out = 24, []
    while off + 16 <= len(data):
        incl = struct.unpack_from("<I", data, off + 8)[0]
        frame = data[off + 16:off + 16 + incl]
        off += 16 + incl
        if len(frame) < 42 or frame[12:14] != b"\x08\x00" or frame[23] != 17:
            continue
        ihl = (frame[14] & 15) * 4
        udp = frame[14 + ihl:]
        if struct.unpack_from("!H", udp, 2)[0] == port:
            out.append(udp[8:])
    return out


def load(pub_b64, n):
    pub = base64.b64decode(pub_b64)
    mac1_key = hashlib.blake2s(b"mac1----" + pub).digest()
    msgs = []
    for _ in range(n):
        body = struct.pack("<II", 1, int.from_bytes(os.urandom(4), "little")) + os.urandom(108)
        mac1 = hashlib.blake2s(body, digest_size=16, key=mac1_key).digest()
        msgs.append(body + mac1 + bytes(16))
    return msgs


def main():
    mode, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "garbage":
        send_all(host, port, garbage())
    elif mode == "replay":
        send_all(host, port, [p for p in pcap_payloads(sys.argv[4], port) for _ in range(3)])
    elif mode == "load":
        send_all(host, port, load(sys.argv[4], int(sys.argv[5])))
    else:
        sys.exit("usage: wg_hostile.py garbage|replay|load HOST PORT [...]")


main()
