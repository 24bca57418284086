#!/usr/bin/env python3
# Ending start positions from self-play data (tsd): positions with PMIN..PMAX pieces, |score| <= S,
# distinct, a seeded sample of COUNT, written as PDN FEN lines. Usage:
#   python3 endings.py FILE.tsd SQUARES PMIN PMAX S COUNT SEED > out.fen
import struct, sys, random
src, squares, pmin, pmax, smax, count, seed = sys.argv[1], *map(int, sys.argv[2:])
W = 5 if squares == 50 else 4
bit_to_sq = {s + s // (2 * W): s + 1 for s in range(squares)}
b = open(src, 'rb').read(); o = 0; seen = set(); out = []
while o + 56 <= len(b):
    n = struct.unpack_from('<I', b, o + 44)[0]; r = o + 56; e = r + n * 30
    if e > len(b): break
    for i in range(n):
        w, bl, k, sc, res, side, ply = struct.unpack_from('<QQQhbBH', b, r + 30 * i)
        pcs = bin(w).count('1') + bin(bl).count('1')
        if not (pmin <= pcs <= pmax) or abs(sc) > smax or bin(w).count('1') == 0 or bin(bl).count('1') == 0:
            continue
        key = (w, bl, k, side)
        if key in seen: continue
        seen.add(key)
        def sqs(x):
            return ','.join(('K' if k >> bb & 1 else '') + str(bit_to_sq[bb]) for bb in sorted(bit_to_sq, key=lambda t: bit_to_sq[t]) if x >> bb & 1)
        out.append(f"{'W' if side == 0 else 'B'}:W{sqs(w)}:B{sqs(bl)}")
    o = e
random.Random(seed).shuffle(out)
sys.stderr.write(f"{len(out)} distinct positions\n")
print('\n'.join(out[:count]))
