//! tiao against tiao over DXP on loopback: an initiator and a follower, both the real binary,
//! playing complete games (fixed depth, so each takes a second or two).

use crate::dxp_support::Tiao;

fn pdn_games(pdn: &str) -> Vec<&str> {
    pdn.split("[Event ").skip(1).collect()
}

fn tag<'a>(game: &'a str, name: &str) -> &'a str {
    let start = format!("[{name} \"");
    let from = game
        .find(&start)
        .unwrap_or_else(|| panic!("no {name} in {game}"))
        + start.len();
    let len = game[from..].find('"').unwrap();
    &game[from..from + len]
}

/// The result of each "game N:" line of a stdout.
fn results(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| {
            l.split_whitespace()
                .find(|w| ["2-0", "1-1", "0-2", "*"].contains(w))
                .unwrap_or("?")
                .to_string()
        })
        .collect()
}

#[test]
fn two_complete_games_with_alternating_colours_and_a_pdn() {
    let dir = tempfile_dir("match");
    let pdn = dir.join("games.pdn");
    let (mut follower, port) =
        Tiao::follower(&["--games", "2", "--depth", "3", "--name", "tiao-F"]);
    let addr = format!("127.0.0.1:{port}");
    let mut initiator = Tiao::start(&[
        "--connect",
        &addr,
        "--games",
        "2",
        "--depth",
        "3",
        "--time",
        "1",
        "--name",
        "tiao-I",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert!(initiator.wait_exit().success(), "{}", initiator.log_text());
    assert!(follower.wait_exit().success(), "{}", follower.log_text());
    let (iout, fout) = (initiator.out_text(), follower.out_text());
    // Both sides saw the same two results.
    assert_eq!(results(&iout).len(), 2, "{iout}");
    assert_eq!(results(&iout), results(&fout), "{iout}\n{fout}");
    assert!(iout.contains("score: tiao"), "{iout}");
    assert!(
        iout.contains("game 1: tiao-I (white) - tiao-F (black)"),
        "{iout}"
    );
    assert!(
        iout.contains("game 2: tiao-F (white) - tiao-I (black)"),
        "{iout}"
    );
    // The GAMEREQs: initiator white then black, 1 minute, no move limit, initial position.
    let flog = follower.log_text();
    assert!(flog.contains(&format!("recv GAMEREQ \"R01{:<32}Z001000A\"", "tiao-I")));
    assert!(flog.contains(&format!("recv GAMEREQ \"R01{:<32}W001000A\"", "tiao-I")));
    assert!(flog.contains(&format!("send GAMEACC \"A{:<32}0\"", "tiao-F")));
    // Each game ends with the GAMEEND handshake; the last one asks to stop.
    let ilog = initiator.log_text();
    assert!(ilog.contains("GAMEEND \"E") && flog.contains("GAMEEND \"E"));
    assert!(
        ilog.contains("connection 1 closed: no more games (stop code 1)"),
        "{ilog}"
    );
    assert!(!ilog.contains("error:") && !flog.contains("error:"));
    // The PDN: two international games with the players and results of the summary.
    let text = std::fs::read_to_string(&pdn).unwrap();
    let games = pdn_games(&text);
    assert_eq!(games.len(), 2, "{text}");
    for (i, g) in games.iter().enumerate() {
        assert_eq!(tag(g, "GameType"), "20,W,10,10,N2,0");
        assert_eq!(tag(g, "Round"), (i + 1).to_string());
        assert_eq!(tag(g, "Result"), results(&iout)[i]);
        assert!(!g.contains("[FEN"), "{g}");
        assert!(g.contains("\n1. "), "{g}");
    }
    assert_eq!(
        (tag(games[0], "White"), tag(games[0], "Black")),
        ("tiao-I", "tiao-F")
    );
    assert_eq!(
        (tag(games[1], "White"), tag(games[1], "Black")),
        ("tiao-F", "tiao-I")
    );
}

#[test]
fn a_game_from_a_position_stops_at_the_move_limit() {
    let dir = tempfile_dir("limit");
    let pdn = dir.join("limit.pdn");
    let (mut follower, port) = Tiao::follower(&["--games", "1", "--depth", "2"]);
    let addr = format!("127.0.0.1:{port}");
    // Black to move first, 4 moves each.
    let mut initiator = Tiao::start(&[
        "--connect",
        &addr,
        "--depth",
        "2",
        "--moves",
        "4",
        "--color",
        "black",
        "--fen",
        "B:W31-50:B1-20",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert!(initiator.wait_exit().success(), "{}", initiator.log_text());
    assert!(follower.wait_exit().success(), "{}", follower.log_text());
    let flog = follower.log_text();
    let req = format!(
        "recv GAMEREQ \"R01{:<32}W005004BZ{}{}{}\"",
        format!("tiao {}", env!("CARGO_PKG_VERSION")),
        "z".repeat(20),
        "e".repeat(10),
        "w".repeat(20)
    );
    assert!(flog.contains(&req), "{flog}");
    // After 8 plies Black (the initiator) is to move and adjudicates.
    let ilog = initiator.log_text();
    assert!(
        ilog.contains("the move limit of 4 moves is reached; adjudicated"),
        "{ilog}"
    );
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(text.contains("[SetUp \"1\"]\n[FEN \"B:W31"), "{text}");
    assert!(text.contains("\n1... "), "{text}");
    // Black's first move is 1..., White's reply 2.: 8 plies end with White's move 5.
    assert!(text.contains(" 5. ") && !text.contains(" 6. "), "{text}");
    assert_eq!(
        results(&initiator.out_text()),
        results(&follower.out_text())
    );
}

#[test]
fn the_clock_is_kept_and_never_overrun() {
    // Each side gets 2 s for a game of 20 moves (a test-only override of the GAMEREQ's minutes),
    // no depth cap: the time manager alone decides. With the moves counted it keeps 50 ms back
    // for each move still to play, so the lag of a loaded machine (our clock runs from the
    // peer's MOVE arriving to ours leaving) is paid for up to 50 ms a move.
    let (mut follower, port) = Tiao::follower(&["--games", "1", "--clock", "2", "--hash", "8"]);
    let addr = format!("127.0.0.1:{port}");
    let mut initiator = Tiao::start(&[
        "--connect",
        &addr,
        "--clock",
        "2",
        "--hash",
        "8",
        "--time",
        "1",
        "--moves",
        "20",
    ]);
    assert!(initiator.wait_exit().success(), "{}", initiator.log_text());
    assert!(follower.wait_exit().success(), "{}", follower.log_text());
    for t in [&initiator, &follower] {
        let over = t.wait_log("over: ");
        let used: f64 = over
            .split("tiao used ")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{over}"));
        assert!(used > 0.0 && used < 2.0, "{over}");
        assert!(!over.contains("OVERRUN"), "{over}");
        assert!(over.contains("of 2.000 s"), "{over}");
    }
}

/// A fresh directory under the target directory.
fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tiao-dxp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
