//! The three-move ballots of English draughts (checkers), as data.
//!
//! Under the three-move restriction a game starts from the first three plies drawn by ballot.
//! Leaving out transpositions and openings that lose at once there are 174 of them, numbered
//! 1-174 by the American Checker Federation (ACF) in the order below; 18 are barred as lost for
//! one side, and the remaining 156 form the current deck (the 137 of the original deck, 7 added
//! later, and the 12 admitted in the 2000s). The list and the barred marks follow the ACF
//! numbering as CheckerBoard and the usual references publish it; the tests check each ballot
//! against the rules (legal, three plies, all distinct positions).
//!
//! Format: one line per first two moves, `first second: third third ...`, a barred third move
//! marked `*`; the ACF number is the position in this order.

/// Every ACF ballot; see the module documentation for the format.
const ACF: &str = "\
9-13 21-17: 5-9 6-9 10-14*
9-13 22-17: 13x22
9-13 22-18: 6-9 10-14 10-15 11-15 11-16 12-16
9-13 23-18: 5-9 6-9 10-14* 10-15 11-15 11-16 12-16
9-13 23-19: 5-9 6-9 10-14 10-15 11-16
9-13 24-19: 5-9 6-9 10-14 10-15* 11-15 11-16
9-13 24-20: 5-9 6-9 10-14 10-15 11-15 11-16 12-16*
9-14 22-17: 5-9 6-9 11-15 11-16
9-14 22-18: 5-9 10-15 11-15 11-16 12-16* 14-17*
9-14 23-18: 14x23
9-14 23-19: 5-9 10-15* 11-16 14-18
9-14 24-19: 5-9 10-15* 11-15 11-16
9-14 24-20: 5-9 10-15 11-15 11-16
10-14 22-17: 7-10 9-13 11-15 11-16 14-18
10-14 22-18: 6-10 7-10 11-15 11-16 12-16
10-14 23-18: 14x23
10-14 23-19: 6-10 7-10 11-15 11-16 14-18
10-14 24-19: 6-10 7-10 11-15* 11-16 14-18
10-14 24-20: 6-10 7-10 11-15 11-16 14-18
10-15 21-17: 6-10 7-10 9-13 9-14* 11-16 15-18
10-15 22-17: 6-10 7-10 9-13 9-14* 11-16 15-19
10-15 22-18: 15x22
10-15 23-18: 6-10 7-10 9-14 11-16 12-16
10-15 23-19: 6-10 7-10 11-16
10-15 24-19: 15x24
10-15 24-20: 6-10 7-10 11-16* 15-19
11-15 21-17: 8-11 9-13 9-14 10-14* 15-19
11-15 22-17: 8-11 9-13 15-18 15-19
11-15 22-18: 15x22
11-15 23-18: 8-11 9-14 10-14 12-16 15-19
11-15 23-19: 8-11 9-13 9-14
11-15 24-19: 15x24
11-15 24-20: 8-11 12-16 15-18
11-16 21-17: 7-11 8-11 9-13 9-14 10-14* 16-20
11-16 22-17: 7-11 8-11 9-13 16-20
11-16 22-18: 7-11 8-11 10-15* 16-19 16-20
11-16 23-18: 7-11 8-11 9-14 10-14 16-20
11-16 23-19: 16x23
11-16 24-19: 7-11 8-11 10-15* 16-20
11-16 24-20: 7-11 16-19
12-16 21-17: 9-13 9-14 16-19 16-20
12-16 22-17: 16-19 16-20
12-16 22-18: 16-19 16-20
12-16 23-18: 9-14* 16-19 16-20
12-16 23-19: 16x23*
12-16 24-19: 16-20
12-16 24-20: 8-12 10-15
";

/// One ballot: its ACF number, its three moves, and whether it is barred.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ballot {
    pub number: usize,
    pub moves: [String; 3],
    pub barred: bool,
}

/// All 174 ballots in ACF order.
pub fn all() -> Vec<Ballot> {
    let mut out = Vec::with_capacity(174);
    for line in ACF.lines().filter(|l| !l.trim().is_empty()) {
        let (head, thirds) = line.split_once(':').expect("ballot data line");
        let mut first_two = head.split_whitespace().map(str::to_string);
        let (a, b) = (
            first_two.next().expect("first move"),
            first_two.next().expect("second move"),
        );
        for third in thirds.split_whitespace() {
            let barred = third.ends_with('*');
            out.push(Ballot {
                number: out.len() + 1,
                moves: [
                    a.clone(),
                    b.clone(),
                    third.trim_end_matches('*').to_string(),
                ],
                barred,
            });
        }
    }
    out
}

/// The 156 ballots of the current deck (the unbarred ones), in ACF order.
pub fn deck() -> Vec<Ballot> {
    all().into_iter().filter(|b| !b.barred).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::position::Position;
    use crate::draughts::rules::English;
    use crate::game::Game;
    use std::collections::HashSet;

    #[test]
    fn counts_and_rules() {
        let all = all();
        assert_eq!(all.len(), 174);
        assert_eq!(all.iter().filter(|b| b.barred).count(), 18);
        assert_eq!(deck().len(), 156);
        let mut seen = HashSet::new();
        for b in &all {
            let mut pos = Position::<English>::start();
            for m in &b.moves {
                let mv = pos
                    .parse_move(m)
                    .unwrap_or_else(|e| panic!("ballot {}: {m}: {e}", b.number));
                pos = pos.make(&mv);
            }
            assert!(
                seen.insert(pos.key()),
                "ballot {} repeats a position",
                b.number
            );
        }
        assert_eq!(all[0].moves, ["9-13", "21-17", "5-9"]);
        assert_eq!(all[173].moves, ["12-16", "24-20", "10-15"]);
        assert!(all[2].barred && all[170].barred);
    }
}
