#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Writes perf.data files whose counts claim far more than the file holds.

huge_counts.py IN OUT_DIR [PIPE_IN]: IN is a file-mode perf.data from
perf_gen -g (host byte order, little-endian); each case gets OUT_DIR/CASE.data
with one count set to an absurd value. With PIPE_IN (the same file in pipe
mode, from perf inject -o -), also OUT_DIR/zstd_bomb.data: a COMPRESSED
record of 64 KiB whose zstd frame unpacks to 2 GiB.
"""
import struct
import sys

FEATS = {"NRCPUS": 7, "CMDLINE": 11, "EVENT_DESC": 12, "NUMA_TOPOLOGY": 14,
         "MEM_TOPOLOGY": 22}


def features(data):
    """{feature id: (offset, size)} from the header's table."""
    data_off, data_size = struct.unpack_from("<QQ", data, 40)
    bits = int.from_bytes(data[72:104], "little")
    table = data_off + data_size
    out = {}
    for bit in range(256):
        if bits >> bit & 1:
            out[bit] = struct.unpack_from("<QQ", data, table)
            table += 16
    return out


def patch(data, off, fmt, *vals):
    data = bytearray(data)
    struct.pack_into(fmt, data, off, *vals)
    return bytes(data)


def cases(data):
    f = features(data)
    off = lambda name: f[FEATS[name]][0]
    yield "nrcpus", patch(data, off("NRCPUS"), "<II", 0xffffffff, 0xffffffff)
    yield "cmdline", patch(data, off("CMDLINE"), "<I", 0xffffffff)
    yield "event_desc", patch(data, off("EVENT_DESC"), "<II", 0xffffffff, 0xffffffff)
    yield "numa", patch(data, off("NUMA_TOPOLOGY"), "<I", 0xffffffff)
    # version, block size, nr nodes; then node 0's {node, size, size}
    yield "mem_nodes", patch(data, off("MEM_TOPOLOGY") + 16, "<Q", 1 << 62)
    yield "mem_bitmap", patch(data, off("MEM_TOPOLOGY") + 32, "<QQ", 1 << 63, 1 << 63)
    attrs_off, attr_size = struct.unpack_from("<Q", data, 24)[0], struct.unpack_from("<Q", data, 16)[0]
    # the first attr's ids section: {offset, size} after its perf_event_attr
    yield "attr_ids", patch(data, attrs_off + attr_size - 8, "<Q", 1 << 60)
    yield "attr_section", patch(data, 32, "<Q", 1 << 62)
    yield "data_size", patch(data, 48, "<Q", 1 << 62)
    # the first sample's callchain nr: after IDENTIFIER IP TID TIME ADDR CPU PERIOD
    data_off = struct.unpack_from("<Q", data, 40)[0]
    pos = data_off
    while True:
        typ, misc, size = struct.unpack_from("<IHH", data, pos)
        if typ == 9:
            break
        pos += size
    yield "callchain", patch(data, pos + 8 + 7 * 8, "<Q", 1 << 61)


def zstd_bomb(pipe):
    """A COMPRESSED record (type 81) of RLE blocks: 4 bytes give 128 KiB."""
    frame = b"\x28\xb5\x2f\xfd" + b"\x00\x38"  # magic, no size, window 128 KiB
    nr = (65535 - 16 - len(frame)) // 4
    block = (2 | (131072 << 3)).to_bytes(3, "little") + b"\x00"
    last = (3 | (131072 << 3)).to_bytes(3, "little") + b"\x00"
    body = frame + block * (nr - 1) + last
    body += b"\x00" * (-len(body) % 8)
    rec = struct.pack("<IHH", 81, 0, 8 + len(body)) + body
    return pipe + rec


def main():
    data = open(sys.argv[1], "rb").read()
    for name, d in cases(data):
        open("%s/%s.data" % (sys.argv[2], name), "wb").write(d)
    if len(sys.argv) > 3:
        pipe = open(sys.argv[3], "rb").read()
        open("%s/zstd_bomb.data" % sys.argv[2], "wb").write(zstd_bomb(pipe))


main()
