#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Write blktrace binary records (struct blk_io_trace, 48 bytes) for tests.

mk-blktrace.py OUT [--big-endian] [--per-cpu] [--cut]

The trace: QUEUE and ISSUE events of reads and writes (the ISSUE ones at
other sectors, so a reader shows which it took), a message with a payload
(skipped by its pdu_len), a flush (no bytes) and a discard (both skipped),
and a completion. --per-cpu writes OUT.blktrace.0 and OUT.blktrace.1,
the events split between them as blktrace -d does (each file in time
order, the two interleaved); --cut ends the file in the middle of a
record.
"""
import struct
import sys

MAGIC = 0x65617407
TC_SHIFT = 16
TC_READ, TC_WRITE, TC_FLUSH, TC_QUEUE, TC_ISSUE = 1, 2, 4, 16, 64
TC_COMPLETE, TC_NOTIFY, TC_DISCARD = 128, 1024, 8192
TA_QUEUE, TA_ISSUE, TA_COMPLETE = 1, 7, 8
TN_MESSAGE = 3
DEV = (259 << 20) | 0


def act(code, *cats):
    c = 0
    for x in cats:
        c |= x
    return code | (c << TC_SHIFT)


# (time_ns, sector, bytes, action, cpu, pdu)
EVENTS = [
    (1000, 0, 4096, act(TA_QUEUE, TC_QUEUE, TC_READ), 0, b''),
    (1500, 100, 4096, act(TA_ISSUE, TC_ISSUE, TC_READ), 0, b''),
    (2000, 0, 0, act(TN_MESSAGE, TC_NOTIFY), 1, b'hello blkgen\0'),
    (3000, 16, 8192, act(TA_QUEUE, TC_QUEUE, TC_WRITE), 1, b''),
    (3500, 116, 8192, act(TA_ISSUE, TC_ISSUE, TC_WRITE), 1, b''),
    (4000, 0, 0, act(TA_QUEUE, TC_QUEUE, TC_WRITE, TC_FLUSH), 0, b''),
    (5000, 64, 65536, act(TA_QUEUE, TC_QUEUE, TC_WRITE, TC_DISCARD), 0, b''),
    (6000, 0, 4096, act(TA_COMPLETE, TC_COMPLETE, TC_READ), 1, b''),
    (2001000, 2048, 131072, act(TA_QUEUE, TC_QUEUE, TC_READ), 0, b''),
]


def record(seq, ev, endian):
    t, sector, nbytes, action, cpu, pdu = ev
    return struct.pack(endian + 'IIQQIIIIIHH', MAGIC, seq, 10 ** 9 + t,
                       sector, nbytes, action, 4242, DEV, cpu, 0,
                       len(pdu)) + pdu


def main():
    out = sys.argv[1]
    endian = '>' if '--big-endian' in sys.argv else '<'
    data = {}
    for seq, ev in enumerate(EVENTS):
        cpu = ev[4] if '--per-cpu' in sys.argv else 0
        data.setdefault(cpu, b'')
        data[cpu] += record(seq, ev, endian)
    if '--per-cpu' in sys.argv:
        for cpu, blob in data.items():
            with open('%s.blktrace.%d' % (out, cpu), 'wb') as f:
                f.write(blob)
        return
    blob = data[0]
    if '--cut' in sys.argv:
        blob = blob[:48 * 3 + 20]
    with open(out, 'wb') as f:
        f.write(blob)


main()
