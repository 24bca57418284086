//! The follower (`tiao dxp --listen`) driven by a scripted initiator on a raw socket: every
//! message, every kind of misbehaviour, and the follower going back to waiting afterwards.

use crate::dxp_support::{Board10, Peer, Tiao, gamereq, gamereq_fen};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tiao::game::color::Color;
use tiao::protocol::dxp::game::Status;
use tiao::protocol::dxp::log::MAX_LINES_PER_SECOND;
use tiao::protocol::dxp::message::Board;
use tiao::protocol::dxp::session::FRAME_GAP;

/// The `[seconds]` stamp of the log line holding byte `at` of `log`.
fn stamp_of_line(log: &str, at: usize) -> f64 {
    let start = log[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &log[start..];
    let inner = &line[line.find('[').expect("stamped line") + 1..line.find(']').unwrap()];
    inner.trim().parse().expect("a stamp in seconds")
}

/// A follower playing quickly (depth 2).
fn follower() -> (Tiao, u16) {
    Tiao::follower(&["--depth", "2", "--hash", "4"])
}

/// After a fault, the follower accepts a new connection and plays: a GAMEREQ is accepted and,
/// tiao being White, answered with a legal first move.
fn still_serves(port: u16) {
    let mut p = Peer::connect(port);
    p.new_game(Color::White, 1, 0);
    Board10::new(Board::start(), Color::Black).take(&mut p);
}

/// Starts a game with tiao as Black; returns the peer and its board.
fn game_as_peer_white(port: u16) -> (Peer, Board10) {
    let mut p = Peer::connect(port);
    p.new_game(Color::Black, 1, 0);
    (p, Board10::new(Board::start(), Color::White))
}

/// In a game where tiao plays Black, the peer (White) sends `text`: tiao closes the connection
/// after a CHAT with `chat` and logs `log`.
fn breaks_the_game(t: &Tiao, port: u16, text: &str, chat: &str, log: &str) {
    let (mut p, _) = game_as_peer_white(port);
    p.send(text);
    p.closed_with(chat);
    t.wait_log(log);
}

#[test]
fn a_complete_game_against_a_scripted_peer() {
    let (t, port) = follower();
    let (mut p, mut b) = game_as_peer_white(port);
    // Chat before the first move: logged, nothing else changes.
    p.send("CHello from the test");
    let mut tiao_ended = false;
    for _ in 0..400 {
        match b.game.status() {
            Status::Ongoing => {}
            // The peer is to move and has lost: it gives up, and tiao confirms its win.
            Status::NoMove(_) => {
                p.send("E10");
                assert_eq!(p.expect("E"), "E30");
                break;
            }
            _ => {
                p.send("E20");
                p.expect("E");
                break;
            }
        }
        b.answer(&mut p);
        let text = p.next().expect("tiao answers");
        if text.starts_with('E') {
            tiao_ended = true;
            p.send("E00");
            break;
        }
        b.apply(&text);
    }
    t.wait_log("chat from test peer: Hello from the test");
    let line = t.wait_out("game 1: test peer (white) - tiao");
    if !tiao_ended {
        assert!(line.contains("0-2 [tiao won"), "{line}");
    }
    assert!(!t.log_text().contains("error:"));
}

#[test]
fn garbage_closes_the_connection_and_the_follower_waits_again() {
    let (t, port) = follower();
    for (bytes, log) in [
        (&b"hello world\0"[..], "unknown message type 'h'"),
        (&b"M00\xff\xfe\0"[..], "is not ASCII"),
        (&[b'C'; 200][..], "more than 127 bytes without a NUL"),
    ] {
        let mut p = Peer::connect(port);
        p.send_raw(bytes);
        p.closed_with("protocol error");
        t.wait_log(log);
    }
    still_serves(port);
}

#[test]
fn an_illegal_move_loses_the_game_for_the_peer() {
    let (t, port) = follower();
    // 31-28 does not exist.
    let illegal = "illegal move 31-28";
    breaks_the_game(&t, port, "M0001312800", illegal, illegal);
    let line = t.wait_out("game 1:");
    assert!(line.contains("0-2 [tiao won"), "{line}");
    assert!(line.contains("lost by test peer"), "{line}");
    // A capture is compulsory: a quiet move when a capture is on is illegal too.
    let mut p = Peer::connect(port);
    let (req, _) = gamereq_fen(Color::Black, 0, "W:W28,45:B23,5");
    p.send(&req);
    p.expect("A");
    p.send("M0001454000");
    p.closed_with("illegal move 45-40");
    t.wait_log("legal: 28x19x23");
    still_serves(port);
}

#[test]
fn a_wrong_field_width_is_named() {
    let (t, port) = follower();
    // The MOVE lacks a digit of its "number captured" field.
    let log = "MOVE: 10 characters, expected at least 11 (a field has the wrong width)";
    breaks_the_game(&t, port, "M000132280", "MOVE: 10 characters", log);
    // Two captured squares announced, one given.
    let log = "expected 11 + 2 x 2 captured = 15";
    breaks_the_game(&t, port, "M00013228021", "protocol error", log);
    // A GAMEREQ whose name field is one character short.
    let mut p = Peer::connect(port);
    p.send(&format!("R01{:<31}Z001000A", "short"));
    p.closed_with("GAMEREQ: 42 characters");
    // A bad colour letter.
    let mut p = Peer::connect(port);
    p.send(&format!("R01{:<32}B001000A", "x"));
    p.closed_with("follower colour");
    still_serves(port);
}

#[test]
fn a_disconnection_mid_game_and_the_next_connection() {
    let (t, port) = follower();
    let (mut p, mut b) = game_as_peer_white(port);
    b.answer(&mut p);
    b.take(&mut p);
    drop(p);
    t.wait_log("error: the peer closed the connection in the middle of a game");
    let line = t.wait_out("game 1:");
    assert!(line.contains("lost by test peer"), "{line}");
    // Half a message then a close is a disconnection too.
    let (mut p, _) = game_as_peer_white(port);
    p.send_raw(b"M00013");
    drop(p);
    t.wait_log("in the middle of a message (6 bytes without a NUL)");
    t.wait_out("game 2:");
    still_serves(port);
}

#[test]
fn split_and_joined_messages() {
    let (t, port) = follower();
    let mut p = Peer::connect(port);
    let req = gamereq(Color::Black, 1, 0);
    let bytes = format!("{req}\0");
    for chunk in bytes.as_bytes().chunks(10) {
        p.send_raw(chunk);
        std::thread::sleep(Duration::from_millis(30));
    }
    p.expect("A");
    // A MOVE and a CHAT in one write: both are read.
    p.send_raw(b"M0001322800\0Cjoined\0");
    p.expect("M");
    t.wait_log("chat from test peer: joined");
}

#[test]
fn the_gameend_handshake_and_games_following_one_another() {
    let (t, port) = follower();
    let mut p = Peer::connect(port);
    // Game 1: the peer ends it at once without a reason: tiao confirms, result unknown.
    p.new_game(Color::Black, 1, 0);
    p.send("E00");
    assert_eq!(p.expect("E"), "E00");
    let line = t.wait_out("game 1:");
    assert!(line.contains(" * [result unknown"), "{line}");
    // Game 2 on the same connection: the peer gives up; tiao confirms it won.
    p.new_game(Color::Black, 1, 0);
    p.send("E10");
    assert_eq!(p.expect("E"), "E30");
    let line = t.wait_out("game 2:");
    assert!(line.contains("0-2 [tiao won"), "{line}");
    // Game 3: tiao White moves first; the peer claims a win (stop code 1): tiao confirms and
    // closes the connection.
    p.new_game(Color::White, 1, 0);
    p.expect("M");
    p.send("E31");
    assert_eq!(p.expect("E"), "E10");
    assert!(p.until_closed().is_empty());
    let line = t.wait_out("game 3:");
    assert!(line.contains("0-2 [tiao lost"), "{line}");
    // A GAMEEND between games is ignored.
    let mut p = Peer::connect(port);
    p.send("E00");
    p.new_game(Color::Black, 1, 0);
    t.wait_log("GAMEEND outside a game ignored");
}

#[test]
fn the_follower_ends_games_itself() {
    let (t, port) = follower();
    let mut p = Peer::connect(port);
    // White (tiao) to move has no legal move in the start position: refused with code 2.
    let (req, _) = gamereq_fen(Color::White, 0, "W:W46:B41,37");
    p.send(&req);
    assert!(p.expect("A").ends_with('2'));
    t.wait_log("white is to move and has no legal move in the start position");
    // The peer (White) captures tiao's last piece: tiao, to move without a move, gives up.
    let (req, start) = gamereq_fen(Color::Black, 0, "W:W28:B23");
    p.send(&req);
    p.expect("A");
    Board10::new(start, Color::White).answer(&mut p);
    assert_eq!(p.expect("E"), "E10");
    p.send("E00");
    // (The refused request was no game: this is game 1.)
    let line = t.wait_out("game 1:");
    assert!(line.contains("2-0 [tiao lost"), "{line}");
    // One move each, then tiao (White) is to move at the limit: it adjudicates a draw.
    p.new_game(Color::White, 1, 1);
    let mut b = Board10::new(Board::start(), Color::Black);
    b.take(&mut p);
    b.answer(&mut p);
    assert_eq!(p.expect("E"), "E20");
    p.send("E00");
    t.wait_log("the move limit of 1 moves is reached; adjudicated a draw");
    let line = t.wait_out("game 2:");
    assert!(line.contains("1-1 [draw"), "{line}");
}

#[test]
fn take_backs_are_accepted_within_the_game_and_refused_outside_it() {
    let (t, port) = follower();
    let mut p = Peer::connect(port);
    // Outside a game: continue.
    p.send("B001W");
    assert_eq!(p.expect("K"), "K2");
    p.new_game(Color::White, 1, 0);
    let mut b = Board10::new(Board::start(), Color::Black);
    b.take(&mut p);
    b.answer(&mut p);
    b.take(&mut p);
    // A position that is not in the game: continue.
    p.send("B050Z");
    assert_eq!(p.expect("K"), "K2");
    // Back to the start with White (tiao) to move: accepted, and tiao moves again.
    p.send("B001W");
    assert_eq!(p.expect("K"), "K0");
    let mut b = Board10::new(Board::start(), Color::Black);
    let again = b.take(&mut p);
    t.wait_log("took back 3 plies to move 1 with white to move");
    // Our BACKACC and the move after it are FRAME_GAP apart by tiao's own log stamps (a lower
    // bound on a wait: load only lengthens it), so a client reading one frame a receive call
    // (pydraughts) gets the move alone.
    // The log reaches this test through a pipe, so the peer may hold the move before its log
    // line is here, and the same move may have been sent before the take-back: wait for its
    // line after BACKACC's.
    let sent = format!("send MOVE \"{again}\"");
    t.wait_log("send BACKACC \"K0\"");
    let before = {
        let log = t.log_text();
        let acc = log.rfind("send BACKACC \"K0\"").unwrap();
        log[..acc].lines().filter(|l| l.contains(&sent)).count()
    };
    t.wait_log_n(&sent, before + 1);
    let log = t.log_text();
    let acc = log
        .rfind("send BACKACC \"K0\"")
        .unwrap_or_else(|| panic!("BACKACC not logged:\n{log}"));
    let mv = acc + log[acc..].find(&sent).expect("the move logged after it");
    let gap = stamp_of_line(&log, mv) - stamp_of_line(&log, acc);
    assert!(
        gap >= FRAME_GAP.as_secs_f64() - 0.001,
        "BACKACC and MOVE {gap} s apart"
    );
    // Back to move 1 with Black (the peer) to move: accepted, tiao waits for the peer.
    b.answer(&mut p);
    b.take(&mut p);
    p.send("B001Z");
    assert_eq!(p.expect("K"), "K0");
    t.wait_log("took back 2 plies to move 1 with black to move");
    // The game goes on from there.
    let mut b2 = Board10::new(Board::start(), Color::Black);
    b2.apply(&again);
    b2.answer(&mut p);
    b2.take(&mut p);
}

#[test]
fn game_requests_that_are_refused() {
    let (t, port) = follower();
    let mut p = Peer::connect(port);
    // Protocol version 02: code 1.
    p.send(&format!("R02{:<32}W001000A", "x"));
    assert!(p.expect("A").ends_with('1'));
    // A white man on square 3 (its promotion row): code 2.
    let mut s = ['e'; 50];
    s[2] = 'w';
    s[30] = 'z';
    let sq: String = s.iter().collect();
    p.send(&format!("R01{:<32}W001000BW{sq}", "x"));
    assert!(p.expect("A").ends_with('2'));
    t.wait_log("not a valid start position: white man on square 3");
    // The connection is still usable.
    p.new_game(Color::Black, 1, 0);
}

#[test]
fn messages_out_of_turn_or_out_of_place() {
    let (t, port) = Tiao::follower(&["--hash", "4", "--clock", "600"]);
    // tiao (White) is to move: a MOVE from the peer is out of turn. (Sent in the same write as
    // the GAMEREQ.) tiao's first move comes from the book at once, and on a loaded machine it may
    // be sent before the reader thread has handed over the MOVE (the CI failure of 859c56e: the
    // MOVE was then taken as the reply and the peer waited): a MOVE that arrived before tiao's
    // was sent is out of turn either way.
    let mut p = Peer::connect(port);
    p.send_raw(format!("{}\0M0001192300\0", gamereq(Color::White, 1, 0)).as_bytes());
    p.expect("A");
    p.closed_with("out of turn");
    t.wait_log("error: MOVE 19-23 out of turn");
    // A GAMEACC sent to the follower.
    let mut p = Peer::connect(port);
    p.send(&format!("A{:<32}0", "x"));
    p.closed_with("GAMEACC from the initiator");
    // A MOVE outside a game.
    let mut p = Peer::connect(port);
    p.send("M0001322800");
    p.closed_with("a MOVE outside a game");
    // A stray BACKACC is ignored.
    let mut p = Peer::connect(port);
    p.send("K0");
    p.new_game(Color::Black, 1, 0);
    t.wait_log("BACKACC ignored");
}

#[test]
fn the_follower_stops_after_its_games() {
    let (mut t, port) = Tiao::follower(&["--depth", "2", "--games", "1"]);
    let mut p = Peer::connect(port);
    p.new_game(Color::Black, 1, 0);
    // A second client waits for the engine meanwhile.
    let mut waiting = Peer::connect(port);
    p.send("E10");
    // Its last game: tiao confirms with stop code 1 and exits.
    assert_eq!(p.expect("E"), "E31");
    assert!(t.wait_exit().success());
    // The waiting client was not handed the engine after the last game: it was told why (that
    // tiao has played its games, or, had the game lasted longer, that it was busy).
    let told = waiting.until_closed();
    assert!(told.iter().any(|m| m.starts_with("Ctiao: ")), "{told:?}");
    assert!(
        t.out_text()
            .contains("score: tiao +1 =0 -0 in 1 game (2 points of 2)")
    );
}

#[test]
fn other_variants_are_refused() {
    let mut t = Tiao::start(&["--variant", "russian", "--listen", "127.0.0.1:0"]);
    assert!(!t.wait_exit().success());
    assert!(
        t.log_text()
            .contains("DXP is defined for international draughts")
    );
}

#[test]
fn a_peer_that_never_moves_loses_on_its_clock_and_is_disconnected() {
    // The peer's clock: 1 s for the game (test-only --peer-clock), plus the 1 s grace.
    let (t, port) = Tiao::follower(&["--depth", "2", "--hash", "4", "--peer-clock", "1"]);
    let (mut p, _) = game_as_peer_white(port);
    // It never moves: tiao ends the game on time, says so, and closes.
    let rest = p.until_closed();
    assert!(
        rest.iter()
            .any(|m| m.starts_with('C') && m.contains("your time is up")),
        "{rest:?}"
    );
    assert!(rest.iter().any(|m| m.starts_with("E")), "{rest:?}");
    let line = t.wait_out("game 1:");
    assert!(line.contains("0-2 [tiao won"), "{line}");
    assert!(line.contains("lost on time"), "{line}");
    // The follower serves the next connection.
    still_serves(port);
}

#[test]
fn a_quiet_connection_is_closed_and_a_second_client_is_refused_clearly() {
    let (t, port) = Tiao::follower(&["--depth", "2", "--hash", "4", "--idle-timeout", "1.5"]);
    // A connection that sends nothing (or only chats) is closed after the idle timeout.
    let mut quiet = Peer::connect(port);
    quiet.send("Cstill here");
    quiet.closed_with("nothing from the peer for 2 s");
    t.wait_log("nothing from the peer");
    // While a game is being played, a second client is told why and refused.
    let (mut first, mut b) = game_as_peer_white(port);
    let mut second = Peer::connect(port);
    second.send(&gamereq(Color::White, 1, 0));
    let answer = second.until_closed();
    assert!(
        answer
            .iter()
            .any(|m| m.starts_with('C') && m.contains("playing on another connection")),
        "{answer:?}"
    );
    assert!(
        answer
            .iter()
            .any(|m| m.starts_with("A") && m.ends_with('3')),
        "{answer:?}"
    );
    t.wait_log("refused: tiao is playing on another connection");
    // The first game goes on.
    b.answer(&mut first);
    let reply = first.next().expect("tiao answers");
    assert!(reply.starts_with('M') || reply.starts_with('E'), "{reply}");
    drop(first);
    // A client that comes right after a connection ends is served.
    still_serves(port);
}

/// The lines that say how many log lines the rate limit dropped, added up.
fn dropped_lines(log: &str) -> u64 {
    log.lines()
        .filter_map(|l| {
            let rest = l.split("warning: ").nth(1)?;
            rest.strip_suffix(&format!(
                " from this peer dropped (more than {MAX_LINES_PER_SECOND} a second)"
            ))?
            .split(' ')
            .next()?
            .parse::<u64>()
            .ok()
        })
        .sum()
}

/// The most lines the rate limit lets through in `secs` seconds of a connection's life: its
/// windows start at least a second apart.
fn rate_bound(secs: f64) -> usize {
    MAX_LINES_PER_SECOND as usize * (secs.floor() as usize + 1)
}

#[test]
fn a_flood_of_lone_nuls_writes_a_bounded_log() {
    let (t, port) = follower();
    let started = Instant::now();
    let mut p = Peer::connect(port);
    p.send_raw(&[0u8; 20_000]);
    // Still served: a game request after the flood is accepted.
    p.new_game(Color::Black, 1, 0);
    drop(p);
    t.wait_log("connection 1 closed");
    let secs = started.elapsed().as_secs_f64();
    let log = t.log_text();
    // However fast the machine: every NUL is either written or counted as dropped, and no more
    // lines are written than the rate limit allows over the connection's life.
    let nul_lines = log.matches("lone NUL").count();
    assert_eq!(nul_lines as u64 + dropped_lines(&log), 20_000, "{log}");
    assert!(
        nul_lines <= rate_bound(secs),
        "{nul_lines} lines in {secs:.1} s"
    );
}

#[test]
fn stray_gameends_neither_keep_a_connection_nor_flood_the_log() {
    let (t, port) = Tiao::follower(&["--depth", "2", "--hash", "4", "--idle-timeout", "2"]);
    let started = Instant::now();
    let mut p = Peer::connect(port);
    // A burst of GAMEENDs between games, then one every half second: none moves a game on, so
    // none keeps the connection open past the idle timeout, and their lines are rate-limited.
    p.send_raw("E00\0".repeat(5_000).as_bytes());
    let stop = Arc::new(AtomicBool::new(false));
    let mut w = p.stream.try_clone().unwrap();
    let pester = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) && w.write_all(b"E00\0").is_ok() {
                std::thread::sleep(Duration::from_millis(500));
            }
        })
    };
    p.closed_with("nothing from the peer");
    stop.store(true, Ordering::Relaxed);
    pester.join().unwrap();
    t.wait_log("connection 1 closed");
    let secs = started.elapsed().as_secs_f64();
    let log = t.log_text();
    let lines = log.lines().filter(|l| l.contains("GAMEEND")).count();
    assert!(lines <= rate_bound(secs), "{lines} lines in {secs:.1} s");
    assert!(dropped_lines(&log) > 0, "{log}");
    // The follower serves the next connection.
    still_serves(port);
}
