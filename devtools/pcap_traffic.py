#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
"""Write test traffic for the examples, or count the packets of a pcap.

  pcap_traffic.py write FILE [ROUTED [UNROUTED [NON_IPV4]]] [--port P] [--net A.B]
      ROUTED (default 20000) Ethernet/IPv4/UDP frames to 10.x.y.z, which
      dpdk-pmu-pipeline forwards (with --port, to 10.P.y.z: dpdk-pmu-graph
      routes them to port P; with --net A.B, to A.B.P.z, P being --port or
      x: --net 198.18 for DPDK's l3fwd-graph, whose routes are 198.18.P.0/24
      to port P); UNROUTED (default 50) to 192.0.2.x and NON_IPV4 (default
      50) ARP frames, which both drop, spread through the file. Prints the
      three counts.
  pcap_traffic.py count FILE
      Prints the number of records of FILE (a classic pcap).
"""

import struct
import sys

PCAP_MAGIC = 0xA1B2C3D4
LINKTYPE_ETHERNET = 1


def checksum(data):
    total = 0
    for i in range(0, len(data), 2):
        total += (data[i] << 8) + data[i + 1]
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def udp_frame(dst, seq):
    payload = struct.pack('!I', seq) + bytes(14)
    udp = struct.pack('!HHHH', 1024 + seq % 1000, 9, 8 + len(payload), 0) + payload
    ip = bytearray(struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), seq & 0xFFFF,
                               0, 64, 17, 0, bytes([192, 0, 2, 1]), bytes(dst)))
    ip[10:12] = struct.pack('!H', checksum(ip))
    eth = bytes.fromhex('020000000001' '020000000002') + struct.pack('!H', 0x0800)
    return eth + bytes(ip) + udp


def arp_frame(seq):
    eth = bytes.fromhex('ffffffffffff' '020000000002') + struct.pack('!H', 0x0806)
    arp = struct.pack('!HHBBH6s4s6s4s', 1, 0x0800, 6, 4, 1, bytes.fromhex('020000000002'),
                      bytes([192, 0, 2, 1]), bytes(6), bytes([10, 0, 0, seq & 0xFF]))
    return eth + arp + bytes(18)


def write(path, routed, unrouted, non_ipv4, port=None, net=None):
    frames = []
    for i in range(routed):
        x = i % 3 if port is None else port
        dst = [10, x, (i >> 8) & 0xFF, i & 0xFF] if net is None else net + [x, i & 0xFF]
        frames.append(udp_frame(dst, i))
    # The dropped ones spread through the file, not all at its end.
    step = max(1, routed // max(1, unrouted + non_ipv4))
    pos = 0
    for i in range(unrouted + non_ipv4):
        f = udp_frame([192, 0, 2, i & 0xFF], i) if i < unrouted else arp_frame(i)
        frames.insert(min(pos, len(frames)), f)
        pos += step + 1
    with open(path, 'wb') as out:
        out.write(struct.pack('<IHHiIII', PCAP_MAGIC, 2, 4, 0, 0, 65535, LINKTYPE_ETHERNET))
        for i, f in enumerate(frames):
            out.write(struct.pack('<IIII', i // 1000000, i % 1000000, len(f), len(f)))
            out.write(f)
    print(routed, unrouted, non_ipv4)


def count(path):
    with open(path, 'rb') as f:
        data = f.read()
    if len(data) < 24:
        raise SystemExit(f'{path}: not a pcap ({len(data)} bytes)')
    magic = struct.unpack('<I', data[:4])[0]
    endian = '<' if magic in (0xA1B2C3D4, 0xA1B23C4D) else '>'
    pos, n = 24, 0
    while pos + 16 <= len(data):
        caplen = struct.unpack(endian + 'IIII', data[pos:pos + 16])[2]
        pos += 16 + caplen
        n += 1
    if pos != len(data):
        raise SystemExit(f'{path}: truncated record at byte {pos}')
    print(n)


def main():
    args, port, net = sys.argv[1:], None, None
    while len(args) >= 2 and args[-2] in ('--port', '--net'):
        if args[-2] == '--port':
            port = int(args[-1])
        else:
            net = [int(b) for b in args[-1].split('.')]
            if len(net) != 2 or not all(0 <= b <= 255 for b in net):
                raise SystemExit(f'--net {args[-1]}: two bytes, A.B')
        args = args[:-2]
    if 2 <= len(args) <= 5 and args[0] == 'write':
        nums = [int(a) for a in args[2:5]] + [20000, 50, 50][len(args[2:5]):]
        write(args[1], *nums, port, net)
    elif port is None and net is None and len(sys.argv) == 3 and sys.argv[1] == 'count':
        count(sys.argv[2])
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main()
