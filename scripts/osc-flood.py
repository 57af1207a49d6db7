#!/usr/bin/env python3
"""Floods a metronome's OSC port from one UDP socket on the loopback interface, as a controller
gone mad would, and counts the replies: the helper of scripts/bench-osc.

    osc-flood.py SECONDS PORTFILE PIDFILE

It binds a port of its own and writes it to PORTFILE (metronome is started with --osc-return
naming it), waits for /klick/ready (whose sender is metronome's port), lets the run settle for two
seconds, then for SECONDS sends /klick/ping (answered with /klick/pong, which proves the message
was handled) and /klick/simple/set_tempo 137 (the tempo in force: the clicks must not move), as
fast as the socket takes them, at most 5 000 000. It prints one JSON object: messages sent and
answered per second, and metronome's resident memory (from /proc, PIDFILE naming its id) before,
at the end of and two seconds after the flood, and when the flood began and ended on the
machine's monotonic clock (which perf's probes in bench-osc are read on)."""
import json
import socket
import struct
import sys
import time


def padded(text):
    data = text.encode() + b"\0"
    return data + b"\0" * (-len(data) % 4)


def message(path, tags="", arguments=b""):
    return padded(path) + padded("," + tags) + arguments


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    seconds, port_file, pid_file = float(sys.argv[1]), sys.argv[2], sys.argv[3]
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    with open(port_file, "w") as out:
        out.write(str(sock.getsockname()[1]))
    sock.settimeout(30)
    data, metronome = sock.recvfrom(65536)
    if not data.startswith(padded("/klick/ready")):
        sys.exit(f"osc-flood: expected /klick/ready, got {data!r}")
    time.sleep(2)
    with open(pid_file) as file:
        pid = int(file.read().strip())
    before = resident_kib(pid)
    ping = message("/klick/ping")
    pong = padded("/klick/pong")
    tempo = message("/klick/simple/set_tempo", "f", struct.pack(">f", 137.0))
    sock.setblocking(False)
    sent = answered = 0
    start = time.monotonic()
    while time.monotonic() - start < seconds and sent < 5_000_000:
        try:
            sock.sendto(ping if sent % 2 == 0 else tempo, metronome)
            sent += 1
        except BlockingIOError:
            pass
        while True:
            try:
                if sock.recv(65536).startswith(pong):
                    answered += 1
            except BlockingIOError:
                break
    elapsed = time.monotonic() - start
    during = resident_kib(pid)
    sock.settimeout(2)
    try:
        while True:
            if sock.recv(65536).startswith(pong):
                answered += 1
    except socket.timeout:
        pass
    after = resident_kib(pid)
    print(json.dumps({
        "seconds": round(elapsed, 2), "sent": sent, "pings": (sent + 1) // 2, "answered": answered,
        "sent_per_second": round(sent / elapsed), "handled_per_second": round(2 * answered / elapsed),
        "rss_kib": {"before": before, "end_of_flood": during, "after": after},
        "monotonic": {"start": start, "end": start + elapsed},
    }))


main()
