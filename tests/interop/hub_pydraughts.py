#!/usr/bin/env python3
"""Plays complete games through pydraughts' HubEngine against `tiao hub`.

A real client, unchanged: pydraughts starts the engine, reads its `id`/`param` lines, sets
parameters, sends `pos`/`level`/`go` and parses `info` and `done` its own way. Every move the
engine returns must be legal for pydraughts (it raises on an unknown move, and we check the move
against pydraughts' own list of legal moves).

Variants: international ("standard"), and the 8x8 variants pydraughts plays (russian, brazilian,
english) with the engine parameter `numbering-8x8=pydraughts`, which pydraughts needs on 8x8 (it
numbers russian/brazilian moves from a1 and sends english positions turned; see protocol.md).

Games: engine against engine and engine against random legal moves, from the start and from a
position reached by random moves, with every kind of `level` pydraughts sends (move-time, depth,
nodes, a clock with increment, a clock with moves to go). The clock is kept here, as pydraughts'
tournament code does, and the engine must never exceed it.

Usage: hub_pydraughts.py [path/to/tiao] (default: target/release/tiao)
"""

import os
import random
import sys
import time

import draughts
from draughts.engine import HubEngine, Limit

MAX_PLIES = 300


class Failure(Exception):
    pass


def start_engine(binary, variant, extra):
    e = HubEngine([binary, "hub"])
    if e.id.get("name") != "tiao":
        raise Failure(f"id name: {e.id}")
    if variant not in e.variants:
        raise Failure(f"variant {variant} not declared: {e.variants}")
    for needed in ("variant", "threads", "hash"):
        if needed not in e.options:
            raise Failure(f"parameter {needed} not declared: {e.options}")
    e.configure({"variant": variant, "hash": 16, "threads": 1, **extra})
    e.init()
    e.ping()
    return e


def legal_hub_moves(board):
    return {tuple(map(tuple, m.board_move)): m for m in board.legal_moves()}


def balanced(board):
    """Equal material (kings counted as men) and no capture pending: random moves have not
    already decided the game."""
    fen = board.fen
    sides = {}
    for part in fen.split(":")[1:]:
        squares = [s for s in part[1:].split(",") if s]
        sides[part[0]] = len(squares)
    return (sides.get("W", 0) == sides.get("B", 0)
            and not any(m.has_captures for m in board.legal_moves()))


def random_board(variant, rng, plies):
    """A board whose *initial* position is reached by random moves (so `pos pos=` is not the
    start position), with material still level and no capture pending (the engine playing
    against random moves from it must not lose, so the random opening must not have lost it)."""
    for _ in range(1000):
        board = draughts.Board(variant=variant)
        for _ in range(plies):
            if board.is_over():
                break
            board.push(rng.choice(board.legal_moves()))
        if not board.is_over() and balanced(board):
            return draughts.Board(variant=variant, fen=board.fen)
    return draughts.Board(variant=variant)


def play_game(board, players, limit, rng, label):
    """players: {draughts.WHITE: engine or None (random moves), draughts.BLACK: ...}.
    limit: {"limit": Limit} for a fixed limit, or {"clock": (seconds, increment)} with an
    optional "moves" (moves per time control); "expect_info": check the info fields."""
    clock = limit.get("clock")
    per_control = limit.get("moves")
    clocks = {side: clock[0] if clock else None for side in players}
    played = {side: 0 for side in players}
    while not board.is_over() and len(board.move_stack) < MAX_PLIES:
        side = board.turn
        player = players[side]
        legal = legal_hub_moves(board)
        if player is None:
            board.push(rng.choice(list(legal.values())))
            continue
        if clock:
            # The clock runs from `go` to `done`, as a GUI's would (pydraughts' own bookkeeping
            # around the exchange is not the engine's time).
            total, inc = clock
            hub_moves = " ".join(m.hub_move for m in board.move_stack)
            moves_left = per_control - played[side] % per_control if per_control else None
            t0 = time.monotonic()
            best, ponder = player.go(board._game.initial_hub_fen, moves=hub_moves,
                                     my_time=clocks[side], inc=inc or None,
                                     moves_left=moves_left)
            spent = time.monotonic() - t0
            clocks[side] += inc - spent
            if clocks[side] < 0:
                raise Failure(f"{label}: lost on time at ply {len(board.move_stack)} "
                              f"(spent {spent:.3f} s)")
            if per_control and (played[side] + 1) % per_control == 0:
                clocks[side] += total
            result = draughts.engine.PlayResult(draughts.Move(board.copy(), hub_move=best), None,
                                                player.info)
        else:
            result = player.play(board, limit["limit"], False)
        move = result.move
        if tuple(map(tuple, move.board_move)) not in legal:
            raise Failure(f"{label}: illegal move {move.hub_move} at ply {len(board.move_stack)} "
                          f"in {board.fen}")
        if limit.get("expect_info") and len(legal) > 1:
            for k in ("depth", "nodes", "score", "time"):
                if k not in player.info:
                    raise Failure(f"{label}: no {k} in info {player.info}")
        board.push(move)
        played[side] += 1
    return sum(played.values())


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/release/tiao")
    started = time.monotonic()
    games = 0
    plan = [
        # (pydraughts variant, Hub variant, extra parameters)
        ("standard", "normal", {}),
        ("russian", "russian", {"numbering-8x8": "pydraughts"}),
        ("brazilian", "brazilian", {"numbering-8x8": "pydraughts"}),
        ("english", "english", {"numbering-8x8": "pydraughts"}),
    ]
    for variant, hub_variant, extra in plan:
        # The starting positions come from their own generator, so they do not depend on how
        # many random moves the timed games before them happened to need.
        positions = random.Random(f"{variant} positions")
        a = start_engine(binary, hub_variant, extra)
        b = start_engine(binary, hub_variant, extra)
        W, B = draughts.WHITE, draughts.BLACK
        schedule = [
            ("engine-engine move-time", draughts.Board(variant=variant), {W: a, B: b},
             {"limit": Limit(movetime=0.03)}),
            ("engine-random clock+inc", draughts.Board(variant=variant), {W: a, B: None},
             {"clock": (2.0, 0.05)}),
            ("random-engine depth, from a position", random_board(variant, positions, 8), {W: None, B: b},
             {"limit": Limit(depth=5), "expect_info": True}),
            ("engine-random nodes, from a position", random_board(variant, positions, 11), {W: a, B: None},
             {"limit": Limit(nodes=5000)}),
        ]
        if variant == "standard":
            schedule += [
                ("engine-engine clock+inc", draughts.Board(variant=variant), {W: a, B: b},
                 {"clock": (3.0, 0.02)}),
                ("engine-engine moves to go", draughts.Board(variant=variant), {W: b, B: a},
                 {"clock": (2.0, 0), "moves": 20}),
            ]
        for label, board, players, limit in schedule:
            label = f"{variant}: {label}"
            t0 = time.monotonic()
            initial = board.fen
            # Each game's random moves from its own generator: a game at a fixed depth or node
            # count is then the same game on every run.
            n = play_game(board, players, limit, random.Random(label), label)
            winner = board.winner()
            result = {None: "unfinished", 0: "draw", W: "white won", B: "black won"}[winner]
            print(f"{label}: {len(board.move_stack)} plies ({n} by the engine), {result}, "
                  f"{time.monotonic() - t0:.1f} s", flush=True)
            # Against random moves the engine must not lose.
            for side, p in players.items():
                if p is None and winner == side:
                    raise Failure(f"{label}: lost to random moves from {initial}\n{board.fen}")
            games += 1
        for e in (a, b):
            e.quit()
            e.p.wait(timeout=5)
            e.p.stdin.close()
            e.p.stdout.close()
            if e.p.returncode != 0:
                raise Failure(f"{variant}: engine exit status {e.p.returncode}")
    print(f"ok: {games} games in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    try:
        main()
    except Failure as f:
        print(f"FAILED: {f}", file=sys.stderr)
        sys.exit(1)
