#!/usr/bin/python3
"""Run one shell command in a pppoe-xp qemu guest over its control socket.

Usage: guest-ctl.py SOCKET TIMEOUT COMMAND [--pid QEMU_PID]

Speaks the line protocol of the guest's pxp-ctl-loop (see that file).
Prints the command's combined stdout+stderr and exits with its status.
Exit 124 if no reply came within TIMEOUT seconds (+ a small grace), 125 if
the socket cannot be reached or qemu (QEMU_PID) died while waiting.
"""
import base64
import os
import select
import socket
import sys
import time


def fail(code, msg):
    sys.stderr.write("guest-ctl: %s\n" % msg)
    sys.exit(code)


def qemu_alive(pid):
    if pid is None:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def main():
    args = sys.argv[1:]
    pid = None
    if "--pid" in args:
        i = args.index("--pid")
        pid = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 3:
        fail(2, "usage: guest-ctl.py SOCKET TIMEOUT COMMAND [--pid QEMU_PID]")
    path, timeout, command = args[0], int(args[1]), args[2]
    # Waiting for a busy guest to finish an earlier request also counts.
    deadline = time.monotonic() + timeout + 10

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    while True:
        try:
            sock.connect(path)
            break
        except (FileNotFoundError, ConnectionRefusedError) as e:
            if time.monotonic() > deadline or not qemu_alive(pid):
                fail(125, "cannot connect to %s: %s" % (path, e))
            time.sleep(0.2)

    req_id = os.urandom(6).hex()
    req = "PXG1 %s %d %s\n" % (
        req_id, timeout, base64.b64encode(command.encode()).decode())
    sock.sendall(req.encode())

    buf = b""
    prefix = ("PXG1 %s " % req_id).encode()
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            fail(124, "no reply within %d s to: %s" % (timeout, command))
        ready, _, _ = select.select([sock], [], [], min(left, 1.0))
        if not ready:
            if not qemu_alive(pid):
                fail(125, "qemu (pid %d) exited" % pid)
            continue
        chunk = sock.recv(65536)
        if not chunk:
            fail(125, "control socket closed by qemu")
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            # Replies to earlier, abandoned requests are skipped.
            if not line.startswith(prefix):
                continue
            fields = line.split(b" ")
            if len(fields) != 4:
                fail(125, "malformed reply from guest")
            out = base64.b64decode(fields[3]) if fields[3] else b""
            sys.stdout.buffer.write(out)
            sys.stdout.flush()
            sys.exit(int(fields[2]))


if __name__ == "__main__":
    main()
