"""Searches: a legal best move in every game, stop() from another thread, batches, bad input.

No test measures time: a stop is checked by what it does (the search ends, with a legal move),
never by how long it takes. The joins have a generous bound only so that a broken stop fails the
test instead of hanging the run."""

import _thread
import signal
import threading

import pytest

import tiao
from conftest import ALL_VARIANTS, random_game

# Only against a hang: a working stop ends the search within milliseconds.
HANG = 300


def test_analysis_returns_a_legal_best_move(variant):
    # Without the book: a random game may pass through a book position (test_book.py).
    engine = tiao.Engine(variant, hash_mb=8, book=False)
    for seed in range(3):
        p = random_game(variant, f"analyse {seed}", 6 + 7 * seed)
        if p.is_over():
            continue
        a = engine.analyse(p, depth=5)
        assert a.best_move in p.legal_moves()
        assert a.pv and a.pv[0] == a.best_move
        assert a.best_move_pdn == p.legal_moves("pdn")[p.legal_moves().index(a.best_move)]
        assert a.depth >= 1 and a.nodes > 0 and a.time >= 0
        assert a.fen == p.fen and a.turn == p.turn
        assert (a.score is None) != (a.win_in is None and a.loss_in is None)
        # The line is playable.
        q = p.copy()
        for m in a.pv:
            q.push(m)
        d = a.to_dict()
        assert d["best_move"] == a.best_move and d["pv"] == a.pv
        assert repr(a).startswith("<Analysis")


def test_limits_by_nodes_and_movetime_and_fen_strings():
    engine = tiao.Engine("russian", hash_mb=4)
    p = tiao.Position("russian")
    a = engine.analyse(p.fen, nodes=3000)
    assert a.best_move in p.legal_moves()
    a = engine.analyse(p, movetime=0.05)
    assert a.best_move in p.legal_moves()


def test_on_info_sees_each_iteration_and_can_stop_it():
    engine = tiao.Engine("international", hash_mb=8, book=False)
    seen = []
    a = engine.analyse(tiao.Position(), depth=6, on_info=seen.append)
    assert [i.depth for i in seen] == list(range(1, 7))
    assert seen[-1].best_move == a.best_move

    class Enough(Exception):
        pass

    def stop_at_3(info):
        if info.depth == 3:
            raise Enough

    with pytest.raises(Enough):
        engine.analyse(tiao.Position(), on_info=stop_at_3)
    assert not engine.searching


def test_proven_results_and_lost_positions():
    engine = tiao.Engine("international", hash_mb=4)
    a = engine.analyse("W:WK46:B5", depth=8)
    assert a.score is None and a.win_in is not None and a.loss_in is None
    assert a.score_text.startswith("win in")
    lost = tiao.Position("international", "W:W:B1")
    a = engine.analyse(lost, depth=4)
    assert a.best_move is None and a.pv == [] and a.loss_in == 0


def test_stop_from_another_thread_ends_an_infinite_search():
    engine = tiao.Engine("international", threads=2, hash_mb=16)
    p = tiao.Position()
    started = threading.Event()
    out = {}

    def search():
        out["analysis"] = engine.analyse(p, on_info=lambda i: started.set())

    t = threading.Thread(target=search)
    t.start()
    # The search reports its first iteration, then runs on until stopped: no limit was given.
    assert started.wait(HANG)
    assert engine.searching
    engine.stop()
    t.join(HANG)
    assert not t.is_alive(), "stop() did not end the search"
    a = out["analysis"]
    assert a.best_move in p.legal_moves() and a.depth >= 1
    assert not engine.searching
    # The engine goes on working.
    assert engine.analyse(p, depth=3).best_move in p.legal_moves()


def test_ctrl_c_ends_a_search():
    engine = tiao.Engine("international", hash_mb=8, book=False)

    def interrupt(info):
        # As if Ctrl-C were pressed during the search (the test runs on the main thread).
        if info.depth == 2:
            _thread.interrupt_main()

    # Python's own Ctrl-C handler, also where the run was started with SIGINT ignored (a
    # background job); and a node limit, so that a broken interrupt fails instead of hanging.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            engine.analyse(tiao.Position(), nodes=500_000_000, on_info=interrupt)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert not engine.searching
    assert engine.analyse(tiao.Position(), depth=2).best_move is not None


def test_a_second_search_on_a_busy_engine_raises():
    engine = tiao.Engine("english", hash_mb=4)
    started = threading.Event()
    t = threading.Thread(target=lambda: engine.analyse(tiao.Position("english"),
                                                       on_info=lambda i: started.set()))
    t.start()
    try:
        assert started.wait(HANG)
        with pytest.raises(tiao.BusyError):
            engine.analyse(tiao.Position("english"), depth=2)
    finally:
        engine.stop()
        t.join(HANG)
    assert not t.is_alive()


def test_analyse_many_in_order_and_independent_of_threads():
    positions = [random_game("international", f"batch {i}", 4 + i) for i in range(8)]
    positions.append(positions[0].fen)  # a FEN string too
    results = []
    for threads in (1, 2):
        engine = tiao.Engine("international", threads=threads, hash_mb=16)
        batch = engine.analyse_many(positions, depth=5)
        assert len(batch) == len(positions)
        for p, a in zip(positions, batch):
            fen = p if isinstance(p, str) else p.fen
            assert a.fen == fen and a.depth == 5
            legal = tiao.Position("international", fen).legal_moves()
            assert a.best_move in legal
        results.append([(a.best_move, a.score, a.nodes, a.pv) for a in batch])
        assert engine.analyse_many([], depth=5) == []
    # With a depth limit and an empty table per search, the results are the same whatever the
    # number of threads.
    assert results[0] == results[1]


def test_stop_ends_a_batch_early():
    engine = tiao.Engine("brazilian", threads=2, hash_mb=8)
    # Far more work than the test waits for: only a stop ends it early.
    positions = [random_game("brazilian", f"long batch {i}", 6) for i in range(10)] * 10_000
    first = threading.Event()
    out = {}

    def run():
        out["batch"] = engine.analyse_many(positions, depth=7)

    t = threading.Thread(target=run)
    t.start()
    # Stop once the batch is running.
    while not engine.searching and t.is_alive():
        first.wait(0.01)
    engine.stop()
    t.join(HANG)
    assert not t.is_alive()
    batch = out["batch"]
    assert len(batch) < len(positions)
    for p, a in zip(positions, batch):
        assert a.fen == p.fen and a.best_move in p.legal_moves()
    # The engine goes on working.
    assert len(engine.analyse_many(positions[:4], depth=3)) == 4


def test_engine_options():
    engine = tiao.Engine("russian", threads=2, hash_mb=8, draw_rules="fmjd")
    assert (engine.variant, engine.threads, engine.hash_mb, engine.draw_rules) == (
        "russian", 2, 8, "fmjd")
    assert repr(engine) == "Engine('russian', threads=2, hash_mb=8)"
    engine.set_option("threads", 1)
    engine.set_option("hash", "4")
    assert (engine.threads, engine.hash_mb) == (1, 4)
    engine.new_game()
    with pytest.raises(tiao.OptionError, match="threads"):
        engine.set_option("threads", 0)
    with pytest.raises(tiao.OptionError):
        engine.set_option("no-such-option", 1)
    assert engine.threads == 1


def test_bad_engine_input_raises():
    with pytest.raises(tiao.VariantError):
        tiao.Engine("frisian")
    with pytest.raises(tiao.OptionError, match="threads"):
        tiao.Engine(threads=0)
    with pytest.raises(tiao.OptionError, match="hash_mb"):
        tiao.Engine(hash_mb=0)
    with pytest.raises(tiao.OptionError, match="hash_mb"):
        tiao.Engine(hash_mb=1 << 20)
    # A table larger than the memory available: the engine's message, nothing allocated.
    with pytest.raises(tiao.OptionError, match="MiB"):
        tiao.Engine(hash_mb=65536) if _less_memory_than(65536) else tiao.Engine(hash_mb=1 << 17)
    engine = tiao.Engine("international", hash_mb=1)
    p = tiao.Position()
    for kw in ({"depth": 0}, {"depth": 128}, {"nodes": 0}, {"movetime": 0.0},
               {"movetime": -1.0}, {"movetime": float("nan")}, {"movetime": float("inf")}):
        with pytest.raises(tiao.OptionError):
            engine.analyse(p, **kw)
    with pytest.raises(tiao.VariantError, match="engine plays international"):
        engine.analyse(tiao.Position("morris"), depth=2)
    with pytest.raises(tiao.FenError):
        engine.analyse("W:W99", depth=2)
    with pytest.raises(TypeError):
        engine.analyse(42, depth=2)
    with pytest.raises(tiao.OptionError, match="needs a limit"):
        engine.analyse_many([p])
    with pytest.raises(tiao.FenError, match="position 1"):
        engine.analyse_many([p, "W:W99"], depth=2)


def _less_memory_than(mib):
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024 < mib
    except OSError:
        pass
    return True


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_every_game_plays_a_short_game_against_itself(variant):
    engine = tiao.Engine(variant, hash_mb=4)
    p = tiao.Position(variant)
    for _ in range(12):
        if p.is_over():
            break
        a = engine.analyse(p, depth=3)
        p.push(a.best_move)
    assert len(p.moves) > 0
