//! Running the `tiao` binary from the command-line tests, shared by them.

use std::process::Command;

/// Runs `tiao` with `args`; (stdout, stderr, success).
pub fn tiao(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}
