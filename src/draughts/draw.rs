//! The draughts variants' draw counters, as data.
//!
//! Every rule of RULES.md's draw table is one [`DrawRule`]: a threshold in plies, a material
//! condition under which it counts, and the events that reset it. A position keeps one counter per
//! rule (see [`Counters`]); `make` advances them with [`DrawRules::advance`], and a position is a
//! draw by rule when some counter has reached its threshold ([`DrawRules::is_draw`]).
//!
//! Invariant: counter `i` equals the number of consecutive plies, ending at this position, during
//! which rule `i`'s condition held after every ply and none of its reset events happened. A FEN
//! position starts every counter at 0 (PDN FEN carries no counters); the Hub `moves=` list replays
//! the game so that the counters build up as they did over the board.
//!
//! Repetition (the third occurrence of a position) is not a counter: the search checks it against
//! the game history, within the window given by [`Counters::reversible`] (plies since the last
//! capture or man move, after which no earlier position can recur).

use crate::draughts::board::Geometry;

/// Most rules any variant has (the FMJD-64 set).
pub const MAX_RULES: usize = 6;

/// Events of a ply that can reset a counter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Resets {
    /// A capture resets the counter.
    pub capture: bool,
    /// A man move (including a promotion) resets the counter.
    pub man_move: bool,
    /// A promotion resets the counter.
    pub promotion: bool,
}

/// No event resets the counter: only its material condition failing does.
pub const RESET_NONE: Resets = Resets {
    capture: false,
    man_move: false,
    promotion: false,
};
/// Reset by a capture only.
pub const RESET_CAPTURE: Resets = Resets {
    capture: true,
    man_move: false,
    promotion: false,
};
/// Reset by a capture or any man move ("only kings moved, no capture").
pub const RESET_CAPTURE_OR_MAN: Resets = Resets {
    capture: true,
    man_move: true,
    promotion: false,
};
/// Reset by a capture or a promotion.
pub const RESET_CAPTURE_OR_PROMOTION: Resets = Resets {
    capture: true,
    man_move: false,
    promotion: true,
};

/// The material under which a rule counts. "Strong" is whichever side is not the lone king.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    /// Any material.
    Always,
    /// One side has exactly one piece, a king; the other between `min` and `max` pieces, at least
    /// `min_kings` of them kings.
    VsLoneKing { min: u32, max: u32, min_kings: u32 },
    /// As `VsLoneKing`, and the lone king stands on the long diagonal a1-h8 (8x8 only).
    VsLoneKingOnLongDiagonal { min: u32, max: u32, min_kings: u32 },
    /// Both sides have at least one king, and the board holds between `min` and `max` pieces.
    BothHaveKings { min: u32, max: u32 },
}

/// One draw rule: a draw when `condition` has held for `plies` plies with no reset event.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Threshold in plies (one move by one player).
    pub plies: u16,
    /// When the rule counts.
    pub condition: Condition,
    /// What resets it.
    pub resets: Resets,
    /// Where the rule comes from (RULES.md's wording), for documentation and `--help` output.
    pub source: &'static str,
}

/// A variant's set of draw rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawRules {
    /// Short name (`international`, `fmjd`, ...).
    pub name: &'static str,
    /// The rules; at most [`MAX_RULES`].
    pub rules: &'static [DrawRule],
}

/// International: RULES.md's draw table.
pub const INTERNATIONAL: DrawRules = DrawRules {
    name: "international",
    rules: &[
        DrawRule {
            plies: 50,
            condition: Condition::Always,
            resets: RESET_CAPTURE_OR_MAN,
            source: "25 moves each with only kings moved and no capture",
        },
        DrawRule {
            plies: 32,
            condition: Condition::VsLoneKing {
                min: 3,
                max: 3,
                min_kings: 1,
            },
            resets: RESET_NONE,
            source: "3 pieces (at least one king) against a lone king: 16 more moves each",
        },
        DrawRule {
            plies: 10,
            condition: Condition::VsLoneKing {
                min: 1,
                max: 2,
                min_kings: 1,
            },
            resets: RESET_NONE,
            source: "2 kings, king + man or king against a lone king: 5 more moves each",
        },
    ],
};

/// English: 40 moves each with no man moved and no capture.
pub const ENGLISH: DrawRules = DrawRules {
    name: "english",
    rules: &[DrawRule {
        plies: 80,
        condition: Condition::Always,
        resets: RESET_CAPTURE_OR_MAN,
        source: "40 moves each with no man moved and no capture",
    }],
};

/// Russian (seed 004).
pub const RUSSIAN: DrawRules = DrawRules {
    name: "russian",
    rules: &[
        DrawRule {
            plies: 60,
            condition: Condition::Always,
            resets: RESET_CAPTURE,
            source: "30 rounds with no capture",
        },
        DrawRule {
            plies: 36,
            condition: Condition::VsLoneKing {
                min: 3,
                max: 32,
                min_kings: 3,
            },
            resets: RESET_NONE,
            source: "3 kings against a lone king not captured within 18 moves of the strong side",
        },
    ],
};

/// The official FMJD-64 set: brazilian's, and russian's with `draw-rules=fmjd`.
pub const FMJD64: DrawRules = DrawRules {
    name: "fmjd",
    rules: &[
        DrawRule {
            plies: 30,
            condition: Condition::Always,
            resets: RESET_CAPTURE_OR_MAN,
            source: "15 moves each with only kings moved and no capture",
        },
        DrawRule {
            plies: 30,
            condition: Condition::VsLoneKing {
                min: 3,
                max: 32,
                min_kings: 3,
            },
            resets: RESET_NONE,
            source: "3 or more kings against a lone king: 15 moves each",
        },
        DrawRule {
            plies: 60,
            condition: Condition::BothHaveKings { min: 4, max: 5 },
            resets: RESET_CAPTURE_OR_PROMOTION,
            source: "both sides with kings, 4-5 pieces, no capture or promotion: 30 moves each",
        },
        DrawRule {
            plies: 120,
            condition: Condition::BothHaveKings { min: 6, max: 7 },
            resets: RESET_CAPTURE_OR_PROMOTION,
            source: "both sides with kings, 6-7 pieces, no capture or promotion: 60 moves each",
        },
        DrawRule {
            plies: 10,
            condition: Condition::VsLoneKingOnLongDiagonal {
                min: 3,
                max: 3,
                min_kings: 1,
            },
            resets: RESET_NONE,
            source: "3 pieces with a king against a lone king on the long diagonal: 5 moves each",
        },
        DrawRule {
            plies: 10,
            condition: Condition::VsLoneKing {
                min: 1,
                max: 2,
                min_kings: 1,
            },
            resets: RESET_NONE,
            source: "2 pieces or fewer with a king against a lone king: 5 moves each",
        },
    ],
};

/// Duoyibu: repetition only (seed 003 names no counter).
pub const REPETITION_ONLY: DrawRules = DrawRules {
    name: "repetition",
    rules: &[],
};

/// The draw counters a position carries. Small and `Copy`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counters {
    /// One counter per rule of the variant's [`DrawRules`], in plies (saturating).
    pub by_rule: [u8; MAX_RULES],
    /// Plies since the last capture or man move: the repetition window.
    pub reversible: u16,
}

/// What a ply did, as the counters see it.
#[derive(Copy, Clone, Debug)]
pub struct Ply {
    pub capture: bool,
    pub man_move: bool,
    pub promotion: bool,
}

impl Condition {
    /// Whether the condition holds for the pieces of White and Black (`pieces`) and the kings, on
    /// board `G`. Cheap tests first: most positions have no kings, and more than one piece a side.
    #[inline(always)]
    pub fn holds<G: Geometry>(&self, pieces: [u64; 2], kings: u64) -> bool {
        let strong_ok = |c: usize, min: u32, max: u32, min_kings: u32| {
            let n = pieces[c].count_ones();
            n >= min && n <= max && (pieces[c] & kings).count_ones() >= min_kings
        };
        // `c` has exactly one piece and it is a king.
        let lone = |c: usize| pieces[c] & pieces[c].wrapping_sub(1) == 0 && pieces[c] & kings != 0;
        match *self {
            Condition::Always => true,
            // Every other condition needs a king; most positions of a game have none.
            _ if kings == 0 => false,
            Condition::VsLoneKing {
                min,
                max,
                min_kings,
            } => {
                (lone(1) && strong_ok(0, min, max, min_kings))
                    || (lone(0) && strong_ok(1, min, max, min_kings))
            }
            Condition::VsLoneKingOnLongDiagonal {
                min,
                max,
                min_kings,
            } => {
                let diag = long_diagonal::<G>();
                (lone(1) && pieces[1] & diag != 0 && strong_ok(0, min, max, min_kings))
                    || (lone(0) && pieces[0] & diag != 0 && strong_ok(1, min, max, min_kings))
            }
            Condition::BothHaveKings { min, max } => {
                let total = (pieces[0] | pieces[1]).count_ones();
                pieces[0] & kings != 0 && pieces[1] & kings != 0 && total >= min && total <= max
            }
        }
    }
}

/// The long diagonal from White's lower-left corner (a1-h8 on 8x8, a1-j10 on 10x10).
fn long_diagonal<G: Geometry>() -> u64 {
    let a1 = G::bit_of_coords(0, 0).expect("a1 is dark");
    (1u64 << a1) | G::RAYS[crate::draughts::board::UP_RIGHT][a1 as usize]
}

impl DrawRules {
    /// The counters after a ply that led to the given pieces (White's, Black's) and kings.
    /// Inlined into `make`, where `self` is the variant's constant rule set, so that the loop over
    /// the rules unrolls and each condition folds to its few bit operations.
    #[inline(always)]
    pub fn advance<G: Geometry>(
        &self,
        c: &Counters,
        ply: Ply,
        pieces: [u64; 2],
        kings: u64,
    ) -> Counters {
        if kings == 0 && self.kingless_ply_resets_all() {
            // No king after the ply, so a man moved (a side's own ply never removes its kings):
            // every counter restarts.
            debug_assert!(ply.man_move, "a king moved, yet no king is left");
            return Counters::default();
        }
        let mut next = *c;
        next.reversible = if ply.capture || ply.man_move {
            0
        } else {
            c.reversible.saturating_add(1)
        };
        for (i, rule) in self.rules.iter().enumerate() {
            let reset = (ply.capture && rule.resets.capture)
                || (ply.man_move && rule.resets.man_move)
                || (ply.promotion && rule.resets.promotion);
            next.by_rule[i] = if reset || !rule.condition.holds::<G>(pieces, kings) {
                0
            } else {
                c.by_rule[i].saturating_add(1)
            };
        }
        next
    }

    /// Whether a man's move that leaves no king on the board zeroes every counter: true unless a
    /// rule counts without kings (`Condition::Always`) and is not reset by a man's move. A
    /// constant per rule set, folded where [`DrawRules::advance`] is inlined.
    #[inline(always)]
    pub const fn kingless_ply_resets_all(&self) -> bool {
        let mut i = 0;
        while i < self.rules.len() {
            let r = &self.rules[i];
            if matches!(r.condition, Condition::Always) && !r.resets.man_move {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The counters of a position set up from scratch (a FEN): zero.
    pub fn fresh(&self) -> Counters {
        Counters::default()
    }

    /// The rule under which the position is a draw, if any.
    pub fn is_draw(&self, c: &Counters) -> Option<&'static DrawRule> {
        self.rules
            .iter()
            .enumerate()
            .find(|(i, r)| c.by_rule[*i] as u16 >= r.plies)
            .map(|(_, r)| r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::board::Board8;

    #[test]
    fn rule_sets_fit() {
        for set in [INTERNATIONAL, ENGLISH, RUSSIAN, FMJD64, REPETITION_ONLY] {
            assert!(set.rules.len() <= MAX_RULES);
            for r in set.rules {
                assert!(
                    r.plies < u8::MAX as u16,
                    "{} does not fit a u8 counter",
                    r.source
                );
            }
        }
    }

    #[test]
    fn kingless_man_moves_reset_all_but_russian() {
        for set in [INTERNATIONAL, ENGLISH, FMJD64, REPETITION_ONLY] {
            assert!(set.kingless_ply_resets_all(), "{}", set.name);
        }
        // Russian's 30 rounds count captures only: a man's move does not reset them.
        assert!(!RUSSIAN.kingless_ply_resets_all());
        let man = Ply {
            capture: false,
            man_move: true,
            promotion: false,
        };
        let c = Counters {
            by_rule: [7; MAX_RULES],
            reversible: 7,
        };
        let next = INTERNATIONAL.advance::<Board8>(&c, man, [1, 2], 0);
        assert_eq!(next, Counters::default());
    }

    #[test]
    fn lone_king_on_long_diagonal() {
        let a1 = Board8::bit_of_coords(0, 0).unwrap();
        let b2 = Board8::bit_of_coords(1, 1).unwrap();
        let c1 = Board8::bit_of_coords(2, 0).unwrap();
        let d8 = Board8::bit_of_coords(3, 7).unwrap();
        let f8 = Board8::bit_of_coords(5, 7).unwrap();
        let white = (1u64 << c1) | (1u64 << d8) | (1u64 << f8);
        let holds = |lone_king: u8| {
            let cond = Condition::VsLoneKingOnLongDiagonal {
                min: 3,
                max: 3,
                min_kings: 1,
            };
            cond.holds::<Board8>(
                [white, 1u64 << lone_king],
                (1u64 << c1) | (1u64 << lone_king),
            )
        };
        assert!(holds(a1));
        assert!(holds(b2));
        let e3 = Board8::bit_of_coords(4, 2).unwrap();
        assert!(!holds(e3));
    }
}
