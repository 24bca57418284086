//! `tiao gui` in a real headless browser (Chromium through chromedriver): the page loads, moves
//! are clicked (a legal one the engine answers, an illegal one refused, a multi-capture square by
//! square), analysis streams and stops, a PDN file from `tiao match` loads and is stepped through,
//! a Morris game is played (placing, a mill's removal, moving), a FEN of every variant sets up.
//! Screenshots of the international, english and Morris boards (and of the whole page) are
//! written to
//! `target/tmp/gui-screenshots/` (docs/gui/ has copies). Skipped, with a message, where no
//! chromedriver is installed.

use crate::gui_support::GuiServer;
use crate::webdriver::Browser;
use serde_json::json;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Where the screenshots go.
fn screenshot_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gui-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One browser at a time: each is a heavy process tree, and the machine may have 2 cores.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A browser on a fresh page of a fresh server, with the engine playing `engine_side`; the
/// guard keeps other browser tests waiting.
fn open(engine_side: &str) -> Option<(MutexGuard<'static, ()>, GuiServer, Browser)> {
    let guard = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    let browser = Browser::start()?;
    let server = GuiServer::start();
    browser.open(&server.url());
    browser.wait_until(
        "the board is drawn",
        "return document.querySelectorAll('#board .cell').length === 50;",
    );
    set_select(&browser, "engine-side", engine_side);
    Some((guard, server, browser))
}

fn set_select(b: &Browser, id: &str, value: &str) {
    b.script(
        "const e = document.getElementById(arguments[0]); e.value = arguments[1]; e.dispatchEvent(new Event('change'));",
        json!([id, value]),
    );
}

fn moves_played(b: &Browser) -> usize {
    b.script(
        "return document.querySelectorAll('#moves span').length;",
        json!([]),
    )
    .as_u64()
    .unwrap() as usize
}

fn message(b: &Browser) -> String {
    let e = b.find("#message");
    b.text(&e)
}

/// Sets up `fen` of `variant` from the page's controls.
fn set_up(b: &Browser, variant: &str, fen: &str, cells: usize) {
    set_select(b, "variant", variant);
    b.wait_until(
        &format!("a {variant} board"),
        &format!("return document.getElementById('board').dataset.variant === '{variant}';"),
    );
    // Typed and sent in one script: the page's click handler reads the field at once, so a state
    // arriving from the server cannot refill the field between the two (it did once between a
    // typed FEN and a WebDriver click, and the old position was set up).
    b.script(
        "document.getElementById('fen').value = arguments[0]; document.getElementById('setup').click();",
        json!([fen]),
    );
    b.wait_until(
        &format!("{variant} {fen} set up"),
        &format!(
            "return document.body.dataset.startFen === {} && document.querySelectorAll('#board .cell').length === {cells};",
            json!(fen)
        ),
    );
    assert_eq!(message(b), "", "{variant} {fen}");
}

#[test]
fn a_move_is_clicked_the_engine_answers_and_an_illegal_click_is_refused() {
    let Some((_guard, _server, b)) = open("black") else {
        return;
    };
    b.script(
        "document.getElementById('movetime').value = '0.2';",
        json!([]),
    );
    // Illegal: a black man, then a square a white man cannot reach.
    b.click_on("#cell-19");
    assert!(message(&b).contains("White's move"), "{}", message(&b));
    b.click_on("#cell-33");
    b.wait_until(
        "the targets of 33 are shown",
        "return document.querySelectorAll('#board .target').length === 2;",
    );
    b.click_on("#cell-22");
    let m = message(&b);
    assert!(
        m.starts_with("Illegal") && m.contains("33 cannot go to 22"),
        "{m}"
    );
    // Legal: 32-28, and the engine answers.
    b.click_on("#cell-32");
    b.click_on("#cell-28");
    b.wait_for("the engine's answer", || {
        (moves_played(&b) == 2).then_some(())
    });
    let first = b.find("#move-1");
    assert_eq!(b.text(&first), "32-28");
    assert_eq!(message(&b), "");
    std::fs::write(
        screenshot_dir().join("international.png"),
        b.screenshot(&b.find("#board")),
    )
    .unwrap();
    // Flipped, square 1 moves from the top row to the bottom one.
    let y_of_1 = || {
        b.script(
            "return Number(document.getElementById('cell-1').getAttribute('y'));",
            json!([]),
        )
        .as_f64()
        .unwrap()
    };
    let before = y_of_1();
    b.click_on("#flip");
    assert!(y_of_1() > before);
    // Take back: against the engine, back to the player's own move (both plies).
    b.click_on("#takeback");
    b.wait_for("the take-back", || (moves_played(&b) == 0).then_some(()));
}

#[test]
fn the_engine_plays_itself() {
    let Some((_guard, _server, b)) = open("none") else {
        return;
    };
    b.script(
        "document.getElementById('movetime').value = '0.05';",
        json!([]),
    );
    set_select(&b, "engine-side", "both");
    b.wait_for("four engine moves", || {
        (moves_played(&b) >= 4).then_some(())
    });
    set_select(&b, "engine-side", "none");
}

#[test]
fn a_multi_capture_is_clicked_square_by_square() {
    let Some((_guard, _server, b)) = open("none") else {
        return;
    };
    set_up(&b, "international", "W:W47:B42,32,31,11", 50);
    for sq in ["47", "38", "27"] {
        b.click_on(&format!("#cell-{sq}"));
        assert_eq!(moves_played(&b), 0, "the capture goes on after {sq}");
    }
    b.click_on("#cell-36");
    b.wait_for("the capture is played", || {
        (moves_played(&b) == 1).then_some(())
    });
    assert_eq!(b.text(&b.find("#move-1")), "47x36");
    // A ring: 38 takes 32, 22, 23 and 33 and comes back, either way round (one move, two
    // routes); the route the server does not list is clicked as well.
    set_up(&b, "international", "W:W38:B22,23,32,33", 50);
    let listed = b.script("return page.view.legal[0].path;", json!([]));
    let listed: Vec<String> = serde_json::from_value(listed).unwrap();
    assert_eq!(listed.len(), 5, "{listed:?}");
    let other = [&listed[0], &listed[3], &listed[2], &listed[1], &listed[4]];
    for sq in other {
        b.click_on(&format!("#cell-{sq}"));
    }
    b.wait_for("the ring is played", || {
        (moves_played(&b) == 1).then_some(())
    });
    assert_eq!(message(&b), "");
}

#[test]
fn analysis_streams_depths_and_stops_on_request() {
    let Some((_guard, _server, b)) = open("none") else {
        return;
    };
    b.click_on("#analyze");
    b.wait_until(
        "two depths",
        "return new Set([...document.querySelectorAll('#lines tr.analyze')].map(r => r.dataset.depth)).size >= 2;",
    );
    b.click_on("#stop");
    b.wait_until(
        "the analysis stops",
        "return document.getElementById('status').dataset.searching === '';",
    );
    let pv = b.script(
        "return document.querySelector('#lines tr.analyze td.pv').textContent;",
        json!([]),
    );
    assert!(!pv.as_str().unwrap().is_empty());
    // The whole page, for docs/gui.md: a few moves, their scores on the curve, the lines.
    b.click_on("#cell-32");
    b.click_on("#cell-28");
    b.wait_for("32-28", || (moves_played(&b) == 1).then_some(()));
    b.click_on("#review");
    b.wait_until(
        "the game scored",
        "return document.getElementById('status').dataset.searching === '';",
    );
    b.click_on("#analyze");
    b.wait_until(
        "two depths",
        "return new Set([...document.querySelectorAll('#lines tr.analyze')].map(r => r.dataset.depth)).size >= 2;",
    );
    b.click_on("#stop");
    b.wait_until(
        "the analysis stops",
        "return document.getElementById('status').dataset.searching === '' && document.getElementById('curve').complete;",
    );
    std::fs::write(screenshot_dir().join("page.png"), b.page_screenshot()).unwrap();
}

#[test]
fn a_match_pdn_loads_and_is_stepped_through() {
    let Some((_guard, _server, b)) = open("none") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("tiao-gui-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("match.pdn");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args([
            "match",
            "--engine",
            "tiao hash=8",
            "--engine",
            "tiao hash=8",
            "--games",
            "2",
        ])
        .args(["--depth", "1", "--pdn"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let input = b.find("#pdn-file");
    b.type_into(&input, file.to_str().unwrap());
    b.wait_for("the game's moves", || (moves_played(&b) > 4).then_some(()));
    let end_fen = b.script("return document.getElementById('fen').value;", json!([]));
    b.click_on("#nav-first");
    b.wait_until(
        "the start",
        "return document.querySelector('#moves .current') === null;",
    );
    for _ in 0..3 {
        b.click_on("#nav-next");
    }
    b.wait_until(
        "ply 3",
        "const c = document.querySelector('#moves .current'); return c !== null && c.id === 'move-3';",
    );
    let fen = b.script("return document.getElementById('fen').value;", json!([]));
    assert_ne!(fen, end_fen);
    b.click_on("#move-1");
    b.wait_until(
        "ply 1",
        "const c = document.querySelector('#moves .current'); return c !== null && c.id === 'move-1';",
    );
    // The file's second game.
    b.wait_until(
        "the choice of games",
        "return document.querySelectorAll('#pdn-game option').length === 2;",
    );
    set_select(&b, "pdn-game", "1");
    b.wait_until(
        "the second game",
        "return document.getElementById('pdn-game').value === '1' && document.querySelector('#moves .current') !== null && document.querySelector('#moves .current').id === 'move-' + document.querySelectorAll('#moves span').length;",
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_morris_game_places_removes_and_moves() {
    let Some((_guard, _server, b)) = open("none") else {
        return;
    };
    set_up(&b, "morris", "W:Wa1,d1:Bg7,a7,b6:H1,1:R0", 24);
    // Placing g1 closes a1-d1-g1: the page waits for the man removed.
    b.click_on("#cell-g1");
    assert_eq!(moves_played(&b), 0);
    b.wait_until(
        "the men that may be removed",
        "return document.querySelectorAll('#board .target').length === 3;",
    );
    b.click_on("#cell-b6");
    b.wait_for("the mill", || (moves_played(&b) == 1).then_some(()));
    assert_eq!(b.text(&b.find("#move-1")), "g1xb6");
    // Black places its last man, then White moves one.
    b.click_on("#cell-c5");
    b.wait_for("Black's placement", || {
        (moves_played(&b) == 2).then_some(())
    });
    b.click_on("#cell-d1");
    b.click_on("#cell-d2");
    b.wait_for("White's step", || (moves_played(&b) == 3).then_some(()));
    assert_eq!(b.text(&b.find("#move-3")), "d1-d2");
    // Morris from its start, for the picture.
    set_up(&b, "morris", "W:Wa1,d2,g4,b4:Bd7,f4,e3,c5:H5,5:R0", 24);
    b.click_on("#cell-d6");
    b.wait_for("a placement", || (moves_played(&b) == 1).then_some(()));
    std::fs::write(
        screenshot_dir().join("morris.png"),
        b.screenshot(&b.find("#board")),
    )
    .unwrap();
}

#[test]
fn a_fen_of_every_variant_sets_up() {
    let Some((_guard, _server, b)) = open("none") else {
        return;
    };
    for (variant, fen, cells) in [
        ("international", "W:W31,32,K46:B19,20,K5", 50),
        ("brazilian", "W:Wa1,c3,e3:Bf6,Kh8", 32),
        ("russian", "B:Wc3,Kg3:Bd4,Kh8", 32),
        ("duoyibu", "W:Wc3,e3:Bd6,b6", 32),
        ("english", "B:W21,22,K30:BK1,5,9", 32),
        ("morris", "B:Wa7,d7,b6:Bd2,f4:H6,7:R0", 24),
    ] {
        set_up(&b, variant, fen, cells);
    }
    // A garbage FEN is refused with its reason and changes nothing.
    b.script("document.getElementById('fen').value = 'W:Wz9';", json!([]));
    b.click_on("#setup");
    b.wait_for("the refusal", || {
        let m = message(&b);
        (!m.is_empty()).then_some(())
    });
    // English from the start, after a move each, for the picture.
    set_select(&b, "variant", "english");
    b.wait_until(
        "the english start",
        "return document.getElementById('board').dataset.variant === 'english' && document.querySelectorAll('#board .piece').length === 24;",
    );
    b.click_on("#cell-11");
    b.click_on("#cell-15");
    b.click_on("#cell-22");
    b.click_on("#cell-18");
    b.wait_for("two moves", || (moves_played(&b) == 2).then_some(()));
    std::fs::write(
        screenshot_dir().join("english.png"),
        b.screenshot(&b.find("#board")),
    )
    .unwrap();
}
