"""Shared helpers of the tiao Python tests (run with `pytest python/tests` once the module is
installed: `pip install ./python`)."""

import pathlib
import random

import pytest

import tiao

# The repository's root, and the project's shared folder beside the clone (CI puts it there).
ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"

DRAUGHTS = ["international", "brazilian", "russian", "duoyibu", "english"]
ALL_VARIANTS = DRAUGHTS + ["morris"]


def random_game(variant, seed, plies, **kw):
    """A tiao.Position reached by up to `plies` random legal moves (fewer if the game ends)."""
    rng = random.Random(f"{variant} {seed}")
    p = tiao.Position(variant, **kw)
    for _ in range(plies):
        if p.is_over():
            break
        p.push(rng.choice(p.legal_moves()))
    return p


@pytest.fixture(params=ALL_VARIANTS)
def variant(request):
    return request.param
