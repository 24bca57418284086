#!/usr/bin/env python3
# A copy of self-play data (tsd) without the positions of fewer than MIN pieces: each chunk kept
# with its header (games, seed, shard), its record count and FNV-1a checksum rewritten, so that
# `tiao tune` reads the copy as it reads the original (games still split by the ply, held-out
# games still every 20th). Stops at the first chunk that is cut short or is not tsd. Usage:
#   python3 min_pieces.py IN.tsd OUT.tsd MIN
# Made for the runs that play endings out to the draw rules (russian without --egdb: about half
# of their positions have 4 pieces or fewer; eval.md, round 10). Needs numpy.
import struct, sys
import numpy as np
src, dst, minp = sys.argv[1], sys.argv[2], int(sys.argv[3])
MASK = (1 << 64) - 1

def fnv1a(data):
    h = 0xCBF29CE484222325
    for x in data:
        h = ((h ^ x) * 0x100000001B3) & MASK
    return h

d = open(src, 'rb').read(); o = 0; kept = total = 0
with open(dst, 'wb') as out:
    while o + 56 <= len(d) and d[o:o + 8] == b'TIAOSPD\0':
        n = struct.unpack_from('<I', d, o + 44)[0]
        body = d[o + 56:o + 56 + 30 * n]
        if len(body) < 30 * n:
            break
        r = np.frombuffer(body, dtype=np.uint8).reshape(-1, 30)
        occupied = r[:, 0:8].copy().view('<u8').ravel() | r[:, 8:16].copy().view('<u8').ravel()
        keep = np.bitwise_count(occupied) >= minp
        records = r[keep].tobytes()
        header = bytearray(d[o:o + 56])
        struct.pack_into('<IQ', header, 44, int(keep.sum()), fnv1a(records))
        out.write(bytes(header) + records)
        kept += int(keep.sum()); total += n; o += 56 + 30 * n
sys.stderr.write(f"{src}: kept {kept} of {total} positions\n")
