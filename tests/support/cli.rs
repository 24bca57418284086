//! Running the `tiao` binary from the command-line tests, shared by them.

use std::process::Command;

/// Runs `tiao` with `args`; (stdout, stderr, success).
pub fn tiao(args: &[&str]) -> (String, String, bool) {
    tiao_env(args, &[])
}

/// Runs `tiao` with `args` and environment variables `env`; (stdout, stderr, success).
#[allow(dead_code)]
pub fn tiao_env(args: &[&str], env: &[(&str, &str)]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}
