"""Positions of every game: moves in and out, the end of the game, copies and pictures."""

import copy
import pickle

import pytest

import tiao
from conftest import ALL_VARIANTS, random_game


def test_every_variant_starts_and_plays(variant):
    p = tiao.Position(variant)
    assert p.variant == variant
    assert p.fen == p.start_fen
    assert tiao.Position(variant, p.fen) == p
    assert p.moves == []
    moves = p.legal_moves()
    assert moves and len(moves) == len(set(moves))
    assert len(p.legal_moves("pdn")) == len(moves)
    assert not p.is_over() and p.result() == "*" and p.outcome() is None
    assert p.turn == ("black" if variant == "english" else "white")


def test_push_and_pop_walk_a_game_back(variant):
    p = random_game(variant, "walk", 80)
    fens = []
    q = tiao.Position(variant)
    for m in p.moves:
        fens.append(q.fen)
        # Every move written is read back, in both of its forms.
        assert q.parse_move(m) == m
        pdn = q.legal_moves("pdn")[q.legal_moves().index(m)]
        assert q.parse_move(pdn) == m
        q.push(m)
    assert q == p and q.moves == p.moves
    for fen in reversed(fens):
        q.pop()
        assert q.fen == fen
    with pytest.raises(IndexError):
        q.pop()


def test_international_moves_in_hub_and_pdn_forms():
    p = tiao.Position("international")
    p.push("32-28")
    p.push("19-23")
    assert p.legal_moves() == ["28x19x23"]
    assert p.legal_moves("pdn") == ["28x19"]
    p.push("28x19")  # PDN short form
    assert p.moves == ["32-28", "19-23", "28x19x23"]
    assert p.pop() == "28x19x23"
    with pytest.raises(tiao.OptionError):
        p.legal_moves("san")


def test_russian_reads_algebraic_and_writes_numbers():
    p = tiao.Position("russian")
    p.push("c3-d4")
    assert p.moves == ["22-18"]
    assert "c3-d4" not in p.legal_moves("pdn")
    assert all("-" in m or ":" in m for m in p.legal_moves("pdn"))


def test_morris_moves():
    p = tiao.Position("morris")
    assert p.fen == "W:W:B:H9,9:R0"
    assert len(p.legal_moves()) == 24
    for m in ["d6", "d2", "b6", "f2"]:
        p.push(m)
    assert "f6xd2" in p.legal_moves()
    p.push("f6xd2")
    assert p.fen.startswith("B:Wb6,d6,f6:Bf2:")


def test_game_end_and_result():
    # After the capture Black has no move: White has won.
    p = tiao.Position("international", "W:WK46:B41")
    p.push("46x37")
    assert p.is_over() and p.legal_moves() == []
    assert p.result() == "2-0"
    o = p.outcome()
    assert (o.winner, o.termination, o.result) == ("white", "no-move", "2-0")
    # Kings going to and fro: the third occurrence of a position is a draw.
    p = tiao.Position("english", "W:WK32:BK1")
    for _ in range(2):
        for m in ["32-27", "1-5", "27-32", "5-1"]:
            assert not p.is_over()
            p.push(m)
    assert p.result() == "1/2-1/2" and p.outcome().termination == "repetition"
    p.pop()
    assert not p.is_over()


def test_copies_pickles_equality_and_hash():
    p = random_game("brazilian", "copy", 12)
    for q in (p.copy(), copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert q == p and hash(q) == hash(p) and q.moves == p.moves and q.start_fen == p.start_fen
        q.push(q.legal_moves()[0])
        assert q != p and len(p.moves) == 12
    # Same position, other history: equal; another game: not.
    assert tiao.Position("brazilian", p.fen) == p
    assert tiao.Position("russian", p.fen) != p
    assert p != p.fen
    r = tiao.Position("russian", draw_rules="fmjd")
    assert r.draw_rules == "fmjd" and r != tiao.Position("russian")
    assert "fmjd" in repr(r)
    assert len({p, p.copy(), tiao.Position("brazilian")}) == 2


def test_repr_evaluates_back():
    for v in ALL_VARIANTS:
        p = random_game(v, "repr", 5)
        assert eval(repr(p), {"Position": tiao.Position}) == p
        text = str(p)
        assert p.fen in text


def test_position_from_moves():
    p = tiao.Position("english", None, ["11-15", "23-19"])
    assert p.moves == ["11-15", "23-19"]
    with pytest.raises(tiao.MoveError, match="move 2|ply 2"):
        tiao.Position("english", None, ["11-15", "11-15"])


def test_bad_input_raises_the_engines_message():
    with pytest.raises(tiao.VariantError, match="unknown variant 'frisian'"):
        tiao.Position("frisian")
    with pytest.raises(tiao.VariantError, match="unknown draw rules"):
        tiao.Position("russian", draw_rules="lenient")
    with pytest.raises(tiao.FenError, match="outside 1-50"):
        tiao.Position("international", "W:W51:B1")
    with pytest.raises(tiao.FenError):
        tiao.Position("morris", "W:Wa1,d4:B:H8,8")
    p = tiao.Position("international")
    with pytest.raises(tiao.MoveError, match="illegal move '32-23'"):
        p.push("32-23")
    with pytest.raises(tiao.MoveError):
        p.push("garbage")
    with pytest.raises(tiao.MoveError):
        p.push("")
    assert p.moves == []  # nothing changed
    with pytest.raises(tiao.MoveError):
        tiao.Position("morris").push("d4")
    with pytest.raises(TypeError):
        tiao.Position("international", 42)
    # Every error is a tiao.Error and a ValueError.
    for cls in (tiao.VariantError, tiao.FenError, tiao.MoveError, tiao.PdnError, tiao.OptionError):
        assert issubclass(cls, tiao.Error) and issubclass(cls, ValueError)
    assert issubclass(tiao.BusyError, tiao.Error) and issubclass(tiao.BusyError, RuntimeError)
