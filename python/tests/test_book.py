"""The opening book, as in the Hub: on by default; `analyse` with a limit answers a book position
at once with a book move marked `book=True` (depth, nodes 0), with the book off it searches; the
book options (`book-margin`, `book-seed`, `book-ply`, `book-file`) act as the Hub's; a bad
`book-file` is an `OptionError` naming the file and the problem, and the engine keeps its book;
english ballot positions are in the english book. No test measures time."""

import pytest

import tiao

# A position no book of a few thousand positions reaches.
OUT_OF_BOOK = "W:W28,31,32,33,34,35:B16,17,18,19,20"


def test_a_book_position_is_answered_from_the_book_with_the_marker():
    engine = tiao.Engine("international", hash_mb=4)
    assert engine.book
    p = tiao.Position()
    moves = engine.book_moves(p)
    assert moves and sorted(m for m, _ in moves) == sorted(p.legal_moves())
    assert [s for _, s in moves] == sorted((s for _, s in moves), reverse=True)
    seen = []
    a = engine.analyse(p, depth=12, on_info=seen.append)
    assert a.book and a.depth == 0 and a.nodes == 0 and a.time == 0
    assert a.pv == [a.best_move] and a.best_move in p.legal_moves()
    assert a.score == dict(moves)[a.best_move]
    assert a.to_dict()["book"] is True and repr(a).endswith(" book>")
    assert len(seen) == 1 and seen[0].book and seen[0].best_move == a.best_move
    # Out of the book: a search.
    a = engine.analyse(OUT_OF_BOOK, depth=3)
    assert not a.book and a.depth >= 1 and a.nodes > 0
    assert engine.book_moves(OUT_OF_BOOK) is None
    # A batch never uses the book.
    [b] = engine.analyse_many([p], depth=2)
    assert not b.book and b.depth == 2 and b.nodes > 0


def test_with_the_book_off_a_search_happens():
    for engine in (tiao.Engine("english", hash_mb=4, book=False),
                   tiao.Engine("english", hash_mb=4)):
        engine.set_option("book", False)
        assert not engine.book
        assert engine.book_moves(tiao.Position("english")) is None
        a = engine.analyse(tiao.Position("english"), depth=3)
        assert not a.book and a.depth >= 1 and a.nodes > 0
        assert a.to_dict()["book"] is False
    engine.set_option("book", "on")
    assert engine.book and engine.analyse(tiao.Position("english"), depth=3).book


def test_margin_seed_and_ply_choose_as_the_hub():
    engine = tiao.Engine("international", hash_mb=4)
    p = tiao.Position()
    moves = engine.book_moves(p)
    best, score = moves[0]
    engine.set_option("book-margin", 0)
    assert engine.analyse(p, nodes=1000).best_move == best
    # A margin taking in the two best moves at least: every choice is within it.
    margin = max(score - moves[1][1], 1)
    engine.set_option("book-margin", margin)
    by_seed = []
    for seed in range(1, 9):
        engine.set_option("book-seed", seed)
        assert engine.book_seed == seed
        a = engine.analyse(p, nodes=1000)
        assert score - dict(moves)[a.best_move] <= margin
        by_seed.append(a.best_move)
    assert len(set(by_seed)) >= 2, by_seed
    engine.set_option("book-seed", 3)
    assert engine.analyse(p, nodes=1000).best_move == by_seed[2], "a seed replays its choice"
    # From book-ply on (the position's moves count), the best.
    engine.set_option("book-ply", 0)
    for seed in range(1, 5):
        engine.set_option("book_seed", seed)
        assert engine.analyse(p, nodes=1000).best_move == best
    with pytest.raises(tiao.OptionError, match="book-margin"):
        engine.set_option("book-margin", -1)


def test_a_bad_book_file_is_an_option_error_and_the_engine_keeps_its_book(tmp_path):
    engine = tiao.Engine("international", hash_mb=4)
    missing = tmp_path / "missing.book"
    with pytest.raises(tiao.OptionError, match="missing.book"):
        engine.set_option("book-file", str(missing))
    junk = tmp_path / "junk.book"
    junk.write_bytes(b"W:W31-50:B1-20\n")
    with pytest.raises(tiao.OptionError, match="junk.book.*not a tiao opening book"):
        engine.set_option("book-file", str(junk))
    truncated = tmp_path / "truncated.book"
    truncated.write_bytes(b"TIAOBOOK\x01\x00\x00\x00" + bytes(30))
    with pytest.raises(tiao.OptionError, match="truncated"):
        engine.set_option("book-file", str(truncated))
    a = engine.analyse(tiao.Position(), depth=3)
    assert a.book, "the embedded book is kept"
    engine.set_option("book-file", "default")
    assert engine.analyse(tiao.Position(), depth=3).book


@pytest.mark.parametrize("ballot", [
    ["9-13", "21-17", "5-9"],      # ACF 1
    ["11-15", "23-19", "8-11"],    # the "Old Fourteenth" ballot line
    ["12-16", "24-20", "10-15"],   # ACF 174
])
def test_english_ballots_are_answered_from_the_book(ballot):
    engine = tiao.Engine("english", hash_mb=4)
    p = tiao.Position("english", moves=ballot)
    assert engine.book_moves(p)
    assert engine.analyse(p, depth=4).book
    # The same position as a FEN alone (no moves): in the book too.
    a = engine.analyse(p.fen, depth=4)
    assert a.book and a.best_move in p.legal_moves()
