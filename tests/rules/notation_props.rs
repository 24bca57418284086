//! Property tests of the draughts notation: no parser panics on any input, and random legal
//! games round-trip through the FEN writer/reader and the PDN and Hub move writers/readers.
//!
//! Along the games the incremental Zobrist key is checked against a fresh computation, and every
//! capture's path (for long notation) is recovered from the position.

use proptest::prelude::*;
use tiao::draughts::movegen::legal_moves;
use tiao::draughts::moves::Move;
use tiao::draughts::notation::{fen, movetext, path};
use tiao::draughts::position::Position;
use tiao::draughts::rules::{Brazilian, Duoyibu, English, International, Rules, Russian};

/// A small deterministic generator for the random games (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// Plays up to `plies` random legal moves from the start position, checking every position.
fn random_game<R: Rules>(seed: u64, plies: usize) {
    let mut rng = Rng(seed | 1);
    let mut p = Position::<R>::start();
    for _ in 0..plies {
        check_position(&p);
        let l = legal_moves(&p);
        if l.is_empty() {
            break;
        }
        let m = l[rng.below(l.len())];
        p = p.make(&m);
    }
}

fn check_position<R: Rules>(p: &Position<R>) {
    assert_eq!(
        p.key(),
        p.compute_key(),
        "incremental key of {}",
        fen::write(p)
    );
    p.check().unwrap();
    let f = fen::write(p);
    let back = fen::parse::<R>(&f).unwrap_or_else(|e| panic!("{f}: {e}"));
    assert_eq!(
        (back.white(), back.black(), back.kings(), back.side()),
        (p.white(), p.black(), p.kings(), p.side())
    );
    assert_eq!(back.key(), p.key());
    assert_eq!(fen::write(&back), f);
    let legal = legal_moves(p);
    for m in &legal {
        check_move(p, m, &legal);
    }
}

fn check_move<R: Rules>(p: &Position<R>, m: &Move, legal: &[Move]) {
    let pdn = movetext::write_pdn_in(p, m, legal);
    assert_eq!(
        movetext::parse_pdn(p, &pdn).as_ref(),
        Ok(m),
        "PDN {pdn} in {}",
        fen::write(p)
    );
    assert_eq!(
        movetext::parse(p, &pdn).as_ref(),
        Ok(m),
        "PDN {pdn} in {}",
        fen::write(p)
    );
    let hub = movetext::write_hub::<R>(m);
    assert_eq!(
        movetext::parse_hub(p, &hub).as_ref(),
        Ok(m),
        "Hub {hub} in {}",
        fen::write(p)
    );
    if m.is_capture() {
        let path = path::find_path(p, m, &[]).expect("a capture has a path");
        assert_eq!(path.last(), Some(&m.to));
        assert!(path.len() >= m.capture_count() as usize);
    }
}

fn parse_everything<R: Rules>(s: &str) {
    let _ = fen::parse::<R>(s);
    let start = Position::<R>::start();
    let _ = movetext::parse(&start, s);
    let _ = movetext::parse_pdn(&start, s);
    let _ = movetext::parse_hub(&start, s);
}

/// Strings that look like FENs and moves, to reach deep into the parsers.
fn fenish() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[WBwbK?\"]?[:,WBK0-9a-jx\\-. ]{0,40}").unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic_on_any_string(s in "\\PC*") {
        parse_everything::<International>(&s);
        parse_everything::<Russian>(&s);
        parse_everything::<English>(&s);
    }

    #[test]
    fn parsers_never_panic_on_fen_like_strings(s in fenish()) {
        parse_everything::<International>(&s);
        parse_everything::<Brazilian>(&s);
        parse_everything::<Duoyibu>(&s);
        parse_everything::<English>(&s);
    }

    #[test]
    fn parsers_never_panic_on_bytes(b in proptest::collection::vec(any::<u8>(), 0..64)) {
        let s = String::from_utf8_lossy(&b);
        parse_everything::<International>(&s);
        parse_everything::<Russian>(&s);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: if cfg!(debug_assertions) { 12 } else { 64 },
        .. ProptestConfig::default()
    })]

    #[test]
    fn random_games_round_trip_international(seed in any::<u64>()) {
        random_game::<International>(seed, 160);
    }

    #[test]
    fn random_games_round_trip_brazilian(seed in any::<u64>()) {
        random_game::<Brazilian>(seed, 160);
    }

    #[test]
    fn random_games_round_trip_russian(seed in any::<u64>()) {
        random_game::<Russian>(seed, 160);
    }

    #[test]
    fn random_games_round_trip_duoyibu(seed in any::<u64>()) {
        random_game::<Duoyibu>(seed, 160);
    }

    #[test]
    fn random_games_round_trip_english(seed in any::<u64>()) {
        random_game::<English>(seed, 160);
    }
}

/// Positions with many kings exercise long notation and flying-king paths.
#[test]
fn perft_positions_round_trip() {
    for f in [
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        "W:WK31,K32,K33,K34,K35,K36,K37,K38,K39,K40,K41,K42,K43,K44,K45,K46,K47,K48,K49,K50:BK1,K2,K3,K4,K5,K6,K7,K8,K9,K10,K11,K12,K13,K14,K15,K16,K17,K18,K19,K20",
    ] {
        let mut frontier = vec![fen::parse::<International>(f).unwrap()];
        for _ in 0..2 {
            let mut next = Vec::new();
            for p in &frontier {
                check_position(p);
                next.extend(legal_moves(p).iter().map(|m| p.make(m)));
            }
            frontier = next;
        }
    }
}
