"""Legal moves agree with pydraughts (pinned 0.6.7) along random games of the variants it knows:
international ("standard"), russian, brazilian and english.

A move is compared as (from, to, set of captured squares), the identity RULES.md gives moves.
pydraughts numbers the squares of russian and brazilian moves from a1 (1 = a1, 4 = g1, 32 = h8);
tiao, as the Hub protocol, from b8 (1 = b8, 29 = a1): the rows are renumbered here, as the Hub
parameter `numbering-8x8=pydraughts` does (protocol.md). English moves use the official
numbering in both.
"""

import random

import pytest

import tiao

draughts = pytest.importorskip("draughts", reason="pydraughts is not installed "
                               "(pip install pydraughts==0.6.7)")

VARIANTS = [("standard", "international"), ("russian", "russian"),
            ("brazilian", "brazilian"), ("english", "english")]
GAMES = 20
MAX_PLIES = 150


def flip_rows(n):
    row, col = divmod(n - 1, 4)
    return (7 - row) * 4 + col + 1


def pydraughts_key(move, flip):
    steps = move.steps_move
    squares = [steps[0], steps[-1], *move.captures]
    if flip:
        squares = [flip_rows(s) for s in squares]
    return squares[0], squares[1], frozenset(squares[2:])


def tiao_key(hub):
    parts = [int(s) for s in hub.replace("-", "x").split("x")]
    return parts[0], parts[1], frozenset(parts[2:])


@pytest.mark.parametrize("pyd_variant,variant", VARIANTS)
def test_legal_moves_agree_on_random_games(pyd_variant, variant):
    flip = variant in ("russian", "brazilian")
    compared = 0
    for game in range(GAMES):
        rng = random.Random(f"{variant} {game}")
        board = draughts.Board(variant=pyd_variant)
        position = tiao.Position(variant)
        for ply in range(MAX_PLIES):
            theirs = {}
            for m in board.legal_moves():
                theirs.setdefault(pydraughts_key(m, flip), m)
            ours = {tiao_key(m): m for m in position.legal_moves()}
            assert len(ours) == len(position.legal_moves()), "a move listed twice"
            assert set(ours) == set(theirs), (
                f"{variant} game {game} ply {ply}: {position.fen} after {position.moves}: "
                f"tiao only {sorted(set(ours) - set(theirs))}, "
                f"pydraughts only {sorted(set(theirs) - set(ours))}")
            compared += 1
            if not ours:
                break
            key = rng.choice(sorted(ours, key=str))
            position.push(ours[key])
            board.push(theirs[key])
    assert compared > GAMES * 20
