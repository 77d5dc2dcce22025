#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Write test traffic for dpdk-pmu-graph: a pcap of Ethernet/IPv4/UDP frames.

Packets go to 10.PORT.x.y (routed by dpdk-pmu-graph to port PORT); one in
--unrouted goes to 192.168.0.1, which has no route (pkt_drop). Also reads a
pcap back: "count FILE" prints its number of records.
"""

import argparse
import struct
import sys


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def frame(dst_ip, sport, payload_len):
    payload = bytes(payload_len)
    udp = struct.pack("!HHHH", sport, 9, 8 + payload_len, 0) + payload
    src_ip = bytes([192, 0, 2, 1])
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), sport & 0xFFFF, 0,
                      64, 17, 0, src_ip, dst_ip)
    hdr = hdr[:10] + struct.pack("!H", checksum(hdr)) + hdr[12:]
    eth = bytes.fromhex("020000000001") + bytes.fromhex("020000000099") + b"\x08\x00"
    return eth + hdr + udp


def write(path, count, port, unrouted, payload_len):
    routed = 0
    with open(path, "wb") as f:
        # Little-endian pcap, version 2.4, snaplen 65535, Ethernet.
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i in range(count):
            if unrouted and i % unrouted == unrouted - 1:
                dst = bytes([192, 168, 0, 1])
            else:
                dst = bytes([10, port, (i >> 8) & 0xFF, i & 0xFF])
                routed += 1
            data = frame(dst, 1024 + (i % 1000), payload_len)
            f.write(struct.pack("<IIII", i // 1000000, i % 1000000, len(data), len(data)))
            f.write(data)
    return routed


def count_records(path):
    n = 0
    with open(path, "rb") as f:
        head = f.read(24)
        if len(head) != 24:
            return -1
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return n
            incl = struct.unpack("<IIII", rec)[2]
            f.seek(incl, 1)
            n += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write")
    w.add_argument("path")
    w.add_argument("--count", type=int, default=1000)
    w.add_argument("--port", type=int, default=1, help="routed packets leave through it")
    w.add_argument("--unrouted", type=int, default=8,
                   help="one packet in N has no route (0: none)")
    w.add_argument("--payload", type=int, default=18, help="UDP payload bytes")
    c = sub.add_parser("count")
    c.add_argument("path")
    a = ap.parse_args()
    if a.cmd == "write":
        routed = write(a.path, a.count, a.port, a.unrouted, a.payload)
        print("%d packets, %d routed to port %d, %d unrouted" %
              (a.count, routed, a.port, a.count - routed))
    else:
        n = count_records(a.path)
        if n < 0:
            print("not a pcap: %s" % a.path, file=sys.stderr)
            return 1
        print(n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
