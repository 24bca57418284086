//! Search tests on positions with known answers: wins at the right distance, lost roots, forced
//! capture lines, a quiet shot, single legal moves, thread counts, determinism, and ProbCut and
//! singular extensions keeping a win's distance.
//!
//! Each position was checked by hand (the reasoning is in the comments) and by the engine at a
//! higher depth than the test uses.

use tiao::draughts::position::Position;
use tiao::draughts::rules::{English, International};
use tiao::game::Game;
use tiao::search::score::{loss_in, win_in};
use tiao::search::tt::Tt;
use tiao::search::{
    Control, Limits, Report, ScoreKind, SearchOptions, SearchResult, search, search_to_depth,
};

type Intl = Position<International>;

fn at_depth(fen: &str, depth: u32) -> (Intl, SearchResult<tiao::draughts::moves::Move>) {
    let pos = Intl::from_fen(fen).unwrap();
    let r = search_to_depth(&pos, depth, &Tt::new(4));
    (pos, r)
}

fn best_pdn(pos: &Intl, r: &SearchResult<tiao::draughts::moves::Move>) -> String {
    pos.move_to_pdn(&r.best.expect("a move"))
}

#[test]
fn win_in_one_ply() {
    // 28x19 takes Black's last piece: Black, to move, has no move at ply 1.
    let (pos, r) = at_depth("W:W28:B23", 3);
    assert_eq!(best_pdn(&pos, &r), "28x19");
    assert_eq!(r.score.0, win_in(1));
    assert_eq!(r.score.to_hub(), "99.99");
}

#[test]
fn win_in_five_plies() {
    // 8-3 crowns; Black must take 25x34 (its only capture); the king takes 9 and 34 (3x43);
    // Black's last man can only go 16-21 and is taken (43x16): Black has nothing left at ply 5.
    // No faster win: after White's first two moves Black still has the man on 16.
    let (pos, r) = at_depth("W:W37,8,30:B16,25,9", 7);
    assert_eq!(best_pdn(&pos, &r), "8-3");
    assert_eq!(r.score.kind(), ScoreKind::Win(5));
    let pv: Vec<String> = {
        let mut p = pos;
        r.pv.iter()
            .map(|m| {
                let s = p.move_to_pdn(m);
                p = p.make(m);
                s
            })
            .collect()
    };
    assert_eq!(pv, ["8-3", "25x34", "3x43", "16-21", "43x16"]);
}

#[test]
fn loss_seen_from_the_losing_side() {
    // The same line seen by Black after 8-3: lost in 4 more plies.
    let pos = Intl::from_fen("W:W37,8,30:B16,25,9").unwrap();
    let pos = pos.make(&pos.parse_move("8-3").unwrap());
    let r = search_to_depth(&pos, 7, &Tt::new(4));
    assert_eq!(r.score.0, loss_in(4));
    assert_eq!(r.score.to_hub(), "-99.96");
}

#[test]
fn blocked_side_has_lost() {
    // English: Black's only man, on 1 (b8), faces White's men on 5 and 6; it cannot jump 5 (the
    // board edge is behind it) nor 6 (10 behind it is occupied): no move, Black has lost.
    let pos = Position::<English>::from_fen("B:W5,6,9,10:B1").unwrap();
    let mut l = tiao::game::MoveList::default();
    pos.generate(&mut l);
    assert!(l.is_empty());
    let r = search_to_depth(&pos, 5, &Tt::new(1));
    assert!(r.best.is_none());
    assert_eq!(r.score.0, loss_in(0));
}

#[test]
fn forced_capture_line_is_resolved_by_quiescence() {
    // White must take 29x40 (its only move); Black then takes 39x48 over 43 and crowns on 48.
    // The static evaluation likes White (a man on 13 near promotion); one ply plus the capture
    // line shows White losing a man for a king.
    let (pos, r) = at_depth("W:W29,43,13:B39,34,17", 1);
    use tiao::game::Evaluate;
    assert!(pos.evaluate() > 50, "{}", pos.evaluate());
    assert!(r.score.0 < -50, "{}", r.score);
    assert_eq!(best_pdn(&pos, &r), "29x40");
}

#[test]
fn quiet_shot_is_found_by_deeper_search() {
    // 18-12 gives a man: Black takes 22x31 (over 27) or 8x17; after 22x31 White takes two with
    // 12x3x14 (over 8 and 9). Nine plies see White a man up. (The pattern evaluation already
    // prefers 18-12 at one ply, at +0.66, so the shallow search no longer tells the shot apart.)
    let (pos, deep) = at_depth("W:W27,50,18,20:B8,9,16,22", 9);
    assert_eq!(best_pdn(&pos, &deep), "18-12");
    assert!(deep.score.0 >= 90, "{}", deep.score);
}

#[test]
fn single_legal_move_is_answered_at_once() {
    // 28x19 is forced (captures are compulsory; the man on 45 cannot capture).
    let pos = Intl::from_fen("W:W28,45:B23,1").unwrap();
    let r = search(
        &pos,
        &[],
        &Limits::move_time(std::time::Duration::from_secs(60)),
        &SearchOptions::default(),
        &Tt::new(1),
        &Control::new(false),
        Some(&mut |_| panic!("no iteration is searched")),
        &mut |_| {},
    );
    assert_eq!(best_pdn(&pos, &r), "28x19");
    // Answered without searching: no iteration, the one child evaluated (the 60 s are not used).
    assert_eq!(r.depth, 0);
    assert_eq!(r.nodes, 1, "a forced move is not searched");
}

#[test]
fn one_thread_is_deterministic() {
    let pos = Intl::start();
    let a = search_to_depth(&pos, 8, &Tt::new(8));
    let b = search_to_depth(&pos, 8, &Tt::new(8));
    assert_eq!((a.nodes, a.best, a.score), (b.nodes, b.best, b.score));
}

/// A search that no one reads (`on_report` `None`: self-play, books, benches) searches exactly
/// what a read one does: the same nodes, move, score and principal variation, at a depth limit and
/// at a node limit (where the node count decides where it stops). The read one did report.
#[test]
fn an_unread_search_is_the_read_one() {
    let middlegame = Intl::from_fen(
        "W:W27,28,31,32,33,36,37,38,39,41,42,43,44,47,48:B3,6,8,9,11,12,13,14,16,17,18,19,22,23,24",
    )
    .unwrap();
    for (pos, limits) in [
        (Intl::start(), Limits::depth(10)),
        (middlegame, Limits::depth(16)),
        (Intl::start(), Limits::nodes(30_000)),
        (middlegame, Limits::nodes(30_000)),
    ] {
        let run = |read: bool| {
            let mut reports = 0u32;
            let mut count = |_: &Report<_>| reports += 1;
            let r = search(
                &pos,
                &[],
                &limits,
                &SearchOptions::default(),
                &Tt::new(8),
                &Control::new(false),
                if read { Some(&mut count) } else { None },
                &mut |_| {},
            );
            (r, reports)
        };
        let (unread, _) = run(false);
        let (read, reports) = run(true);
        assert!(reports > 0, "the read search reported");
        assert!(unread.nodes > 1000, "{limits:?}: a search of some size");
        assert_eq!(
            (
                unread.best,
                unread.score,
                unread.depth,
                unread.nodes,
                &unread.pv
            ),
            (read.best, read.score, read.depth, read.nodes, &read.pv),
            "{limits:?}"
        );
    }
}

#[test]
fn two_threads_agree_with_one_on_tactics() {
    for (fen, depth, expected) in [
        ("W:W37,8,30:B16,25,9", 7, "8-3"),
        ("W:W27,50,18,20:B8,9,16,22", 9, "18-12"),
        ("W:W28,45:B23,1", 4, "28x19"),
        ("W:W29,43,13:B39,34,17", 4, "29x40"),
    ] {
        let pos = Intl::from_fen(fen).unwrap();
        for threads in [1, 2] {
            let options = SearchOptions {
                threads,
                ..SearchOptions::default()
            };
            let r = search(
                &pos,
                &[],
                &Limits {
                    analyze: true,
                    ..Limits::depth(depth)
                },
                &options,
                &Tt::new(8),
                &Control::new(false),
                None,
                &mut |_| {},
            );
            assert_eq!(best_pdn(&pos, &r), expected, "{fen} threads {threads}");
        }
    }
}

#[test]
fn node_limit_is_exact_with_one_thread() {
    let pos = Intl::start();
    let mut handed = None;
    let r = search(
        &pos,
        &[],
        &Limits::nodes(20_000),
        &SearchOptions::default(),
        &Tt::new(4),
        &Control::new(false),
        None,
        &mut |result| handed = Some(result.clone()),
    );
    assert_eq!(
        handed.as_ref(),
        Some(&r),
        "the result handed over is the one returned"
    );
    assert!(r.best.is_some());
    assert!(r.nodes <= 20_000, "{}", r.nodes);
}

/// A search stopped in the middle of an iteration answers with a move that iteration proved
/// better than the previous iteration's best move, or else with the last completed iteration's
/// move. One thread and node limits make it exact: for each iteration of the start position that
/// changed the best move, searches stopped before it completed must answer at the earlier
/// iteration's depth with its move, or at the new depth with another move (reported as the last
/// iteration); at least one of them must have found the new move early.
#[test]
fn an_unfinished_iteration_answers_with_a_proven_better_move() {
    // Positions whose best move changes between iterations (the start position's no longer does
    // up to depth 14 with the pattern evaluation): the first that does is checked.
    let mut partial = 0;
    for fen in [
        "W:W27,30,31,32,34,35,37,40,41,43,47,48,49,50:B1,2,3,5,7,9,11,14,16,17,18,19,23,24",
        "W:W31-50:B1-20",
    ] {
        partial += unfinished_iterations(&Intl::from_fen(fen).unwrap());
        if partial > 0 {
            break;
        }
    }
    assert!(partial > 0, "no unfinished iteration changed the move");
}

/// Checks the partial iterations of `pos` where its best move changes; how many were partial.
fn unfinished_iterations(pos: &Intl) -> usize {
    let pos = *pos;
    let search_with = |limits: &Limits, reports: &mut Vec<(u32, u64, String, bool)>| {
        let r = search(
            &pos,
            &[],
            limits,
            &SearchOptions::default(),
            &Tt::new(8),
            &Control::new(false),
            Some(&mut |rep: &Report<_>| {
                let m = pos.move_to_pdn(&rep.pv[0]);
                reports.push((rep.depth, rep.nodes, m, rep.partial))
            }),
            &mut |_| {},
        );
        (r.depth, best_pdn(&pos, &r))
    };
    // The completed iterations (a partial report comes as soon as a better move is found).
    let mut reports = Vec::new();
    search_with(&Limits::depth(14), &mut reports);
    let iterations: Vec<(u32, u64, String)> = reports
        .into_iter()
        .filter(|r| !r.3)
        .map(|(d, n, m, _)| (d, n, m))
        .collect();
    let mut partial = 0;
    for pair in iterations.windows(2) {
        let ((d0, n0, m0), (d1, n1, m1)) = (&pair[0], &pair[1]);
        if m0 == m1 {
            continue;
        }
        for k in 1..=4 {
            let limit = n1 - k * (n1 - n0) / 8;
            let mut reports = Vec::new();
            let (depth, best) = search_with(&Limits::nodes(limit), &mut reports);
            let last = reports.last().expect("an iteration");
            assert_eq!(last.2, best, "the last report carries the answer");
            assert_eq!(
                last.3,
                depth == *d1,
                "a partial report when the move came early"
            );
            if depth == *d1 {
                assert_ne!(
                    &best, m0,
                    "limit {limit}: only a better move is taken early"
                );
                partial += 1;
            } else {
                assert_eq!((depth, &best), (*d0, m0), "limit {limit}");
            }
        }
    }
    partial
}

#[test]
fn probcut_keeps_wins_at_their_distance() {
    // ProbCut answers for a node with a shallow search's score less a margin, and a win found
    // by that search keeps its exact distance instead. At every depth from the first that sees
    // the win, the search with ProbCut and the one without must report the same distance (the
    // second position is the first after 8-3, seen by the losing side).
    use tiao::search::search_to_depth_with;
    let with = SearchOptions::default();
    assert!(with.params.probcut, "ProbCut is on by default");
    let mut without = SearchOptions::default();
    without.params.set("probcut", "off").unwrap();
    let won = Intl::from_fen("W:W37,8,30:B16,25,9").unwrap();
    let lost = won.make(&won.parse_move("8-3").unwrap());
    let tt = Tt::new(4);
    for depth in 7..=16 {
        let a = search_to_depth_with(&won, depth, &tt, &with);
        let b = search_to_depth_with(&won, depth, &tt, &without);
        assert_eq!(a.score.0, win_in(5), "depth {depth}");
        assert_eq!(b.score.0, win_in(5), "depth {depth}");
        let a = search_to_depth_with(&lost, depth, &tt, &with);
        assert_eq!(a.score.0, loss_in(4), "depth {depth}");
    }
}

#[test]
fn singular_extensions_keep_wins_and_tactics() {
    // The singular test searches a node again without its hash move, at half the depth; it must
    // leave no trace that changes what the search proves. With it on, at every depth from the
    // first that sees the win (the test applies from depth 8), the win is reported at its exact
    // distance from both sides, the quiet shot is still found, and the search is deterministic.
    use tiao::search::search_to_depth_with;
    let mut with = SearchOptions::default();
    with.params.set("singular", "on").unwrap();
    with.params.set("singular-min-depth", "4").unwrap();
    let won = Intl::from_fen("W:W37,8,30:B16,25,9").unwrap();
    let lost = won.make(&won.parse_move("8-3").unwrap());
    let tt = Tt::new(4);
    for depth in 7..=16 {
        let a = search_to_depth_with(&won, depth, &tt, &with);
        assert_eq!(a.score.0, win_in(5), "depth {depth}");
        let b = search_to_depth_with(&lost, depth, &tt, &with);
        assert_eq!(b.score.0, loss_in(4), "depth {depth}");
    }
    let shot = Intl::from_fen("W:W27,50,18,20:B8,9,16,22").unwrap();
    for depth in 9..=14 {
        let r = search_to_depth_with(&shot, depth, &Tt::new(4), &with);
        assert_eq!(best_pdn(&shot, &r), "18-12", "depth {depth}");
        // White stays ahead. Not a man ahead at every depth: Black's best answer is 8x17, after
        // which 27x18 levels the material, and the deeper searches score White's better
        // position, not a man (i12l's weights: +0.79 at depth 13, +0.40 at 18 with defaults).
        assert!(r.score.0 > 0, "depth {depth}: {}", r.score);
    }
    // Deterministic with one thread: the same tree twice from an empty table.
    let start = Intl::start();
    let a = search_to_depth_with(&start, 12, &Tt::new(4), &with);
    let b = search_to_depth_with(&start, 12, &Tt::new(4), &with);
    assert_eq!((a.nodes, a.best, a.score.0), (b.nodes, b.best, b.score.0));
    // And the test does run: the tree differs from the one without it.
    let mut without = with.clone();
    without.params.set("singular", "off").unwrap();
    let c = search_to_depth_with(&start, 12, &Tt::new(4), &without);
    assert_ne!(
        a.nodes, c.nodes,
        "the singular test changed nothing at depth 12"
    );
}
