//! Scripted Hub sessions with the `tiao` binary: the handshake, parameters, positions of every
//! variant (start, 8x8 `pos=` strings, FEN), searches with each kind of `level`, `new-game`, and
//! the answers to bad commands.

use crate::hub_common::{Engine, PATIENCE, tokens, value};
use std::time::{Duration, Instant};

const START_10: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
const START_8: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

/// The `done` move, checked to be legal in the position searched.
fn done_move(e: &mut Engine, legal: &[String], done: &str) -> String {
    let toks = tokens(done);
    assert_eq!(toks[0].0, "move", "move= comes first: {done}");
    let m = toks[0].1.clone().unwrap();
    assert!(legal.contains(&m), "{m} is not legal: {legal:?}");
    if toks.len() > 1 {
        assert_eq!(toks[1].0, "ponder", "{done}");
    }
    assert!(e.seen.last().is_some_and(|l| l == done));
    m
}

#[test]
fn handshake_declares_key_value_tokens_only() {
    let mut e = Engine::hub();
    e.send("hub");
    let (_, lines) = e.until("wait", PATIENCE);
    assert!(
        lines[0].starts_with("id name=tiao version="),
        "{}",
        lines[0]
    );
    for l in &lines {
        assert!(l.starts_with("id ") || l.starts_with("param "), "{l}");
        // pydraughts splits every token on '=' into exactly a key and a value.
        for (k, v) in tokens(l) {
            let v = v.unwrap_or_else(|| panic!("flag '{k}' in '{l}'"));
            assert!(!v.contains('='), "{l}");
        }
    }
    let variant = lines
        .iter()
        .find(|l| value(l, "name").as_deref() == Some("variant"))
        .expect("a variant parameter");
    assert_eq!(value(variant, "type").as_deref(), Some("enum"));
    assert_eq!(value(variant, "value").as_deref(), Some("normal"));
    let values = value(variant, "values").unwrap();
    for v in ["normal", "brazilian", "russian", "duoyibu", "english"] {
        assert!(values.split(' ').any(|x| x == v), "{values}");
    }
    for p in ["threads", "hash", "draw-rules"] {
        assert!(
            lines.iter().any(|l| value(l, "name").as_deref() == Some(p)),
            "{p}"
        );
    }
    // set-param before init, init, set-param after init, hub again shows the values.
    e.send("set-param name=threads value=2");
    e.send("init");
    e.expect("ready");
    e.send("set-param name=hash value=16");
    e.send("set-param name=variant value=russian");
    e.send("set-param name=move-overhead value=150");
    e.send("set-param name=contempt value=-30");
    // Beyond the declared range: an error naming it, and the value stays.
    e.send("set-param name=contempt value=500");
    let refused = e.expect("error");
    assert!(refused.contains("-200..=200"), "{refused}");
    e.send("hub");
    let (_, again) = e.until("wait", PATIENCE);
    let param = |name: &str| {
        again
            .iter()
            .find(|l| value(l, "name").as_deref() == Some(name))
            .and_then(|l| value(l, "value"))
            .unwrap()
    };
    assert_eq!(param("threads"), "2");
    assert_eq!(param("hash"), "16");
    assert_eq!(param("variant"), "russian");
    assert_eq!(param("move-overhead"), "150");
    assert_eq!(param("contempt"), "-30");
    let contempt = again
        .iter()
        .find(|l| value(l, "name").as_deref() == Some("contempt"))
        .unwrap();
    assert_eq!(
        value(contempt, "min").as_deref(),
        Some("-200"),
        "{contempt}"
    );
    e.quit();
}

#[test]
fn move_overhead_reaches_the_time_manager() {
    let mut e = Engine::hub();
    e.send("set-param name=move-overhead value=400");
    e.send("init");
    e.expect("ready");
    e.send("pos start");
    // A clock keeps one overhead back for this move and for each of the 30 moves assumed to
    // remain in sudden death: 31 x 400 ms = 12.4 s. A 10-second clock is below that: a zero
    // budget, the first iteration only, whatever the machine's speed. (With the default 20 ms
    // overhead the same clock leaves about 0.3 s. Under a fixed move time the overhead kept is
    // at most a tenth of it: src/search/time.rs's tests.)
    e.send("level time=10");
    let (done, infos) = e.go("think");
    assert!(value(&done, "move").is_some(), "{done}");
    let depths: Vec<String> = infos.iter().filter_map(|l| value(l, "depth")).collect();
    assert_eq!(depths, ["1"], "{infos:?}");
    e.send("hub");
    let (_, params) = e.until("wait", PATIENCE);
    assert!(
        params
            .iter()
            .any(|l| l.contains("name=move-overhead value=400")),
        "{params:?}"
    );
    e.quit();
}

#[test]
fn bare_binary_runs_the_loop_and_help_still_works() {
    let mut e = Engine::start(&[]);
    e.send("hub");
    e.until("wait", PATIENCE);
    e.quit();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tiao"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("hub"));
}

#[test]
fn every_level_kind_gives_a_legal_move() {
    let mut e = Engine::hub();
    e.send("init");
    e.expect("ready");
    e.send(&format!("pos pos={START_10} moves=\"32-28 19-23\""));
    let legal = e.legal_moves();
    assert_eq!(legal, ["28x19x23"]);
    // A single legal move is answered at once, without searching.
    e.send("level depth=30");
    let (done, _) = e.go("think");
    assert_eq!(done_move(&mut e, &legal, &done), "28x19x23");

    e.send("pos start");
    let legal = e.legal_moves();
    // depth
    e.send("level depth=5");
    let (done, infos) = e.go("think");
    done_move(&mut e, &legal, &done);
    let depths: Vec<u32> = infos
        .iter()
        .filter_map(|l| value(l, "depth"))
        .map(|d| d.parse().unwrap())
        .collect();
    assert_eq!(depths.last(), Some(&5), "{infos:?}");
    for l in &infos {
        let toks = tokens(l);
        let keys: Vec<&str> = toks.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(&keys[..2], ["depth", "mean-depth"], "{l}");
        assert!(keys.contains(&"score") && keys.contains(&"nodes") && keys.contains(&"pv"));
        let score: f64 = value(l, "score").unwrap().parse().unwrap();
        assert!(score.abs() < 80.0, "{l}");
        let s = value(l, "score").unwrap();
        assert_eq!(
            s.split('.').nth(1).map(str::len),
            Some(2),
            "two decimals: {l}"
        );
    }
    // nodes
    e.send("level nodes=20000");
    let (done, _) = e.go("think");
    done_move(&mut e, &legal, &done);
    // move-time, a clock with increment (above the sudden-death reserve of 31 move overheads,
    // 620 ms, below which a move is a depth-1 search), a clock with moves to go, and a clock below
    // the increment (pydraughts then sends a negative time): each answered by itself with a legal
    // move (the budgets are src/search/time.rs's tests; how much of them is used, docs/strength.md).
    for level in [
        "move-time=0.3",
        "time=1 inc=0.1",
        "moves=2 time=0.4",
        "time=-0.01 inc=0.05",
    ] {
        e.send(&format!("level {level}"));
        let (done, _) = e.go("think");
        done_move(&mut e, &legal, &done);
    }
    // analyze with a depth: a single legal move is searched too
    e.send(&format!("pos pos={START_10} moves=\"32-28 19-23\""));
    e.send("level depth=3");
    let (done, infos) = e.go("analyze");
    assert!(!infos.is_empty());
    assert!(done.starts_with("done move=28x19x23"));
    e.quit();
}

#[test]
fn level_applies_to_the_next_search_only() {
    let mut e = Engine::hub();
    e.send("level depth=2");
    e.send("pos start"); // `pos` keeps the pending level
    let (_, infos) = e.go("think");
    assert_eq!(value(infos.last().unwrap(), "depth").as_deref(), Some("2"));
    // The level was used: the next search has no limit until `stop`.
    e.send("go think");
    let t = Instant::now();
    while let Some(l) = e.next_line(Duration::from_millis(300).saturating_sub(t.elapsed())) {
        assert!(l.starts_with("info "), "{l}");
    }
    e.send("stop");
    e.until("done", PATIENCE);
    e.quit();
}

#[test]
fn every_variant_start_position() {
    let mut e = Engine::hub();
    for (variant, hub, count, fen) in [
        ("normal", START_10, 9, "W:W31-50:B1-20"),
        ("international", START_10, 9, "W:W31-50:B1-20"),
        (
            "brazilian",
            START_8,
            7,
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        ),
        (
            "russian",
            START_8,
            7,
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        ),
        (
            "duoyibu",
            START_8,
            7,
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        ),
        (
            "english",
            "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            7,
            "B:W21-32:B1-12",
        ),
        (
            "american",
            "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            7,
            "B:W21-32:B1-12",
        ),
    ] {
        e.send(&format!("set-param name=variant value={variant}"));
        e.send("pos start");
        let start = e.fen();
        let legal = e.legal_moves();
        assert_eq!(legal.len(), count, "{variant}");
        e.send(&format!("pos pos={hub}"));
        assert_eq!(e.fen(), start, "{variant}: the Hub string is the start");
        e.send(&format!("pos fen=\"{fen}\""));
        assert_eq!(e.fen(), start, "{variant}: the FEN is the start");
        e.send("level depth=4");
        let (done, _) = e.go("think");
        let m = done_move(&mut e, &legal, &done);
        // Moves are written with square numbers on every board.
        assert!(
            m.chars()
                .all(|c| c.is_ascii_digit() || c == '-' || c == 'x'),
            "{m}"
        );
        e.send(&format!("pos start moves=\"{m}\""));
        assert_ne!(e.fen(), start);
    }
    assert!(e.sync().is_empty(), "no error on the way");
    e.quit();
}

/// Nine Men's Morris through the same commands: its start, a position string, moves with the
/// removal joined or as its own token, and a mill taken at once.
#[test]
fn morris_session() {
    let mut e = Engine::hub();
    e.send("set-param name=variant value=morris");
    e.send("pos start");
    assert_eq!(e.fen(), "W:W:B:H9,9:R0");
    assert_eq!(e.legal_moves().len(), 24, "24 empty points to place on");
    e.send("pos start moves=\"d6 f4 d5 b4 d7 xb4\"");
    assert_eq!(
        e.fen(),
        "B:Wd5,d6,d7:Bf4:H6,7:R0",
        "the mill d7-d6-d5 took b4"
    );
    e.send("pos start moves=\"d6 f4 d5 b4 d7xb4\"");
    assert_eq!(e.fen(), "B:Wd5,d6,d7:Bf4:H6,7:R0");
    e.send("pos fen=\"W:Wa7,d7,g4,b2:Bd1,f2,c5:H0,0:R0\"");
    let legal = e.legal_moves();
    e.send("level depth=3");
    let (done, infos) = e.go("think");
    let m = done_move(&mut e, &legal, &done);
    assert!(m.starts_with("g4-g7x"), "closes the mill a7-d7-g7: {m}");
    let last = infos
        .iter()
        .rev()
        .find(|l| l.starts_with("info"))
        .expect("an info line");
    assert_eq!(value(last, "score").as_deref(), Some("99.99"), "{last}");
    assert!(e.sync().is_empty(), "no error on the way");
    e.quit();
}

#[test]
fn eight_by_eight_and_fen_positions() {
    let mut e = Engine::hub();
    e.send("set-param name=variant value=russian");
    // Square 1 = b8: a white man on 22 (c3), a black man on 11 (f6), White to move; the move
    // 22-18 is c3-d4, and algebraic forms are read too.
    let mut hub = vec!['e'; 32];
    hub[21] = 'w';
    hub[10] = 'b';
    let hub: String = std::iter::once('W').chain(hub).collect();
    e.send(&format!("pos pos={hub} moves=\"22-18 f6-e5\""));
    assert_eq!(e.fen(), "W:Wd4:Be5");
    assert_eq!(e.legal_moves(), ["18x11x15"]);
    // English, numbered as its official numbering (Black on 1-12 moves first).
    e.send("set-param name=variant value=english");
    e.send("pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 24-19\"");
    e.send("legal-moves");
    let l = e.expect("legal-moves");
    assert_eq!(value(&l, "moves").as_deref(), Some("15x24x19"));
    // International from a FEN (ranges, kings, trailing dot), with moves.
    e.send("set-param name=variant value=normal");
    e.send("pos fen=\"W:WK46,31-33:B1-3,K5.\" moves=\"46-37 5-14\"");
    assert_eq!(e.fen(), "W:W31,32,33,K37:B1,2,3,K14");
    e.send("level depth=3");
    let legal = e.legal_moves();
    let (done, _) = e.go("think");
    done_move(&mut e, &legal, &done);
    // The spec's own example position.
    e.send("pos pos=BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee");
    assert_eq!(e.fen(), "B:WK4,K5,25,35,36:BK38,K48");
    e.quit();
}

#[test]
fn pydraughts_numbering_for_eight_by_eight() {
    let mut e = Engine::hub();
    e.send("set-param name=variant value=russian");
    e.send("set-param name=numbering-8x8 value=pydraughts");
    // pydraughts' 10-14 is c3-d4; its replies are numbered the same way.
    e.send(&format!("pos pos={START_8} moves=\"10-14\""));
    assert!(e.fen().contains("d4"));
    e.send("level depth=3");
    let legal = e.legal_moves();
    assert!(legal.iter().all(|m| {
        let from: u32 = m.split(['-', 'x']).next().unwrap().parse().unwrap();
        from > 20 // Black's men are on 21-32 in pydraughts' numbering
    }));
    let (done, _) = e.go("think");
    done_move(&mut e, &legal, &done);
    // An illegal move names what was sent and how it was read.
    e.send(&format!("pos pos={START_8} moves=\"10-15\""));
    let err = e.expect("error");
    assert!(err.contains("'10-15'") && err.contains("22-19"), "{err}");
    // English: the position string is turned and recoloured, the moves are official.
    e.send("set-param name=variant value=english");
    e.send(&format!("pos pos={START_8} moves=\"11-15\""));
    assert_eq!(
        e.fen(),
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    );
    e.quit();
}

#[test]
fn new_game_and_repeated_searches() {
    let mut e = Engine::hub();
    e.send("set-param name=threads value=1");
    e.send("new-game");
    e.send("level depth=6");
    let (first, _) = e.go("think");
    e.send("new-game");
    e.send("level depth=6");
    let (second, _) = e.go("think");
    assert_eq!(
        first, second,
        "one thread from an empty table is deterministic"
    );
    e.quit();
}

#[test]
fn bad_commands_are_answered_and_change_nothing() {
    let mut e = Engine::hub();
    e.send("set-param name=variant value=russian");
    e.send("pos start moves=\"c3-d4\"");
    let before = e.fen();
    for (line, needle) in [
        ("frobnicate", "unknown command 'frobnicate'"),
        ("pos pos=Wbbb", "4 characters, expected 33"),
        (
            "pos pos=Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            "side to move 'X'",
        ),
        ("pos start moves=\"c3-d4 f6-e5 d4-c5\"", "d4-c5"),
        ("pos start moves=\"c3-d4 h6-h5\"", "h6-h5"),
        ("pos fen=\"W:W99:B1\"", "bad position"),
        ("pos start pos=W", "only one"),
        ("set-param name=variant value=frisian", "frisian"),
        ("set-param name=threads value=0", "threads"),
        ("set-param name=hash value=lots", "lots"),
        (
            "set-param name=bb-size value=24",
            "unknown parameter 'bb-size'",
        ),
        ("set-param name=book value=maybe", "maybe"),
        ("set-param name=book-margin value=-1", "book-margin"),
        ("set-param name=variant", "value="),
        ("level depth=deep", "'deep'"),
        ("level time=-", "'-'"),
        ("go think analyze", "only one"),
        ("pos moves=\"unterminated", "unterminated quote"),
        ("", "missing command"),
    ] {
        e.send(line);
        let err = e.expect("error");
        assert!(
            value(&err, "message").unwrap().contains(needle),
            "{line}: {err}"
        );
        assert_eq!(e.fen(), before, "{line} changed the position");
    }
    e.send("hub");
    let (_, params) = e.until("wait", PATIENCE);
    assert!(
        params
            .iter()
            .any(|l| l.contains("name=variant value=russian"))
    );
    assert!(params.iter().any(|l| l.contains("name=threads value=1")));
    e.quit();
}

#[test]
fn no_legal_move_is_an_error_not_a_bare_done() {
    let mut e = Engine::hub();
    // White has no piece left.
    e.send("pos fen=\"W:W:B1\"");
    e.send("level depth=3");
    e.send("go think");
    let err = e.expect("error");
    assert!(err.contains("no legal move"), "{err}");
    // Blocked: a white man on 46 behind black men it cannot take.
    e.send("pos fen=\"W:W46:B41,37\"");
    e.send("go think");
    e.expect("error");
    // The level is still pending for the next search.
    e.send("pos start");
    let (_, infos) = e.go("think");
    assert_eq!(value(infos.last().unwrap(), "depth").as_deref(), Some("3"));
    e.quit();
}

#[test]
fn a_won_position_scores_as_a_win() {
    let mut e = Engine::hub();
    // White takes the last black piece: a win in 1 ply, 99.99.
    e.send("pos fen=\"W:W28:B23\"");
    e.send("level depth=4");
    e.send("go analyze");
    let (done, infos) = e.until("done", PATIENCE);
    assert!(done.starts_with("done move=28x19x23"), "{done}");
    assert_eq!(
        value(infos.last().unwrap(), "score").as_deref(),
        Some("99.99")
    );
    e.quit();
}

#[test]
fn a_table_beyond_the_memory_available_is_an_error_and_the_engine_goes_on() {
    // The test-only cap of `tiao::memory`: tiao believes 100 MiB are available.
    let mut e = Engine::start_env(&["hub"], &[("TIAO_MEMORY_MIB", "100")]);
    e.send("init");
    e.expect("ready");
    for mib in ["65536", "200"] {
        e.send(&format!("set-param name=hash value={mib}"));
        let err = e.expect("error");
        assert!(err.contains(&format!("{mib} MiB requested")), "{err}");
        assert!(err.contains("100 MiB"), "{err}");
    }
    // The table is still the default one, and the engine searches with it.
    e.send("hub");
    let (_, params) = e.until("wait", PATIENCE);
    let hash = params
        .iter()
        .find(|l| value(l, "name").as_deref() == Some("hash"))
        .unwrap();
    assert_eq!(value(hash, "value").as_deref(), Some("64"), "{hash}");
    e.send("set-param name=hash value=32");
    e.send("level depth=4");
    let (done, _) = e.go("think");
    assert!(value(&done, "move").is_some(), "{done}");
    e.quit();
}

#[test]
fn a_fen_with_unknown_or_missing_fields_is_an_error_naming_it() {
    let mut e = Engine::hub();
    e.send("pos fen=\"W:W28:B19\"");
    for (fen, needle) in [
        ("W:X31-50:Y1-20", "'X31-50'"),
        ("W:W31-50:B1-20:Z", "'Z'"),
        ("W", "no pieces"),
        ("W:W31-50:W1-20", "'W1-20'"),
    ] {
        e.send(&format!("pos fen=\"{fen}\""));
        let err = e.expect("error");
        assert!(err.contains(needle), "{fen}: {err}");
    }
    // The position stays; what PDN allows is read.
    e.send("get-pos");
    assert_eq!(value(&e.expect("pos"), "fen").as_deref(), Some("W:W28:B19"));
    e.send("pos fen=\"w:w31-50:b1-20:H0:F1\"");
    e.send("get-pos");
    let fen = value(&e.expect("pos"), "fen").unwrap();
    assert!(
        fen.starts_with("W:W31,32,") && fen.ends_with(",19,20"),
        "{fen}"
    );
    e.quit();
}
