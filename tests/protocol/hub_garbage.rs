//! Garbage on the Hub input (random bytes, invalid UTF-8, NULs, huge lines, truncated lines,
//! wrong arguments) never kills the engine or changes its state: afterwards the position, the
//! parameters and a search are exactly as before.

use crate::hub_common::{Engine, PATIENCE};
use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};
use std::time::Duration;
use tiao::protocol::hub::command::Command;

/// Whether a line would be a valid command (garbage must not be).
fn is_command(line: &[u8]) -> bool {
    std::str::from_utf8(line)
        .is_ok_and(|s| Command::parse(s.trim_end_matches(['\n', '\r'])).is_ok())
}

/// A fixed-seed generator, so that a failure can be replayed.
fn rng() -> TestRng {
    TestRng::from_seed(RngAlgorithm::ChaCha, &[0x5a; 32])
}

/// A number below `n`.
fn below(rng: &mut TestRng, n: u64) -> u64 {
    rng.next_u64() % n
}

/// Lines that look like commands but are wrong or cut short.
const BROKEN: &[&str] = &[
    "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwww",
    "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwwwwwwww",
    "pos pos=",
    "pos pos=\"",
    "pos moves=\"32-28 19-",
    "pos start moves=\"32-28 19-23 28x",
    "pos start moves=\"99-98\"",
    "pos start moves=\"32-28 32-28\"",
    "pos fen=\"W:W31-50:B1-\"",
    "pos fen=\"X:W31:B1\"",
    "pos fen=W:W31,32:B1 pos=Wbbb",
    "set-param",
    "set-param name=",
    "set-param name=variant value=",
    "set-param name=variant value=morris-dance",
    "set-param name=variant value=\"normal russian\"",
    "set-param name=threads value=-1",
    "set-param name=threads value=99999999999999999999",
    "set-param name=hash value=0",
    "set-param name=draw-rules value=sometimes",
    "set-param name=lmr value=maybe",
    "set-param name=time-adapt value=sometimes",
    "set-param name=time-stable value=-3",
    "set-param name=numbering-8x8 value=upside-down",
    "set-param name=ponder value=perhaps",
    "level depth=",
    "level depth=-1",
    "level time=1..5",
    "level nodes=1e99",
    "level move-time=inf",
    "level time=NaN",
    "level moves=two time=1",
    "go think ponder",
    "go thi=nk=",
    "=",
    "\"",
    "  =value",
    "ping=",
    "hub\u{7}",
    "level\u{0}depth=3",
    "p\u{0}s",
    "\u{feff}=hub",
];

#[test]
fn garbage_never_kills_the_engine_or_changes_its_state() {
    let mut e = Engine::hub();
    e.send("hub");
    let (_, params_before) = e.until("wait", PATIENCE);
    e.send("set-param name=variant value=russian");
    e.send("pos start moves=\"c3-d4 f6-e5\"");
    let fen_before = e.fen();
    e.send("hub");
    let (_, params_set) = e.until("wait", PATIENCE);
    assert_ne!(params_before, params_set);
    e.send("level depth=5");
    e.send("new-game");
    let (reference, _) = e.go("think");

    let mut rng = rng();
    let mut garbage: Vec<Vec<u8>> = Vec::new();
    // Random bytes, in lines of random length (some with NULs, CRs, invalid UTF-8).
    for _ in 0..200 {
        let len = below(&mut rng, 200) as usize;
        let mut line: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        line.retain(|&b| b != b'\n');
        line.push(b'\n');
        if !is_command(&line) {
            garbage.push(line);
        }
    }
    // Broken commands (each answered with an error), and the same cut at random places (unless
    // the cut happens to be a valid command, such as a bare `pos`).
    for l in BROKEN {
        garbage.push(format!("{l}\n").into_bytes());
        let cut = below(&mut rng, l.len() as u64 + 1) as usize;
        let mut short = l.as_bytes()[..cut].to_vec();
        short.push(b'\n');
        if !is_command(&short) {
            garbage.push(short);
        }
    }
    // Huge lines: past the line cap, and a long but valid-looking one.
    garbage.push([vec![b'x'; 3 << 20], b"\n".to_vec()].concat());
    garbage.push(format!("pos start moves=\"{}\"\n", "32-28 ".repeat(100_000)).into_bytes());
    garbage.push(
        [
            b"set-param name=".to_vec(),
            vec![b'a'; 2 << 20],
            b"\n".to_vec(),
        ]
        .concat(),
    );
    // Shuffle.
    for i in (1..garbage.len()).rev() {
        let j = below(&mut rng, i as u64 + 1) as usize;
        garbage.swap(i, j);
    }
    for g in &garbage {
        e.send_bytes(g);
    }
    // Every line got exactly one answer, an `error`, and the engine is still alive.
    let answers = e.sync();
    for a in &answers {
        assert!(a.starts_with("error message="), "{a}");
    }
    assert_eq!(answers.len(), garbage.len());

    // The state is as it was.
    assert_eq!(e.fen(), fen_before);
    e.send("hub");
    let (_, params_after) = e.until("wait", PATIENCE);
    assert_eq!(params_after, params_set);
    e.send("level depth=5");
    e.send("new-game");
    let (again, _) = e.go("think");
    assert_eq!(again, reference, "the same search gives the same answer");
    e.quiet(Duration::from_millis(50));
    e.quit();
}

#[test]
fn a_truncated_last_line_then_end_of_input() {
    let mut e = Engine::hub();
    e.send_bytes(b"ping\npos start moves=\"32-2");
    e.close();
    assert_eq!(e.next_line(PATIENCE).as_deref(), Some("pong"));
    let err = e.next_line(PATIENCE).unwrap();
    assert!(
        err.starts_with("error message=\"unterminated quote"),
        "{err}"
    );
    assert!(e.wait_exit(Duration::from_secs(5)).success());
}
