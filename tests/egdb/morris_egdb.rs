//! Nine Men's Morris endgame tables built in the test run: hand-checked values, symmetry, the
//! verify pass, and agreement with the search.

use rayon::prelude::*;
use std::sync::{Arc, OnceLock};
use tiao::egdb::morris::index::Sector;
use tiao::egdb::morris::solve::{Solved, solve_pair};
use tiao::egdb::morris::value::Value;
use tiao::game::color::Color;
use tiao::game::{Game, MoveList};
use tiao::morris::MorrisPosition;

/// Every sector of up to 9 pieces, solved in memory once for the whole test program (the tests
/// that need fewer pieces read the same values).
fn solved() -> &'static Solved {
    static SOLVED: OnceLock<Solved> = OnceLock::new();
    SOLVED.get_or_init(|| solve_up_to(9))
}

/// Solves every sector of `pieces` in total or fewer.
fn solve_up_to(pieces: u8) -> Solved {
    let mut solved = Solved::new();
    for total in 6..=pieces {
        for a in 3..=9u8 {
            let b = total as i32 - a as i32;
            if !(3..=9).contains(&b) || (b as u8) < a {
                continue;
            }
            let out = solve_pair(Sector::new(a, b as u8), &solved, &|_| {}).unwrap();
            for s in out {
                solved.insert(s.sector, Arc::new(s.values));
            }
        }
    }
    solved
}

/// The position of slot `i` of `sector`, White to move.
fn position(sector: Sector, i: u64) -> MorrisPosition {
    let (stm, opp) = sector.position(i);
    MorrisPosition::new(stm, opp, [0, 0], Color::White, 0).unwrap()
}

/// The same pair solved the slow way, by the game's own move generator: rounds of "won if a move
/// reaches a lost position, lost if every move reaches a won one" until nothing changes, the
/// round number giving the distance.
fn naive_pair(sector: Sector, below: &Solved) -> Vec<(Sector, Vec<u8>)> {
    let pair = if sector.stm == sector.opp {
        vec![sector]
    } else {
        vec![sector, sector.mirror()]
    };
    let mut values: Vec<Vec<Option<Value>>> =
        pair.iter().map(|s| vec![None; s.size() as usize]).collect();
    let lookup = |values: &Vec<Vec<Option<Value>>>, q: &MorrisPosition| -> Option<Value> {
        let stm = q.pieces(q.side());
        let opp = q.pieces(!q.side());
        let s = Sector::new(stm.count_ones() as u8, opp.count_ones() as u8);
        match pair.iter().position(|&p| p == s) {
            Some(k) => values[k][s.index(stm, opp) as usize],
            None => below.value(stm, opp),
        }
    };
    for round in 0u32.. {
        let next: Vec<Vec<Option<Value>>> = pair
            .iter()
            .enumerate()
            .map(|(k, &s)| {
                (0..s.size())
                    .into_par_iter()
                    .map(|i| {
                        if let Some(v) = values[k][i as usize] {
                            return Some(v);
                        }
                        if s.is_hole(i) {
                            return Some(Value::Draw);
                        }
                        let p = position(s, i);
                        let mut list = MoveList::default();
                        p.generate(&mut list);
                        if round == 0 {
                            // Only the blocked are decided before any move is looked at.
                            return list.is_empty().then_some(Value::Loss(0));
                        }
                        let mut all_won = true;
                        for m in list.iter() {
                            let q = p.make(m);
                            let mut replies = MoveList::default();
                            q.generate(&mut replies);
                            let v = if replies.is_empty() {
                                Some(Value::Loss(0))
                            } else {
                                lookup(&values, &q)
                            };
                            match v {
                                Some(Value::Loss(_)) => return Some(Value::Win(round)),
                                Some(Value::Win(_)) => {}
                                _ => all_won = false,
                            }
                        }
                        all_won.then_some(Value::Loss(round))
                    })
                    .collect()
            })
            .collect();
        if next == values {
            break;
        }
        values = next;
    }
    pair.iter()
        .zip(values)
        .map(|(&s, v)| {
            (
                s,
                v.into_iter()
                    .map(|x| x.unwrap_or(Value::Draw).encode())
                    .collect(),
            )
        })
        .collect()
}

/// Checks the solver against [`naive_pair`] on `sectors`, solved in this order.
fn agree_with_naive(sectors: &[Sector]) {
    let mut solved = Solved::new();
    for &sector in sectors {
        let fast = solve_pair(sector, &solved, &|_| {}).unwrap();
        let slow = naive_pair(sector, &solved);
        for (f, (s, v)) in fast.into_iter().zip(slow) {
            assert_eq!(f.sector, s);
            let bad = (0..v.len()).filter(|&i| f.values[i] != v[i]).count();
            if bad > 0 {
                let i = (0..v.len()).find(|&i| f.values[i] != v[i]).unwrap();
                panic!(
                    "{s:?}: {bad} values differ, first {} fast {:?} naive {:?}",
                    position(s, i as u64),
                    Value::decode(f.values[i]),
                    Value::decode(v[i])
                );
            }
            solved.insert(s, Arc::new(f.values));
        }
    }
}

/// 3 against 3, both flying: values and distances as the naive rounds find them.
#[test]
fn three_against_three_agrees_with_a_naive_solution() {
    agree_with_naive(&[Sector::new(3, 3)]);
}

/// 3 against 4 and 4 against 3 too (a minute: run with `--ignored`).
#[test]
#[ignore]
fn three_against_four_agrees_with_a_naive_solution() {
    agree_with_naive(&[Sector::new(3, 3), Sector::new(3, 4)]);
}

fn pos(s: &str) -> MorrisPosition {
    MorrisPosition::from_fen(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Positions whose values are worked out by hand (in the comments), in sectors of up to 8 pieces.
#[test]
fn hand_checked_values() {
    let t = solved();
    let v = |s: &str| {
        t.probe(&pos(s))
            .unwrap_or_else(|| panic!("{s} not covered"))
    };
    // 3 against 3: a7 and d7 with g7 empty; g1 flies to g7, the mill leaves Black 2 pieces.
    assert_eq!(v("W:Wa7,d7,g1:Bb6,d2,f4:H0,0:R0"), Value::Win(1));
    // Black threatens g7 (a4 flies there) and a1 (d7 flies there); White has no two in a row and
    // can block one: lost in 2 plies. With Black to move, Black mills at once.
    assert_eq!(v("W:Wc5,e3,b2:Ba7,d7,a4:H0,0:R0"), Value::Loss(2));
    assert_eq!(v("B:Wc5,e3,b2:Ba7,d7,a4:H0,0:R0"), Value::Win(1));
    // 4 against 4: a1, a4, a7 and d1 have no empty neighbour (b4, d7, g1, d2 are Black's):
    // White, to move, is blocked and has lost.
    assert_eq!(v("W:Wa1,a4,a7,d1:Bb4,d7,g1,d2:H0,0:R0"), Value::Loss(0));
    // One move from a forced mill: d5-d6 threatens d6-d7 (a7-d7-g7) and f4-f6 (b6-d6-f6); Black
    // (flying, no two in a row) blocks one, White closes the other: a win in 3 plies.
    let before = pos("W:Wa7,g7,d5,b6,f4:Bc3,e4,a1:H0,0:R0");
    assert_eq!(t.probe(&before), Some(Value::Win(3)));
    let after = before.make(&before.parse_move("d5-d6").unwrap());
    assert_eq!(t.probe(&after), Some(Value::Loss(2)));
    // Pieces in hand are not covered.
    assert_eq!(t.probe(&pos("W:Wa7,d7,g1:Bb6,d2,f4:H1,1:R0")), None);
}

/// A fresh directory under the system's temporary directory.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tiao-morris-egdb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Builds the tables of up to `pieces` pieces under `dir`.
fn build(dir: &std::path::Path, pieces: u8) {
    let b = tiao::egdb::morris::build::MorrisBuilder::new(dir, pieces, (0, 1));
    tiao::egdb::driver::build(&b, false, &mut |_| {}).unwrap();
}

/// The 16 images of a position, colours swapped too (the side to move goes with them).
fn images(p: &MorrisPosition) -> Vec<MorrisPosition> {
    use tiao::egdb::morris::symmetry::apply;
    let mut out = Vec::new();
    for s in 0..16 {
        let (w, b) = (
            apply(s, p.pieces(Color::White)),
            apply(s, p.pieces(Color::Black)),
        );
        out.push(MorrisPosition::new(w, b, [0, 0], p.side(), 0).unwrap());
        out.push(MorrisPosition::new(b, w, [0, 0], !p.side(), 0).unwrap());
    }
    out
}

/// Built on disk, verified, reopened and probed: every pair verifies, a position and its 32
/// images (16 symmetries, colours swapped) probe alike, a second build skips everything, and a
/// damaged value is caught by the verify pass.
#[test]
fn built_tables_verify_and_probe_symmetrically() {
    use tiao::egdb::morris::build::{Builder, pairs};
    use tiao::egdb::morris::probe::search_distance;
    use tiao::egdb::morris::verify::verify_sector;
    let dir = temp_dir("verify");
    build(&dir, 8);
    let builder = Builder::new(&dir);
    for pair in pairs(8, (0, 1)) {
        let c = builder.verify_pair(pair, &|_| {}).unwrap();
        assert_eq!(c.errors, 0, "{pair:?}: {:?}", c.examples);
        assert!(c.checked > 0);
    }
    // Resumable: nothing left to build.
    let mut rebuilt = 0;
    let b = tiao::egdb::morris::build::MorrisBuilder::new(&dir, 8, (0, 1));
    tiao::egdb::driver::build(&b, false, &mut |r| rebuilt += !r.skipped as usize).unwrap();
    let v = tiao::egdb::driver::verify(&b, false, &mut |_, _| {}).unwrap();
    assert_eq!((v.errors, v.checked > 0), (0, true));
    assert_eq!(rebuilt, 0);

    let opened = tiao::egdb::morris::probe::open(&dir, tiao::game::Variant::Morris);
    assert!(opened.problems.is_empty(), "{:?}", opened.problems);
    let tables = opened.tables.expect("tables");
    assert_eq!(tables.max_pieces(), 8);
    let solved = solved();
    for fen in [
        "W:Wa7,g7,d5,b6,f4:Bc3,e4,a1:H0,0:R0",
        "B:Wc5,e3,b2:Ba7,d7,a4:H0,0:R7",
        "W:Wa1,a4,a7,d1:Bb4,d7,g1,d2:H0,0:R0",
    ] {
        let p = pos(fen);
        let want = solved.probe(&p).unwrap();
        for q in images(&p) {
            let got = tables.probe(&q).expect("covered");
            let loser = |won: bool| q.on_board(if won { !q.side() } else { q.side() });
            let (wdl, d) = match want {
                Value::Win(d) => (tiao::egdb::Wdl::Win, Some(search_distance(loser(true), d))),
                Value::Loss(d) => (
                    tiao::egdb::Wdl::Loss,
                    Some(search_distance(loser(false), d)),
                ),
                Value::Draw => (tiao::egdb::Wdl::Draw, None),
            };
            assert_eq!((got.wdl, got.distance), (wdl, d), "{q}");
        }
    }
    assert!(
        tables
            .probe(&pos("W:Wa7,d7,g1:Bb6,d2,f4:H1,1:R0"))
            .is_none()
    );
    assert!(
        tables
            .probe(&pos("W:Wa7,d7,g1,b2,b4:Bb6,d2,f4,c3,c4:H0,0:R0"))
            .is_none()
    );

    // Opened with every payload check left for later: nothing answers until the checks ran.
    use tiao::egdb::Probe;
    let (late, _, problems) = tiao::egdb::morris::probe::open_tables_deferring(&dir, 0);
    let late = late.expect("tables");
    assert!(problems.is_empty(), "{problems:?}");
    let p = pos("W:Wa7,g7,d5,b6,f4:Bc3,e4,a1:H0,0:R0");
    assert!(late.probe(&p).is_none());
    assert!(late.check_pending().is_empty());
    let (a, b) = (late.probe(&p).expect("checked"), tables.probe(&p).unwrap());
    assert_eq!((a.wdl, a.distance), (b.wdl, b.distance));

    // A value changed in memory is found by the verify pass.
    let s = Sector::new(3, 3);
    let mut values = tiao::egdb::morris::store::load(&dir, s).unwrap();
    let i = s.index(
        pos("W:Wa7,d7,g1:Bb6,d2,f4").pieces(Color::White),
        pos("W:Wa7,d7,g1:Bb6,d2,f4").pieces(Color::Black),
    ) as usize;
    values[i] = Value::Win(3).encode();
    let c = verify_sector(s, &values, &values.clone(), None, &|_| {});
    assert!(c.errors >= 1, "{c:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Missing, truncated and foreign files are refused with errors naming them; the other sectors
/// still open and the engine plays on.
#[test]
fn bad_files_are_refused() {
    use tiao::egdb::EgdbError;
    use tiao::egdb::morris::probe::open;
    use tiao::game::Variant;
    let missing = open(
        std::path::Path::new("/nonexistent/tiao-tables"),
        Variant::Morris,
    );
    assert!(missing.tables.is_none());
    assert!(matches!(missing.problems[..], [EgdbError::Io { .. }]));

    let dir = temp_dir("bad");
    build(&dir, 7);
    let m = dir.join("morris");
    // A build interrupted in the middle of a file leaves a .tmp: never read.
    std::fs::write(m.join("sector-5-5.wdl.tmp"), b"TIAOEGDB").unwrap();
    // Truncated.
    let f = m.join("sector-3-4.wdl");
    let bytes = std::fs::read(&f).unwrap();
    std::fs::write(&f, &bytes[..bytes.len() / 2]).unwrap();
    // Foreign: another sector's file under this name.
    std::fs::copy(m.join("sector-3-3.dist"), m.join("sector-4-3.dist")).unwrap();
    let o = open(&dir, Variant::Morris);
    assert_eq!(o.problems.len(), 2, "{:?}", o.problems);
    assert!(
        o.problems
            .iter()
            .any(|e| matches!(e, EgdbError::Truncated { .. }))
    );
    assert!(
        o.problems
            .iter()
            .any(|e| matches!(e, EgdbError::Foreign { .. }))
    );
    for e in &o.problems {
        assert!(e.to_string().contains("sector-"), "{e}");
    }
    let t = o.tables.expect("the good sectors still open");
    assert!(t.probe(&pos("W:Wa7,d7,g1:Bb6,d2,f4:H0,0:R0")).is_some());
    assert!(
        t.probe(&pos("W:Wa7,d7,g1:Bb6,d2,f4,a1:H0,0:R0")).is_none(),
        "3-4 was refused"
    );
    // Not Morris: nothing.
    assert!(open(&dir, Variant::International).tables.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A build stopped between a sector's two files never leaves its `.wdl` (by which readers find
/// a sector) without its distances.
#[test]
fn a_sector_appears_with_its_distances_or_not_at_all() {
    use tiao::egdb::EgdbError;
    let dir = temp_dir("write-order");
    let m = dir.join("morris");
    std::fs::create_dir_all(&m).unwrap();
    // The distances of sector 3-3 cannot be written: their `.tmp` name is taken by a directory.
    std::fs::create_dir_all(m.join("sector-3-3.dist.tmp")).unwrap();
    let b = tiao::egdb::morris::build::MorrisBuilder::new(&dir, 6, (0, 1));
    let e = tiao::egdb::driver::build(&b, false, &mut |_| {}).unwrap_err();
    assert!(
        matches!(&e, EgdbError::Io { path, .. } if path.ends_with("sector-3-3.dist")),
        "{e}"
    );
    assert!(
        !m.join("sector-3-3.wdl").exists(),
        "a sector without its distances"
    );
    std::fs::remove_dir(m.join("sector-3-3.dist.tmp")).unwrap();
    build(&dir, 6);
    assert!(m.join("sector-3-3.wdl").exists() && m.join("sector-3-3.dist").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The search agrees with the tables on short wins and losses of 3 against 3 (where every removal
/// ends the game, so the table's distance is the distance to the end).
#[test]
fn search_agrees_with_the_tables() {
    use tiao::search::tt::Tt;
    use tiao::search::{self, ScoreKind};
    let solved = solved();
    let s = Sector::new(3, 3);
    let tt = Tt::new(16);
    let mut found = std::collections::HashMap::new();
    let mut i = 0;
    while i < s.size() {
        if !s.is_hole(i) {
            let p = position(s, i);
            let v = solved.probe(&p).unwrap();
            let key = match v {
                Value::Win(d) if d <= 3 => Some(ScoreKind::Win(d)),
                Value::Loss(d) if d <= 4 => Some(ScoreKind::Loss(d)),
                _ => None,
            };
            if let Some(k) = key {
                let n = found.entry(format!("{k:?}")).or_insert(0);
                if *n < 6 {
                    *n += 1;
                    let r = search::search_to_depth(&p, 6, &tt);
                    assert_eq!(r.score.kind(), k, "{p}");
                }
            }
        }
        i += 1009;
    }
    assert!(found.len() >= 3, "{found:?}");
}

/// The best move by the tables: for the winner the win with the fewest plies to its removal, for
/// the others the move that keeps the best value longest. `None` when the side to move has lost.
fn table_move(t: &Solved, p: &MorrisPosition) -> Option<tiao::morris::Move> {
    let mut list = MoveList::default();
    p.generate(&mut list);
    // Score of a move for the mover: higher is better.
    let score = |m: &tiao::morris::Move| -> i64 {
        let q = p.make(m);
        let mut replies = MoveList::default();
        q.generate(&mut replies);
        if replies.is_empty() {
            return 1000;
        }
        match t.probe(&q).expect("covered") {
            // The opponent lost: a removal wins now; otherwise sooner is better.
            Value::Loss(d) => 1000 - if m.is_removal() { 0 } else { d as i64 + 1 },
            Value::Draw => 0,
            // The opponent wins: later is better, and a removal of ours ends that stretch.
            Value::Win(d) => -1000 + if m.is_removal() { 1 } else { d as i64 + 1 },
        }
    };
    list.iter().copied().max_by_key(score)
}

/// Won endings played out by the tables' moves on both sides: the winner's removal comes within
/// the stored distance every time, so well before the 100-ply rule, and the game ends in the win.
#[test]
fn won_endings_are_converted_before_the_counter() {
    let t = solved();
    let mut played = 0;
    for sector in [
        Sector::new(3, 3),
        Sector::new(4, 4),
        Sector::new(5, 3),
        Sector::new(4, 3),
    ] {
        let mut i = 0;
        while i < sector.size() && played < 60 {
            i += 1009;
            if i >= sector.size() || sector.is_hole(i) {
                continue;
            }
            let start = position(sector, i);
            let Some(Value::Win(d0)) = t.probe(&start) else {
                continue;
            };
            if d0 < 3 {
                continue;
            }
            played += 1;
            let winner = start.side();
            let mut p = start;
            let mut since_removal = 0u32;
            let mut promised = d0;
            let mut fresh = true;
            let mut plies = 0;
            loop {
                if p.side() == winner && fresh {
                    match t.probe(&p) {
                        Some(Value::Win(d)) => promised = since_removal + d,
                        v => panic!("{start}: the winner lost its win at {p}: {v:?}"),
                    }
                    fresh = false;
                }
                let Some(m) = table_move(t, &p) else { break };
                p = p.make(&m);
                plies += 1;
                since_removal += 1;
                if m.is_removal() {
                    assert!(
                        since_removal <= promised,
                        "{start}: removal after {since_removal} plies, promised {promised}"
                    );
                    since_removal = 0;
                    fresh = true;
                }
                assert!(
                    since_removal < 100 && plies < 1000,
                    "{start}: no removal for {since_removal} plies"
                );
            }
            assert_ne!(
                p.side(),
                winner,
                "{start}: the winner is the one without a move at {p}"
            );
        }
    }
    assert!(played >= 40, "{played}");
}

/// Plays the won position `start` out: the engine (depth 4, with `tables`) for the winner,
/// the tables' best defence for the loser; asserts that the winner wins, with neither the
/// 100-ply counter nor a third repetition ending the game first.
fn convert(
    tables: &dyn tiao::egdb::Probe<MorrisPosition>,
    solved: &Solved,
    tt: &tiao::search::tt::Tt,
    start: MorrisPosition,
) {
    use tiao::search::{Control, Limits, SearchOptions, search_with_tables};
    let winner = start.side();
    let mut p = start;
    let mut history: Vec<u64> = Vec::new();
    loop {
        assert!(!p.draw_by_rule(), "{start}: drawn by the counter at {p}");
        assert!(
            history.iter().filter(|&&k| k == p.key()).count() < 2,
            "{start}: third repetition at {p}"
        );
        let m = if p.side() == winner {
            let Some(Value::Win(d)) = solved.probe(&p) else {
                panic!("{start}: the winner's {p} is no longer won")
            };
            tt.clear();
            let r = search_with_tables(
                &p,
                &history,
                &Limits::depth(4),
                &SearchOptions::default(),
                Some(tables),
                tt,
                &Control::new(false),
                None,
                &mut |_| {},
            );
            // Every move of the winner's is the fastest: a removal, or the removal a ply nearer
            // (the loser's distance one less than the winner's had been).
            if let Some(m) = r.best.filter(|m| !m.is_removal()) {
                let q = p.make(&m);
                let mut replies = MoveList::default();
                q.generate(&mut replies);
                if !replies.is_empty() {
                    assert_eq!(
                        solved.probe(&q),
                        Some(Value::Loss(d - 1)),
                        "{start}: at {p} (a win {d} plies from its removal) {m:?} does not \
                         bring the removal nearer"
                    );
                }
            }
            r.best
        } else {
            table_move(solved, &p)
        };
        let Some(m) = m else { break };
        history.push(p.key());
        p = p.make(&m);
        assert!(history.len() < 1000);
    }
    assert_ne!(p.side(), winner, "{start}: the winner lost at {p}");
}

/// The engine, searching with the tables of up to 9 pieces (depth 4), converts won endings against the tables'
/// best defence: it wins every game, each removal within 100 plies of the last (the counter never
/// draws), and never by a third repetition. A win whose removal the counter no longer allows is
/// answered as a draw.
#[test]
fn the_engine_converts_won_endings_with_the_tables() {
    use tiao::search::tt::Tt;
    let dir = temp_dir("convert");
    build(&dir, 9);
    let opened = tiao::egdb::morris::probe::open(&dir, tiao::game::Variant::Morris);
    let tables = opened.tables.expect("tables");
    let solved = solved();
    let tt = Tt::new(16);
    let mut games = 0;
    for (sector, least) in [
        (Sector::new(3, 3), 7),
        (Sector::new(5, 4), 9),
        (Sector::new(6, 3), 5),
        (Sector::new(4, 3), 3),
    ] {
        // Wins at least `least` plies from their removal, evenly spread over the sector.
        let values = solved.get(sector).unwrap();
        let long: Vec<u64> = (0..sector.size())
            .filter(|&i| matches!(Value::decode(values[i as usize]), Value::Win(d) if d >= least))
            .filter(|&i| !sector.is_hole(i))
            .collect();
        let step = long.len().div_ceil(4).max(1);
        for &i in long.iter().step_by(step) {
            games += 1;
            convert(&*tables, solved, &tt, position(sector, i));
        }
    }
    // The longest wins of every sector up to 9 pieces: every ply toward the removal must
    // count (distances grouped in buckets let the engine shuffle in wins 28 plies and more
    // from their removal until a repetition drew them).
    let mut longest: Vec<(u32, Sector, u64)> = Vec::new();
    for sector in tiao::egdb::morris::index::all_sectors().filter(|s| s.pieces() <= 9) {
        let values = solved.get(sector).unwrap();
        for i in (0..sector.size()).filter(|&i| !sector.is_hole(i)) {
            if let Value::Win(d) = Value::decode(values[i as usize]) {
                longest.push((d, sector, i));
            }
        }
    }
    longest.sort_unstable_by(|a, b| b.cmp(a));
    let far: Vec<_> = longest.iter().take(8).collect();
    // (The 8 longest are 29 plies from their removal, in 5-4.)
    assert!(far.iter().all(|w| w.0 >= 28), "{far:?}");
    for &&(_, sector, i) in &far {
        games += 1;
        convert(&*tables, solved, &tt, position(sector, i));
    }
    assert!(games >= 12, "{games}");
    // With 98 plies gone, a removal 3 plies away comes too late: a draw.
    let late = pos("W:Wa7,g7,d5,b6,f4:Bc3,e4,a1:H0,0:R98");
    assert_eq!(
        tables.probe(&late).map(|p| p.wdl),
        Some(tiao::egdb::Wdl::Draw)
    );
    let in_time = pos("W:Wa7,g7,d5,b6,f4:Bc3,e4,a1:H0,0:R97");
    assert_eq!(
        tables.probe(&in_time).map(|p| p.wdl),
        Some(tiao::egdb::Wdl::Win)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tiao egdb verify --variant morris` without `--pieces` verifies the sectors found in the
/// directory, and names them first.
#[test]
fn verify_without_pieces_checks_the_sectors_found() {
    use tiao::egdb::driver::Builder as _;
    use tiao::egdb::morris::build::MorrisBuilder;
    use tiao::egdb::morris::store::built_sectors;
    let dir = temp_dir("verify-found");
    build(&dir, 6);
    let found = built_sectors(&dir);
    let names: Vec<String> = MorrisBuilder::new(&dir, 18, (0, 1))
        .only(&found)
        .units()
        .into_iter()
        .map(|u| u.name)
        .collect();
    assert_eq!(names, ["3-3"]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args(["egdb", "verify", "-q", "--variant", "morris", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("found 1 morris table in") && text.contains("6 pieces: 1 table: 3-3"),
        "{text}"
    );
    assert!(text.contains("of 1 table agree"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
