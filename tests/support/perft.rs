//! The reader of the perft data files (`tests/data/*.perft`, copied from `../shared/perft/`),
//! shared by the draughts and the Morris perft tests.
//!
//! Format: `variant NAME`, then for each position `fen FEN` followed by `DEPTH NODES` lines; `#`
//! starts a comment, blank lines are skipped.

#![allow(dead_code)]

/// One position of a perft file with its `(depth, leaves)` figures.
pub struct Case {
    /// The variant of the section the position is in.
    pub variant: String,
    pub fen: String,
    pub figures: Vec<(u32, u64)>,
}

/// Reads `tests/data/{file}`: the variant of its last section, and every position.
pub fn load(file: &str) -> (String, Vec<Case>) {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut variant = String::new();
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let (key, value) = line.split_once(' ').expect("key value");
        match key {
            "variant" => variant = value.to_string(),
            "fen" => cases.push(Case {
                variant: variant.clone(),
                fen: value.to_string(),
                figures: Vec::new(),
            }),
            depth => {
                let d: u32 = depth.parse().expect("depth");
                let n: u64 = value.parse().expect("nodes");
                cases
                    .last_mut()
                    .expect("fen before figures")
                    .figures
                    .push((d, n));
            }
        }
    }
    (variant, cases)
}
