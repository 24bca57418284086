"""PDN games: written from positions, read back, replayed; bad text and bad games raise."""

import pytest

import tiao
from conftest import ALL_VARIANTS, random_game

SAMPLE = """[Event "Test \\"quoted\\""]
[White "A"]
[Black "B"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 {a comment
over two lines} 3. 37-32! (3. 33-28 23x32 (3... 10-14) 37x28) 3... 10-14 $2 4.34-30?!
; rest of line
4... 5-10 2-0

[Event "Second"]
1. 33-29 *
"""


def test_reads_tags_moves_comments_and_replays():
    games = tiao.read_pdn(SAMPLE)
    assert len(games) == 2
    g = games[0]
    assert g.tags["Event"] == 'Test "quoted"' and g.tag("white") == "A"
    assert g.variant == "international" and g.result == "2-0" and g.fen is None
    assert g.moves == ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14", "34-30", "5-10"]
    assert g.comments[3] == ["a comment over two lines"]
    end = g.end_position()
    assert end.moves[2] == "28x19x23" and len(end.moves) == 8
    assert g.start_position() == tiao.Position("international")
    assert games[1].moves == ["33-29"] and games[1].result == "*"


def test_round_trip_of_every_game(variant):
    p = random_game(variant, "pdn", 60)
    g = tiao.PdnGame(p, {"Event": "Round trip", "White": "tiao", "Black": "tiao"})
    text = str(g)
    assert text == g.to_pdn() == tiao.write_pdn(g)
    back = tiao.read_pdn(text)
    assert back == [g]
    assert back[0].variant == variant
    assert back[0].end_position() == p
    assert back[0].end_position().moves == p.moves
    assert g.result == p.result() and g.tags["Result"] == p.result()


def test_games_from_a_position_record_their_start():
    p = tiao.Position("russian", "B:Wc3:Bd4,f6")
    p.push("d4:b2")
    g = tiao.PdnGame(p)
    assert g.tags["SetUp"] == "1" and g.tags["FEN"] == p.start_fen
    assert g.tags["GameType"].startswith("25")
    assert "1... d4:b2" in str(g)
    assert tiao.read_pdn(str(g))[0].end_position() == p
    # duoyibu and morris have no PDN number of their own: a Variant tag names them.
    for v in ("duoyibu", "morris"):
        g = tiao.PdnGame(tiao.Position(v))
        assert g.tags["Variant"] == v
        assert tiao.read_pdn(str(g))[0].variant == v


def test_several_games_and_edits():
    games = [tiao.PdnGame(random_game("english", f"many {i}", 10 + i)) for i in range(3)]
    text = tiao.write_pdn(games)
    assert tiao.read_pdn(text) == games
    g = games[0]
    g.set_tag("Event", "Edited")
    g.result = "1-0"
    assert g.tag("event") == "Edited" and g.result == "1-0"
    g.tags = {"Event": "Replaced", "GameType": "21"}
    assert list(g.tags) == ["Event", "GameType"]
    assert tiao.read_pdn(str(g))[0] == g
    with pytest.raises(tiao.PdnError, match="bad result"):
        g.result = "3-0"
    empty = tiao.PdnGame()
    assert empty.moves == [] and empty.result is None and empty.variant == "international"


def test_the_default_variant_serves_games_without_tags():
    g = tiao.read_pdn("1. 11-15 23-19 *", variant="english")[0]
    assert g.variant == "english"
    assert g.end_position().moves == ["11-15", "23-19"]


def test_bad_pdn_raises():
    with pytest.raises(tiao.PdnError, match="line 1"):
        tiao.read_pdn("1. 32-28 {oops")
    with pytest.raises(tiao.PdnError, match="line 2"):
        tiao.read_pdn("\n[Event x]")
    with pytest.raises(tiao.PdnError):
        tiao.read_pdn("1. 32-28 (19-23")
    g = tiao.read_pdn("1. 32-28 19-23 2. 28-22 *")[0]
    with pytest.raises(tiao.PdnError, match="ply 3"):
        g.end_position()
    g = tiao.read_pdn('[GameType "30"]\n1. 32-28 *')[0]
    with pytest.raises(tiao.VariantError):
        g.end_position()
    g = tiao.read_pdn('[FEN "W:W99"]\n1. 32-28 *')[0]
    with pytest.raises(tiao.FenError):
        g.start_position()
    with pytest.raises(TypeError):
        tiao.write_pdn([1, 2])
