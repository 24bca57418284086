//! Matches that go right: built-in engines at tiny limits give a valid PDN that reads back and
//! replays, every engine move carries its score and depth, english uses the ballots, the CLI
//! prints its summary, and tiao's own Hub loop driven as an external engine plays whole games.

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tiao::draughts::position::Position;
use tiao::draughts::rules::{English, International, Variant};
use tiao::matches::{
    Control, End, GameRecord, MatchConfig, MatchResult, PlayerSpec, Progress, openings, run_match,
};
use tiao::pdn;
use tiao::variant::GameKind;

fn spec(s: &str) -> PlayerSpec {
    PlayerSpec::parse(s, Duration::from_secs(10)).unwrap()
}

/// Runs a match and returns the result and the PDN text written game by game.
fn play(cfg: &MatchConfig, a: &PlayerSpec, b: &PlayerSpec) -> (MatchResult, String) {
    let text = Mutex::new(String::new());
    let progress = Mutex::new(Vec::new());
    let on_game = |g: &GameRecord, p: &Progress| {
        text.lock().unwrap().push_str(&g.pdn_text());
        progress.lock().unwrap().push(p.done);
    };
    let r = run_match(cfg, [a, b], None, &AtomicBool::new(false), &on_game).unwrap();
    let mut done = progress.into_inner().unwrap();
    done.sort_unstable();
    assert_eq!(done, (1..=cfg.games).collect::<Vec<_>>());
    (r, text.into_inner().unwrap())
}

#[test]
fn builtin_match_gives_pdn_that_reads_back() {
    let kind = GameKind::new(Variant::International);
    let mut cfg = MatchConfig::new(kind, openings::builtin(kind, 2, 4, 3));
    cfg.games = 4;
    cfg.control = Control::Nodes(1500);
    cfg.concurrency = 2;
    cfg.max_plies = 160;
    let (r, text) = play(&cfg, &spec("tiao hash=1"), &spec("tiao hash=1 lmr=off"));
    assert_eq!(r.wdl.games(), 4);
    assert_eq!(r.games.len(), 4);
    assert!(!r.stopped_early);
    assert!(r.faults().iter().all(Vec::is_empty));
    let games = pdn::parse(&text).unwrap();
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.tag("GameType"), Some("20,W,10,10,N2,0"));
        assert_eq!(g.variant(), Some(Ok(Variant::International)));
        let result = g.tag("Result").unwrap();
        assert!(["2-0", "1-1", "0-2"].contains(&result), "{result}");
        assert_eq!(g.result.as_deref(), Some(result));
        assert!(
            g.tag("FEN").is_none(),
            "the openings start from the start position"
        );
        let (_, moves) = pdn::replay::<Position<International>>(g).unwrap();
        assert_eq!(moves.len(), g.moves.len());
        // The opening's 4 plies, then one comment per engine move: "+0.12/7 0.004s".
        assert_eq!(g.moves[3].comments[0], "end of opening");
        for m in &g.moves[4..g.moves.len() - 1] {
            let c = &m.comments[0];
            let (score, rest) = c.split_once('/').unwrap_or_else(|| panic!("{c}"));
            assert!(score.starts_with(['+', '-', '#']), "{c}");
            assert!(rest.ends_with('s'), "{c}");
        }
        let white = g.tag("White").unwrap();
        assert!(white == "tiao hash=1" || white == "tiao hash=1 lmr=off");
    }
    // Each opening once with each colour.
    let mut rounds: Vec<(String, String)> = games
        .iter()
        .map(|g| {
            (
                g.tag("Round").unwrap().into(),
                g.tag("White").unwrap().into(),
            )
        })
        .collect();
    rounds.sort();
    assert_ne!(rounds[0].1, rounds[1].1);
    assert_ne!(rounds[2].1, rounds[3].1);
}

#[test]
fn english_match_starts_from_ballots() {
    let kind = GameKind::new(Variant::English);
    let mut cfg = MatchConfig::new(kind, openings::builtin(kind, 1, 0, 0));
    cfg.games = 2;
    cfg.control = Control::Depth(3);
    cfg.max_plies = 60;
    let (r, text) = play(&cfg, &spec("tiao hash=1"), &spec("tiao hash=1"));
    assert_eq!(r.wdl.games(), 2);
    let games = pdn::parse(&text).unwrap();
    for g in &games {
        assert_eq!(g.tag("GameType"), Some("21,B,8,8,N1,0"));
        assert!(["1-0", "1/2-1/2", "0-1"].contains(&g.tag("Result").unwrap()));
        let first: Vec<&str> = g.moves[..3].iter().map(|m| m.text.as_str()).collect();
        assert_eq!(first, ["9-13", "21-17", "5-9"]);
        assert!(g.tag("Opening").unwrap().starts_with("ballot 1 "));
        pdn::replay::<Position<English>>(g).unwrap();
        // Ply limit or rules: never a fault.
        assert!(matches!(
            g.tag("Termination"),
            Some("normal" | "adjudication")
        ));
    }
    // The PDN numbering of english: Black's moves carry the numbers.
    assert!(text.contains("1. 9-13 21-17 2. 5-9"), "{text}");
}

#[test]
fn a_position_opening_writes_fen_and_setup() {
    let kind = GameKind::new(Variant::International);
    let o = openings::parse_file(kind, "B:WK46,K47:B5\n").unwrap();
    let mut cfg = MatchConfig::new(kind, o);
    cfg.control = Control::Depth(2);
    cfg.max_plies = 20;
    let (r, text) = play(&cfg, &spec("tiao hash=1"), &spec("tiao hash=1"));
    assert_eq!(r.games.len(), 2);
    for g in pdn::parse(&text).unwrap() {
        assert_eq!(g.tag("SetUp"), Some("1"));
        assert_eq!(g.tag("FEN"), Some("B:WK46,K47:B5"));
        pdn::replay::<Position<International>>(&g).unwrap();
    }
    assert!(text.contains("1... "), "Black starts: {text}");
}

#[test]
fn the_cli_prints_a_summary_and_writes_the_pdn() {
    let dir = std::env::temp_dir().join(format!("tiao-match-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pdn_path = dir.join("games.pdn");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args([
            "match",
            "--engine",
            "tiao hash=1",
            "--engine",
            "tiao hash=1 rfp=off",
            "--games",
            "2",
            "--nodes",
            "1000",
            "--max-plies",
            "80",
            "--sprt",
            "0,10",
            "--pdn",
        ])
        .arg(&pdn_path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    for want in [
        "A: tiao hash=1",
        "W/D/L",
        "Elo difference",
        "LOS",
        "SPRT [0, 10]",
        "Elo by opening pairs",
    ] {
        assert!(stdout.contains(want), "{want} missing from:\n{stdout}");
    }
    // The two games are one opening's pair: one pair counted, in the class of its points.
    let pairs_line = stdout
        .lines()
        .find(|l| l.starts_with("Elo by opening pairs"))
        .unwrap();
    assert!(pairs_line.contains("(1 of them;"), "{pairs_line}");
    let counts: Vec<u32> = pairs_line
        .trim_end_matches(')')
        .rsplit(':')
        .next()
        .unwrap()
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 5, "{pairs_line}");
    assert_eq!(counts.iter().sum::<u32>(), 1, "{pairs_line}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("games 2/2"), "{stderr}");
    let text = std::fs::read_to_string(&pdn_path).unwrap();
    assert_eq!(pdn::parse(&text).unwrap().len(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tiao_hub_as_an_external_engine() {
    let kind = GameKind::new(Variant::International);
    let mut cfg = MatchConfig::new(kind, openings::builtin(kind, 1, 4, 5));
    cfg.control = Control::Nodes(1000);
    cfg.max_plies = 60;
    let external = spec(&format!("'{}' hub", env!("CARGO_BIN_EXE_tiao")));
    let (r, text) = play(&cfg, &spec("tiao hash=1"), &external);
    assert_eq!(r.games.len(), 2);
    assert!(r.faults().iter().all(Vec::is_empty), "{:?}", r.faults());
    assert!(r.names[1].starts_with("tiao "), "{}", r.names[1]);
    for g in pdn::parse(&text).unwrap() {
        pdn::replay::<Position<International>>(&g).unwrap();
    }
    // The same on 8x8 through the variant parameter.
    let kind = GameKind::new(Variant::Russian);
    let mut cfg = MatchConfig::new(kind, openings::builtin(kind, 1, 2, 5));
    cfg.control = Control::Nodes(500);
    cfg.max_plies = 40;
    let (r, _) = play(&cfg, &external, &spec("tiao hash=1"));
    assert!(r.faults().iter().all(Vec::is_empty), "{:?}", r.faults());
    assert!(r.games.iter().all(|g| !matches!(g.end, End::Fault(..))));
}

#[test]
fn identical_players_get_distinct_names() {
    let kind = GameKind::new(Variant::International);
    let mut cfg = MatchConfig::new(kind, openings::builtin(kind, 1, 4, 5));
    cfg.control = Control::Nodes(200);
    cfg.max_plies = 20;
    let (r, text) = play(&cfg, &spec("tiao hash=1"), &spec("tiao hash=1"));
    assert_ne!(r.names[0], r.names[1]);
    assert_eq!(r.names, ["tiao hash=1 (A)", "tiao hash=1 (B)"]);
    for g in pdn::parse(&text).unwrap() {
        assert_ne!(g.tag("White"), g.tag("Black"));
    }
}
