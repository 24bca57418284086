//! The initiator (`tiao dxp --connect`) against a scripted follower on a raw socket: the
//! GAMEREQ it sends, and a follower that misbehaves (the game is reported as lost by the peer).

use crate::dxp_support::{Board10, Peer, Tiao, accept, fake_follower};
use tiao::game::color::Color;
use tiao::protocol::dxp::message::{AcceptCode, Board, GameAcc, Message};

const NAME: &str = "fake follower";

/// The scripted follower's GAMEACC.
fn acc(code: AcceptCode) -> String {
    Message::GameAcc(GameAcc {
        follower: NAME.into(),
        code,
    })
    .to_wire()
}

/// Starts tiao as initiator against a scripted follower; returns both.
fn initiator(args: &[&str]) -> (Tiao, Peer) {
    let (l, port) = fake_follower();
    let addr = format!("127.0.0.1:{port}");
    let mut all = vec!["--connect", addr.as_str(), "--depth", "2", "--hash", "4"];
    all.extend_from_slice(args);
    let t = Tiao::start(&all);
    let p = accept(&l);
    (t, p)
}

/// As [`initiator`], with tiao's first GAMEREQ read and accepted.
fn accepted(args: &[&str]) -> (Tiao, Peer) {
    let (t, mut p) = initiator(args);
    p.expect("R");
    p.send(&acc(AcceptCode::Accepted));
    (t, p)
}

/// The game line of tiao's stdout, checked to report a game lost by the peer.
fn lost_by_peer(t: &mut Tiao, result: &str) -> String {
    let status = t.wait_exit();
    let out = t.out_text();
    let line = out
        .lines()
        .find(|l| l.starts_with("game 1:"))
        .unwrap_or_else(|| panic!("{out}\n{}", t.log_text()))
        .to_string();
    assert!(line.contains(&format!("{result} [tiao won")), "{line}");
    assert!(line.contains(&format!("lost by {NAME}")), "{line}");
    assert!(
        status.success(),
        "one game was asked for and decided: {out}"
    );
    line
}

#[test]
fn the_game_request_has_the_asked_fields() {
    let (mut t, mut p) = initiator(&[
        "--time", "7", "--moves", "40", "--color", "black", "--name", "tiao-I",
    ]);
    assert_eq!(p.expect("R"), format!("R01{:<32}W007040A", "tiao-I"));
    p.send(&acc(AcceptCode::NoGames));
    // Refused: nothing played; the run fails with a clear message.
    assert!(!t.wait_exit().success());
    assert!(
        t.log_text()
            .contains("refused: no games at all by fake follower")
    );
    let (_t, mut p) = initiator(&["--fen", "B:WK46,31:B5,12", "--color", "white"]);
    let mut pos = vec!['e'; 50];
    pos[45] = 'W';
    pos[30] = 'w';
    pos[4] = 'z';
    pos[11] = 'z';
    let pos: String = pos.into_iter().collect();
    let name = format!("tiao {}", env!("CARGO_PKG_VERSION"));
    assert_eq!(p.expect("R"), format!("R01{name:<32}Z005000BZ{pos}"));
}

#[test]
fn garbage_from_the_follower_is_a_forfeit() {
    let (mut t, mut p) = accepted(&["--color", "white"]);
    p.expect("M");
    p.send_raw(b"\x01\x02garbage\0");
    p.closed_with("protocol error");
    let line = lost_by_peer(&mut t, "2-0");
    assert!(line.contains("unknown message type"), "{line}");
}

#[test]
fn an_illegal_move_from_the_follower_is_a_forfeit() {
    let (mut t, mut p) = accepted(&["--color", "black"]);
    // The follower (White) moves a man backward.
    p.send("M0000323700");
    p.until_closed();
    let line = lost_by_peer(&mut t, "0-2");
    assert!(line.contains("illegal move 32-37"), "{line}");
}

#[test]
fn a_wrong_field_width_from_the_follower_is_a_forfeit() {
    let (mut t, mut p) = accepted(&["--color", "black"]);
    p.send("M00003228000");
    p.until_closed();
    let line = lost_by_peer(&mut t, "0-2");
    assert!(line.contains("MOVE: 12 characters, expected 11"), "{line}");
}

#[test]
fn a_follower_that_disconnects_mid_game_loses() {
    let (mut t, mut p) = accepted(&["--color", "white"]);
    let mut b = Board10::new(Board::start(), Color::Black);
    b.take(&mut p);
    b.answer(&mut p);
    p.expect("M");
    drop(p);
    let line = lost_by_peer(&mut t, "2-0");
    assert!(line.contains("the peer closed the connection"), "{line}");
    assert!(
        t.log_text()
            .contains("error: the peer closed the connection in the middle of a game")
    );
}

#[test]
fn games_follow_one_another_until_the_follower_stops() {
    let (mut t, mut p) = initiator(&["--games", "3", "--color", "alternate"]);
    // Game 1: tiao White moves, then the follower gives up (willing to play on).
    assert!(p.expect("R").ends_with("Z005000A"));
    p.send(&acc(AcceptCode::Accepted));
    p.expect("M");
    p.send("CWell played");
    p.send("E10");
    assert_eq!(p.expect("E"), "E30");
    // Game 2: tiao Black; the follower ends it as a draw and wants to stop.
    assert!(p.expect("R").ends_with("W005000A"));
    p.send(&acc(AcceptCode::Accepted));
    p.send("E21");
    assert_eq!(p.expect("E"), "E20");
    // tiao then closes without a third game.
    assert!(p.until_closed().is_empty());
    let status = t.wait_exit();
    let out = t.out_text();
    assert!(out.contains("game 1: tiao"), "{out}");
    assert!(out.contains("2-0 [tiao won"), "{out}");
    assert!(
        out.contains("game 2: fake follower (white) - tiao"),
        "{out}"
    );
    assert!(out.contains("1-1 [draw"), "{out}");
    assert!(out.contains("score: tiao +1 =1 -0 in 2 games"), "{out}");
    // 2 of 3 games: the run reports it.
    assert!(!status.success());
    assert!(
        t.log_text()
            .contains("chat from fake follower: Well played")
    );
}

#[test]
fn the_follower_answers_tiaos_gameend() {
    // One move each from a position where Black (the follower) is left without moves after
    // tiao's capture: tiao's capture ends the game; the follower, to move, must end it.
    let (mut t, mut p) = accepted(&["--color", "white", "--fen", "W:W28:B23"]);
    let m = p.expect("M");
    let Message::Move(mv) = Message::parse(&m).unwrap() else {
        panic!()
    };
    assert_eq!((mv.from, mv.to, mv.captured.clone()), (28, 19, vec![23]));
    // The follower has no move: it gives up (stop code 1); tiao confirms.
    p.send("E11");
    assert_eq!(p.expect("E"), "E31");
    assert!(t.wait_exit().success());
    assert!(t.out_text().contains("game 1: tiao"));
    assert!(
        t.out_text()
            .contains("2-0 [tiao won, 1 plies]: black has no legal move")
    );
}
