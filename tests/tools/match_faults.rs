//! Broken external engines (tests/engines/broken.sh) lose their games with the reason recorded,
//! are restarted for the next game, and never crash or hang the runner; an engine that cannot
//! start at all stops the match before it begins.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tiao::game::Variant;
use tiao::matches::runner::Fault;
use tiao::matches::{
    Control, End, GameRecord, MatchConfig, MatchResult, PlayerSpec, Progress, Sprt, SprtState,
    openings, run_match,
};
use tiao::pdn;
use tiao::protocol::hub::client::Log;
use tiao::variant::GameKind;

fn broken(mode: &str) -> PlayerSpec {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/broken.sh");
    PlayerSpec::parse(&format!("sh '{script}' {mode}"), Duration::from_secs(10)).unwrap()
}

fn builtin() -> PlayerSpec {
    PlayerSpec::parse("tiao hash=1", Duration::from_secs(1)).unwrap()
}

fn config(games: usize, control: Control) -> MatchConfig {
    let kind = GameKind::new(Variant::International);
    let mut cfg = MatchConfig::new(kind, openings::builtin(kind, games.div_ceil(2), 4, 9));
    cfg.games = games;
    cfg.control = control;
    cfg.max_plies = 100;
    // B hangs forever, and A, the built-in engine, must never lose on time: the margin and the
    // hang timeout are far above any stall of a loaded machine.
    cfg.margin = Duration::from_secs(2);
    cfg.hang_timeout = Duration::from_secs(5);
    cfg
}

/// Plays `cfg` with the built-in engine as A and `b` as B; returns the result, the traffic log
/// and the PDN text.
fn play(cfg: &MatchConfig, b: &PlayerSpec) -> (MatchResult, String, String) {
    let log_buf = Arc::new(Mutex::new(Vec::<u8>::new()));
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let log: Log = Arc::new(Mutex::new(Box::new(Shared(log_buf.clone()))));
    let text = Mutex::new(String::new());
    let on_game = |g: &GameRecord, _: &Progress| text.lock().unwrap().push_str(&g.pdn_text());
    let r = run_match(
        cfg,
        [&builtin(), b],
        Some(log),
        &AtomicBool::new(false),
        &on_game,
    )
    .unwrap();
    let log = String::from_utf8(log_buf.lock().unwrap().clone()).unwrap();
    (r, log, text.into_inner().unwrap())
}

/// Every game is lost by B through `want`, B was started afresh for each game, and the PDN
/// records the reason.
fn check_all_lost_by_b(r: &MatchResult, log: &str, pdn_text: &str, want: fn(&Fault) -> bool) {
    assert_eq!(r.wdl.wins as usize, r.games.len(), "{:?}", r.games);
    for g in &r.games {
        match &g.end {
            End::Fault(1, f) => assert!(want(f), "game {}: {f}", g.number),
            e => panic!("game {}: {e:?}", g.number),
        }
    }
    // One handshake for the probe, then one per game: restarted after every failure.
    let starts = log.lines().filter(|l| l.starts_with("B#0 > hub")).count();
    assert_eq!(starts, r.games.len(), "{log}");
    let games = pdn::parse(pdn_text).unwrap();
    assert_eq!(games.len(), r.games.len());
    for g in &games {
        let last = g.moves.last().map(|m| &m.comments).unwrap_or(&g.intro);
        assert!(last.last().unwrap().contains("B (broken-"), "{last:?}");
        let white_is_a = g.tag("White") == Some("tiao hash=1");
        assert_eq!(
            g.tag("Result"),
            Some(if white_is_a { "2-0" } else { "0-2" })
        );
    }
}

#[test]
fn a_crashing_engine_loses_and_is_restarted() {
    let cfg = config(4, Control::Nodes(500));
    let (r, log, text) = play(&cfg, &broken("crash"));
    check_all_lost_by_b(
        &r,
        &log,
        &text,
        |f| matches!(f, Fault::Crash(e) if e.contains("exit status: 3")),
    );
    assert!(text.contains("[Termination \"abandoned\"]"));
}

#[test]
fn a_hanging_engine_loses_on_time_and_is_killed() {
    // A time limit: 50 ms per move, the 2 s margin.
    let cfg = config(2, Control::MoveTime(Duration::from_millis(50)));
    let (r, log, text) = play(&cfg, &broken("hang"));
    check_all_lost_by_b(&r, &log, &text, |f| *f == Fault::Time);
    assert!(text.contains("[Termination \"time forfeit\"]"));
    // No time limit: the hang timeout (5 s).
    let cfg = config(2, Control::Nodes(500));
    let (r, log, text) = play(&cfg, &broken("hang"));
    check_all_lost_by_b(&r, &log, &text, |f| *f == Fault::Hung);
}

#[test]
fn an_illegal_move_loses() {
    let cfg = config(2, Control::Nodes(500));
    let (r, log, text) = play(&cfg, &broken("illegal"));
    check_all_lost_by_b(
        &r,
        &log,
        &text,
        |f| matches!(f, Fault::Illegal { mv, .. } if mv == "1-50"),
    );
    assert!(text.contains("[Termination \"rules infraction\"]"));
    assert!(text.contains("played an illegal move '1-50'"), "{text}");
}

#[test]
fn garbage_and_error_answers_lose() {
    let cfg = config(2, Control::Nodes(500));
    for mode in ["garbage", "error"] {
        let (r, log, text) = play(&cfg, &broken(mode));
        check_all_lost_by_b(&r, &log, &text, |f| matches!(f, Fault::Protocol(_)));
    }
}

#[test]
fn an_engine_that_cannot_start_stops_the_match() {
    let cfg = config(2, Control::Nodes(500));
    let on_game = |_: &GameRecord, _: &Progress| panic!("no game should be played");
    for b in [
        broken("nostart"),
        PlayerSpec::parse("/nonexistent/engine hub", Duration::from_secs(1)).unwrap(),
    ] {
        let e = run_match(
            &cfg,
            [&builtin(), &b],
            None,
            &AtomicBool::new(false),
            &on_game,
        )
        .unwrap_err();
        assert!(e.starts_with("engine B:"), "{e}");
    }
    // An engine that does not play the variant.
    let kind = GameKind::new(Variant::Russian);
    let mut cfg = MatchConfig::new(kind, openings::builtin(kind, 1, 2, 1));
    cfg.control = Control::Nodes(100);
    let e = run_match(
        &cfg,
        [&builtin(), &broken("crash")],
        None,
        &AtomicBool::new(false),
        &on_game,
    )
    .unwrap_err();
    assert!(e.contains("does not play russian"), "{e}");
}

#[test]
fn sprt_stops_the_match_once_decided() {
    // Every game won by A: the test runs on opening pairs, each scoring 2 points; for [0, 200]
    // the LLR is M ln(0.7597/0.5) (the likeliest distribution of mean 0.7597 a game puts at most
    // 0.7597 on a pair of wins), 7 pairs 2.93 < 2.94, 8 pairs 3.35: H1 after 16 games.
    let mut cfg = config(40, Control::Nodes(300));
    cfg.concurrency = 1;
    cfg.sprt = Some(Sprt::parse("0,200").unwrap());
    let (r, _, _) = play(&cfg, &broken("crash"));
    assert_eq!(r.wdl.wins, 16);
    assert!(r.stopped_early);
    assert_eq!(r.sprt.unwrap().1, SprtState::H1);
}
