#!/usr/bin/env python3
"""Interop: drive `tiao dxp` (follower, TCP server) with pydraughts' DXPEngine, a real outside
DXP client and initiator, for two complete games (tiao White, then tiao Black).

The other side plays seeded random legal moves. Every move tiao sends must be legal for
pydraughts' own move generator. pydraughts starts every game with GAMEREQ position B and ends it
with GAMEEND stop code 1, so tiao closes the connection after each game and must accept the next
one; with `--games 2` it exits after the second game.

Usage: dxp_pydraughts.py PATH/TO/tiao
"""

import logging
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading

import draughts
from draughts.engine import DXPEngine

TIMEOUT_S = 240
MAX_PLIES = 400


def fail(msg, log_lines):
    print(f"FAIL: {msg}", file=sys.stderr)
    print("---- tiao log (last 40 lines) ----", file=sys.stderr)
    for line in log_lines[-40:]:
        print(line, file=sys.stderr)
    sys.exit(1)


def play_game(port, tiao_color, seed, log_lines):
    """One game; returns (plies, winner) as pydraughts sees them."""
    board = draughts.Board(variant="standard")
    engine = DXPEngine(options={"port": port, "initial-time": 60})
    rng = random.Random(seed)
    while not board.is_over() and len(board.move_stack) < MAX_PLIES:
        legal = board.legal_moves()
        if board.turn == tiao_color:
            result = engine.play(board)
            move = result.move
            if move is None:
                fail(f"no move from tiao at ply {len(board.move_stack)}", log_lines)
            legal_keys = {m.hub_position_move for m in legal}
            if move.hub_position_move not in legal_keys:
                fail(f"tiao's move {move.pdn_move} is illegal in {board.fen}", log_lines)
            board.push(move)
        else:
            board.push(rng.choice(legal))
    winner = board.winner()
    engine.quit()
    return len(board.move_stack), winner


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    tiao = sys.argv[1]
    logging.getLogger("pydraughts").setLevel(logging.WARNING)
    signal.alarm(TIMEOUT_S)  # never hang: SIGALRM ends the test

    tmp = tempfile.mkdtemp(prefix="tiao-dxp-")
    pdn_path = os.path.join(tmp, "games.pdn")
    proc = subprocess.Popen(
        [tiao, "dxp", "--listen", "127.0.0.1:0", "--games", "2", "--move-time", "0.2",
         "--hash", "16", "--pdn", pdn_path],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    log_lines = []
    port_found = threading.Event()
    port = [None]

    def read_log():
        for line in proc.stderr:
            line = line.rstrip("\n")
            log_lines.append(line)
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if m:
                port[0] = int(m.group(1))
                port_found.set()

    reader = threading.Thread(target=read_log, daemon=True)
    reader.start()
    if not port_found.wait(30):
        proc.kill()
        fail("tiao did not report its port", log_lines)

    try:
        results = []
        for number, (color, seed) in enumerate([(draughts.WHITE, 1), (draughts.BLACK, 2)], 1):
            plies, winner = play_game(port[0], color, seed, log_lines)
            name = "white" if color == draughts.WHITE else "black"
            print(f"game {number}: tiao {name}, {plies} plies, pydraughts winner: {winner}")
            if winner != color:
                fail(f"tiao ({name}) did not beat random play (winner {winner})", log_lines)
            results.append(plies)
        out, _ = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail("tiao did not exit after its 2 games", log_lines)
    finally:
        if proc.poll() is None:
            proc.kill()
    reader.join(5)

    if proc.returncode != 0:
        fail(f"tiao exited with {proc.returncode}", log_lines)
    print(out, end="")
    games = [l for l in out.splitlines() if l.startswith("game ")]
    if len(games) != 2 or not all("tiao won" in g for g in games):
        fail(f"unexpected summary:\n{out}", log_lines)
    log = "\n".join(log_lines)
    for needed in ["recv GAMEREQ \"R01DXP Client", "send GAMEACC \"Atiao", "recv GAMEEND",
                   "send GAMEEND \"E3"]:
        if needed not in log:
            fail(f"log lacks {needed!r}", log_lines)
    if "error:" in log:
        fail("tiao logged an error", log_lines)
    with open(pdn_path) as f:
        pdn = f.read()
    for needed in ['[GameType "20"]', '[SetUp "1"]', '[FEN "W:W31,', '[Result "2-0"]',
                   '[Result "0-2"]', '[Black "DXP Client"]', '[White "DXP Client"]']:
        if needed not in pdn:
            fail(f"PDN lacks {needed}:\n{pdn}", log_lines)
    print("pydraughts interop: OK")


if __name__ == "__main__":
    main()
