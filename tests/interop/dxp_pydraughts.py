#!/usr/bin/env python3
"""Interop: drive `tiao dxp` (follower, TCP server) with pydraughts' DXPEngine, a real outside
DXP client and initiator, for two complete games (tiao White, then tiao Black; in the first the
pydraughts side takes moves back once).

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

TIMEOUT_S = 120
MAX_PLIES = 400


# The tiao process, killed on failure.
TIAO = []


def fail(msg, log_lines):
    """Reports and exits at once: pydraughts' receiver threads would keep the process alive."""
    print(f"FAIL: {msg}", file=sys.stderr)
    print("---- tiao log (last 40 lines) ----", file=sys.stderr)
    for line in log_lines[-40:]:
        print(line, file=sys.stderr)
    for p in TIAO:
        p.kill()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(1)


def check_legal(board, move, log_lines):
    if move is None:
        fail(f"no move from tiao at ply {len(board.move_stack)}", log_lines)
    legal_keys = {m.hub_position_move for m in board.legal_moves()}
    if move.hub_position_move not in legal_keys:
        fail(f"tiao's move {move.pdn_move} is illegal in {board.fen}", log_lines)


def play_game(port, tiao_color, seed, log_lines, takeback_at=None):
    """One game; returns (plies, winner) as pydraughts sees them. With `takeback_at`, the
    pydraughts side asks, at that ply, to go back to move 2 with White to move (tiao accepts and,
    being White, moves again)."""
    board = draughts.Board(variant="standard")
    engine = DXPEngine(options={"port": port, "initial-time": 60})
    rng = random.Random(seed)
    while not board.is_over() and len(board.move_stack) < MAX_PLIES:
        if board.turn == tiao_color:
            move = engine.play(board).move
            check_legal(board, move, log_lines)
            board.push(move)
        elif len(board.move_stack) == takeback_at:
            takeback_at = None
            accepted, board, result = engine.takeback(2, draughts.WHITE)
            if not accepted or len(board.move_stack) != 2:
                fail(f"take-back refused or wrong ({len(board.move_stack)} plies)", log_lines)
            check_legal(board, result.move, log_lines)
            board.push(result.move)
        else:
            board.push(rng.choice(board.legal_moves()))
    winner = board.winner()
    engine.quit()
    return len(board.move_stack), winner


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    tiao = sys.argv[1]
    logging.getLogger("pydraughts").setLevel(logging.WARNING)
    log_lines = []

    def timeout(_signum, _frame):
        fail(f"no result after {TIMEOUT_S} s", log_lines)

    signal.signal(signal.SIGALRM, timeout)
    signal.alarm(TIMEOUT_S)  # never hang: SIGALRM ends the test

    tmp = tempfile.mkdtemp(prefix="tiao-dxp-")
    pdn_path = os.path.join(tmp, "games.pdn")
    proc = subprocess.Popen(
        [tiao, "dxp", "--listen", "127.0.0.1:0", "--games", "2", "--move-time", "0.2",
         "--hash", "16", "--pdn", pdn_path],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    TIAO.append(proc)
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
        games = [(draughts.WHITE, 1, 7), (draughts.BLACK, 2, None)]
        for number, (color, seed, takeback_at) in enumerate(games, 1):
            plies, winner = play_game(port[0], color, seed, log_lines, takeback_at)
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
                   "send GAMEEND \"E3", "recv BACKREQ \"B002W\"", "send BACKACC \"K0\""]:
        if needed not in log:
            fail(f"log lacks {needed!r}", log_lines)
    if "error:" in log:
        fail("tiao logged an error", log_lines)
    with open(pdn_path) as f:
        pdn = f.read()
    for needed in ['[GameType "20,W,10,10,N2,0"]', '[SetUp "1"]', '[FEN "W:W31,', '[Result "2-0"]',
                   '[Result "0-2"]', '[Black "DXP Client"]', '[White "DXP Client"]']:
        if needed not in pdn:
            fail(f"PDN lacks {needed}:\n{pdn}", log_lines)
    print("pydraughts interop: OK")


if __name__ == "__main__":
    main()
