#!/usr/bin/env python3
# The endings net: a small network learning the endgame tables' win/draw/loss of quiet
# positions (the lines of `tiao egdb sample`), written as a tiao endings-net file (.ten). The
# evaluation that read it (src/draughts/eval/endings.rs) was tried and dropped: it is in commit
# 8cac21b, taken out in the next (docs/eval.md, "The endings net"). Usage:
#   endings_net.py SAMPLE.txt VARIANT MAX_PIECES HIDDEN1 HIDDEN2 EPOCHS SEED OUT.ten
# Needs numpy and torch (CPU: `pip install numpy torch`). Every 20th position (by a seeded
# permutation) is held out; it prints the held-out loss and how often the net names the tables'
# value, beside what each slice's most common value gets (a table by material alone).
# One thread: torch's threads spin against a busy second core (an epoch of 3.2 M positions took
# minutes with two threads beside self-play, 4 s with one). See docs/eval.md, "The endings net".
import struct, sys, time
import numpy as np, torch, torch.nn as nn

src, variant = sys.argv[1], sys.argv[2]
maxp, h1, h2, epochs, seed = map(int, sys.argv[3:8])
out = sys.argv[8]
torch.manual_seed(seed); np.random.seed(seed); torch.set_num_threads(1)
raw = open(src, 'rb').read().split(b'\n')
raw = [l for l in raw if l]
n = len(raw)
sq = raw[0].index(b' ')
boards = np.frombuffer(b''.join(l[:sq] for l in raw), dtype=np.uint8).reshape(n, sq)
vals = np.frombuffer(bytes(l[sq + 1] for l in raw), dtype=np.uint8)
slices = np.array([l[sq + 3:].decode() for l in raw])
X = np.zeros((n, sq, 4), dtype=np.float32)
for k, c in enumerate(b'mkxy'):
    X[:, :, k] = boards == c
X = X.reshape(n, sq * 4)
Y = np.select([vals == ord('L'), vals == ord('D')], [0, 1], 2).astype(np.int64)
perm = np.random.permutation(n)
nte = n // 20
te, tr = perm[:nte], perm[nte:]
prior = {}
for s in np.unique(slices[tr]):
    c = np.bincount(Y[tr][slices[tr] == s], minlength=3).astype(float) + 1
    prior[s] = c / c.sum()
P = np.array([prior.get(s, np.ones(3) / 3) for s in slices[te]])
ce_prior = -np.mean(np.log(P[np.arange(nte), Y[te]]))
print(f"{n} positions, {sq} squares; held out {nte}; each slice's own rate: CE {ce_prior:.4f}, "
      f"right {np.mean(P.argmax(1) == Y[te]):.4f}", flush=True)
Xt, Yt = torch.from_numpy(X), torch.from_numpy(Y)
model = nn.Sequential(nn.Linear(sq * 4, h1), nn.ReLU(), nn.Linear(h1, h2), nn.ReLU(), nn.Linear(h2, 3))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
lossf = nn.CrossEntropyLoss()
trt, tet = torch.from_numpy(tr), torch.from_numpy(te)
bs = 1024
for ep in range(epochs):
    t0 = time.time()
    for g in opt.param_groups:
        g['lr'] = 2e-3 * (1 - 0.9 * ep / max(1, epochs - 1))
    p = trt[torch.randperm(len(trt))]
    model.train(); tot = 0.0
    for k in range(0, len(p), bs):
        idx = p[k:k + bs]
        opt.zero_grad()
        l = lossf(model(Xt[idx]), Yt[idx])
        l.backward(); opt.step(); tot += l.item() * len(idx)
    model.eval()
    with torch.no_grad():
        o = model(Xt[tet]); ce = lossf(o, Yt[tet]).item(); pr = o.argmax(1)
        acc = (pr == Yt[tet]).float().mean().item()
        d = Yt[tet] == 1
        dacc = (pr[d] == 1).float().mean().item()
        ndacc = (pr[~d] == Yt[tet][~d]).float().mean().item()
    print(f"epoch {ep}: fit {tot/len(p):.4f} held-out CE {ce:.4f} right {acc:.4f} "
          f"(draws {dacc:.4f}, decided {ndacc:.4f}) {time.time()-t0:.0f} s", flush=True)
with torch.no_grad():
    pr = model(Xt[tet]).argmax(1).numpy()
res = {}
for s, y, q, pp in zip(slices[te], Y[te], pr, P.argmax(1)):
    r = res.setdefault(s, [0, 0, 0]); r[0] += 1; r[1] += (y == q); r[2] += (y == pp)
kk = [s for s in res if 'K' in s.split('v')[0] and 'K' in s.split('v')[1] and len(s) - 1 >= 5]
tot = np.array([res[s] for s in kk]).sum(0)
print(f"slices of 5-6 pieces with a king each: right {tot[1]/tot[0]:.4f}, the slice's rate {tot[2]/tot[0]:.4f} ({tot[0]} positions)")
for s in sorted(kk, key=lambda s: res[s][2] / res[s][0])[:12]:
    r = res[s]; print(f"  {s:10s} {r[0]:6d} net {r[1]/r[0]:.3f} slice rate {r[2]/r[0]:.3f}")
# the file
sd = model.state_dict()
w1 = sd['0.weight'].numpy().T.copy()  # [in][h1]
b1 = sd['0.bias'].numpy(); w2 = sd['2.weight'].numpy().T.copy(); b2 = sd['2.bias'].numpy()
w3 = sd['4.weight'].numpy().T.copy(); b3 = sd['4.bias'].numpy()
body = b'TIAOENN\0' + struct.pack('<I', 1) + variant.encode().ljust(16, b'\0') + struct.pack('<4I', maxp, sq, h1, h2)
for a in (w1, b1, w2, b2, w3, b3):
    body += a.astype('<f4').tobytes()
h = 0xCBF29CE484222325
for x in body:
    h = ((h ^ x) * 0x100000001B3) & ((1 << 64) - 1)
open(out, 'wb').write(body + struct.pack('<Q', h))
print(f"written {out}: {len(body) + 8} bytes")
