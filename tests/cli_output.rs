//! The command line's manners on stdout: a reader that stops early (`| head`) ends the program
//! quietly, as Unix tools do, instead of a panic.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn a_closed_pipe_ends_the_program_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args(["perft", "--depth", "9", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.starts_with("perft international"), "{first}");
    drop(out);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(output.status.code(), Some(101), "a panic's exit status");
}
