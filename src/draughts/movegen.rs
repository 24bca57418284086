//! Draughts move generation, specialised per variant at compile time.
//!
//! Every function here is generic over `R: Rules` and over the side to move (`const WHITE`), so
//! each rule fact (`R::FLYING_KINGS`, `R::MAJORITY`, ...) is a constant and the branches on it
//! fold away; there is no run-time variant test in this module.
//!
//! - Captures are compulsory: when any capture exists only captures are generated
//!   ([`generate_captures`]).
//! - A capture sequence is completed: the piece keeps jumping while it can. For flying kings this
//!   means that when some landing square allows a continuation, only continuing landings are legal.
//! - Turkish strike: captured pieces stay on the board until the sequence ends; they block and
//!   cannot be jumped twice. The moving piece's origin square is empty during the sequence.
//! - Majority rule (when `R::MAJORITY`): only the sequences taking the most pieces are kept,
//!   applied as moves are added.
//! - Sequences with the same from, to and captured set are one move: they are added once.
//! - Quiet moves, including the duoyibu king rule (`R::KING_OPPOSITION`).
//!
//! [`count`] is the bulk counter used at the last ply of perft: quiet moves, and captures that are
//! all single jumps of men, are counted by popcount without being listed. [`count_two`] and
//! [`count_three`] count the last two and three plies: each child's bitboards are derived from the
//! parent's and the move, so no child position is made, and the quiet moves of the last-but-one
//! ply are visited without being listed (`each_quiet`, the one definition of the quiet moves,
//! which also fills the move list).
//!
//! Loops over the four directions whose bodies are large are written out once per direction
//! (`each_direction!`), so that every step by a direction is one constant shift.

use crate::draughts::board::{
    Bits, DOWN_LEFT, DOWN_RIGHT, Geometry, UP_LEFT, UP_RIGHT, each_direction, first, free_part,
    reverse, step,
};
use crate::draughts::moves::Move;
use crate::draughts::position::Position;
use crate::draughts::rules::{MidCapturePromotion, Rules};
use crate::game::MoveList;
use crate::game::color::Color;

/// No previous jump direction.
const NO_DIR: usize = 4;

/// The side-relative bitboards the generator works on.
#[derive(Copy, Clone)]
struct Sides {
    men: u64,
    kings: u64,
    opp: u64,
    opp_kings: u64,
    empty: u64,
}

#[inline(always)]
fn sides<R: Rules, const WHITE: bool>(pos: &Position<R>) -> Sides {
    let us = if WHITE { Color::White } else { Color::Black };
    let own = pos.pieces(us);
    let opp = pos.pieces(!us);
    Sides {
        men: own & !pos.kings(),
        kings: own & pos.kings(),
        opp,
        opp_kings: opp & pos.kings(),
        empty: pos.empty(),
    }
}

/// The two forward directions of a side's men.
#[inline(always)]
const fn forward<const WHITE: bool>() -> [usize; 2] {
    if WHITE {
        [UP_LEFT, UP_RIGHT]
    } else {
        [DOWN_LEFT, DOWN_RIGHT]
    }
}

/// The row on which a side's men promote.
#[inline(always)]
fn promotion_row<R: Rules, const WHITE: bool>() -> u64 {
    if WHITE {
        R::Board::TOP
    } else {
        R::Board::BOTTOM
    }
}

/// Directions (bit mask over `UP_LEFT..=DOWN_RIGHT`) in which a side's men capture.
#[inline(always)]
fn man_capture_dirs<R: Rules, const WHITE: bool>() -> u8 {
    if R::MEN_CAPTURE_BACKWARD {
        0b1111
    } else {
        let [a, b] = forward::<WHITE>();
        (1 << a) | (1 << b)
    }
}

/// The steps men of colour `c` on `men` can make to `empty` squares: their quiet moves, counted
/// (the move counter's, and the evaluation's men's mobility).
#[inline(always)]
pub fn man_steps<G: Geometry>(c: Color, men: u64, empty: u64) -> u32 {
    let [a, b] = match c {
        Color::White => forward::<true>(),
        Color::Black => forward::<false>(),
    };
    (step::<G>(men, a) & empty).count_ones() + (step::<G>(men, b) & empty).count_ones()
}

/// Directions perpendicular to `d` (the two that are neither `d` nor its reverse).
#[inline(always)]
const fn perpendicular(d: usize) -> u8 {
    if d == UP_LEFT || d == DOWN_RIGHT {
        (1 << UP_RIGHT) | (1 << DOWN_LEFT)
    } else {
        (1 << UP_LEFT) | (1 << DOWN_RIGHT)
    }
}

/// Generates the legal moves of `pos` into `list` (cleared first).
#[inline]
pub fn generate<R: Rules>(pos: &Position<R>, list: &mut MoveList<Move>) {
    list.clear();
    match pos.side() {
        Color::White => generate_sides::<R, true>(&sides::<R, true>(pos), list),
        Color::Black => generate_sides::<R, false>(&sides::<R, false>(pos), list),
    }
}

/// Generates only the captures of `pos` (all its moves when a capture exists, none otherwise).
#[inline]
pub fn generate_captures<R: Rules>(pos: &Position<R>, list: &mut MoveList<Move>) {
    list.clear();
    match pos.side() {
        Color::White => {
            let s = sides::<R, true>(pos);
            if has_capture_side::<R, true>(&s) {
                captures::<R, true>(&s, list);
            }
        }
        Color::Black => {
            let s = sides::<R, false>(pos);
            if has_capture_side::<R, false>(&s) {
                captures::<R, false>(&s, list);
            }
        }
    }
}

/// The legal moves of `pos` as a vector (convenience for code off the hot path).
pub fn legal_moves<R: Rules>(pos: &Position<R>) -> Vec<Move> {
    let mut list = MoveList::new();
    generate(pos, &mut list);
    list.as_slice().to_vec()
}

/// Whether the side to move has a capture (and therefore must capture).
#[inline]
pub fn has_capture<R: Rules>(pos: &Position<R>) -> bool {
    match pos.side() {
        Color::White => has_capture_side::<R, true>(&sides::<R, true>(pos)),
        Color::Black => has_capture_side::<R, false>(&sides::<R, false>(pos)),
    }
}

/// Number of legal moves of `pos`: the bulk count at the last ply of perft. `scratch` holds
/// captures when there are any (its contents are overwritten).
#[inline(always)]
pub fn count<R: Rules>(pos: &Position<R>, scratch: &mut MoveList<Move>) -> u64 {
    match pos.side() {
        Color::White => count_sides::<R, true>(&sides::<R, true>(pos), scratch),
        Color::Black => count_sides::<R, false>(&sides::<R, false>(pos), scratch),
    }
}

/// [`count`] from the side's bitboards.
#[inline(always)]
fn count_sides<R: Rules, const WHITE: bool>(s: &Sides, scratch: &mut MoveList<Move>) -> u64 {
    let s = *s;
    if s.kings == 0 {
        // Men only: the jump masks tell both whether a capture exists and, most often, how many.
        let jumps = man_jump_sources::<R, WHITE>(&s);
        if s.men & (jumps[0] | jumps[1] | jumps[2] | jumps[3]) == 0 {
            return count_quiets::<R, WHITE>(&s);
        }
        if let Some(n) = count_single_jumps::<R, WHITE>(&s, &jumps) {
            return n;
        }
    } else {
        return count_with_kings::<R, WHITE>(&s, scratch);
    }
    count_by_listing::<R, WHITE>(&s, scratch)
}

/// [`count_sides`] for a side with kings: kept out of line, so that the men-only count stays
/// small where it is inlined (the kings' loops would crowd the hot perft loops).
#[inline(never)]
fn count_with_kings<R: Rules, const WHITE: bool>(s: &Sides, scratch: &mut MoveList<Move>) -> u64 {
    if has_capture_side::<R, WHITE>(s) {
        count_by_listing::<R, WHITE>(s, scratch)
    } else {
        count_quiets::<R, WHITE>(s)
    }
}

/// The number of captures of a side that has one, by listing them in `scratch` (the count must
/// see the majority rule and duplicate sequences, which only the generator resolves).
#[inline(always)]
fn count_by_listing<R: Rules, const WHITE: bool>(s: &Sides, scratch: &mut MoveList<Move>) -> u64 {
    scratch.clear();
    captures::<R, WHITE>(s, scratch);
    scratch.len() as u64
}

/// Leaves two plies below `pos`: the sum of [`count`] over its children (the last two plies of
/// perft). `list` holds `pos`'s captures when it has any, `scratch` the children's (both
/// overwritten).
///
/// No child is made: a move from `f` to `t` taking `captured` changes the opponent's view of the
/// board in those squares only, so each child's bitboards are the parent's with those bits
/// changed, and are counted as they are. Quiet moves are not even listed: they are read straight
/// from the bitboards.
#[inline(always)]
pub fn count_two<R: Rules>(
    pos: &Position<R>,
    list: &mut MoveList<Move>,
    scratch: &mut MoveList<Move>,
) -> u64 {
    match pos.side() {
        Color::White => count_two_sides::<R, true, false>(&sides::<R, true>(pos), list, scratch),
        Color::Black => count_two_sides::<R, false, true>(&sides::<R, false>(pos), list, scratch),
    }
}

/// [`count_two`] from the bitboards of side `US`, to move (`THEM` is the other side).
#[inline(always)]
fn count_two_sides<R: Rules, const US: bool, const THEM: bool>(
    s: &Sides,
    list: &mut MoveList<Move>,
    scratch: &mut MoveList<Move>,
) -> u64 {
    let s = *s;
    if has_capture_side::<R, US>(&s) {
        list.clear();
        captures::<R, US>(&s, list);
        return list
            .iter()
            .map(|m| count_sides::<R, THEM>(&after_move(&s, m), scratch))
            .sum();
    }
    let mut children = CountChildren::<R, THEM> {
        s,
        n: 0,
        scratch,
        _rules: std::marker::PhantomData,
    };
    each_quiet::<R, US>(&s, &mut children);
    children.n
}

/// The leaves three plies below `pos` (perft's last three plies): its moves are listed in
/// `list`, and each child's bitboards are derived as in [`count_two`], which counts the rest
/// with `list2` and `scratch`; no position is made.
pub fn count_three<R: Rules>(
    pos: &Position<R>,
    list: &mut MoveList<Move>,
    list2: &mut MoveList<Move>,
    scratch: &mut MoveList<Move>,
) -> u64 {
    match pos.side() {
        Color::White => {
            count_three_sides::<R, true, false>(&sides::<R, true>(pos), list, list2, scratch)
        }
        Color::Black => {
            count_three_sides::<R, false, true>(&sides::<R, false>(pos), list, list2, scratch)
        }
    }
}

/// [`count_three`] from the bitboards of side `US`, to move.
#[inline(always)]
fn count_three_sides<R: Rules, const US: bool, const THEM: bool>(
    s: &Sides,
    list: &mut MoveList<Move>,
    list2: &mut MoveList<Move>,
    scratch: &mut MoveList<Move>,
) -> u64 {
    list.clear();
    generate_sides::<R, US>(s, list);
    list.iter()
        .map(|m| count_two_out_of_line::<R, THEM, US>(&after_move(s, m), list2, scratch))
        .sum()
}

/// [`count_two_sides`], called (not inlined) once per child by [`count_three`].
#[inline(never)]
fn count_two_out_of_line<R: Rules, const US: bool, const THEM: bool>(
    s: &Sides,
    list: &mut MoveList<Move>,
    scratch: &mut MoveList<Move>,
) -> u64 {
    count_two_sides::<R, US, THEM>(s, list, scratch)
}

/// The opponent's bitboards after move `m` (quiet or capture) of the side `s` describes.
#[inline(always)]
fn after_move(s: &Sides, m: &Move) -> Sides {
    let f = 1u64 << m.from;
    let king = s.kings & f != 0 || m.promotes();
    child_sides(s, f, 1u64 << m.to, m.captured, king)
}

/// Sums the counts of the children of quiet moves ([`count_two`]); `THEM` is the side to move in
/// the children.
struct CountChildren<'a, R, const THEM: bool> {
    /// The parent's bitboards, from the moving side's view.
    s: Sides,
    n: u64,
    scratch: &'a mut MoveList<Move>,
    _rules: std::marker::PhantomData<R>,
}

impl<R: Rules, const THEM: bool> VisitQuiet for CountChildren<'_, R, THEM> {
    #[inline(always)]
    fn visit<const KING: bool>(&mut self, from: u8, to: u8, promotes: bool) {
        let (f, t) = (1u64 << from, 1u64 << to);
        let king = KING || promotes;
        self.n += count_sides::<R, THEM>(&child_sides(&self.s, f, t, 0, king), self.scratch);
    }
}

/// The opponent's bitboards once a piece of the side `s` describes went from `f` to `t` (one bit
/// each, equal for a king's capture round a circle) taking `captured`; `king` when it is a king
/// there.
#[inline(always)]
fn child_sides(s: &Sides, f: u64, t: u64, captured: u64, king: bool) -> Sides {
    Sides {
        men: s.opp & !s.opp_kings & !captured,
        kings: s.opp_kings & !captured,
        opp: (s.men | s.kings) ^ f ^ t,
        opp_kings: (s.kings & !f) | if king { t } else { 0 },
        empty: (s.empty ^ f ^ t) | captured,
    }
}

/// For each direction in which the side's men capture, the squares from which a man could jump
/// in it ([`jump_source`]); 0 for the other directions.
#[inline(always)]
fn man_jump_sources<R: Rules, const WHITE: bool>(s: &Sides) -> [u64; 4] {
    let dirs = man_capture_dirs::<R, WHITE>();
    let mut sources = [0u64; 4];
    for (d, j) in sources.iter_mut().enumerate() {
        if dirs & (1 << d) != 0 {
            *j = jump_source::<R::Board>(s.opp, s.empty, d);
        }
    }
    sources
}

/// The number of captures of a side without kings when every one is a single jump that cannot go
/// on, counted by popcount; `None` when some capture may be longer, and the sequences must be
/// generated. `jumps` comes from [`man_jump_sources`].
///
/// Single jumps are distinct moves (their from, to and captured piece differ), and all take one
/// piece, so the majority rule keeps them all. A landing square can continue only in a direction
/// other than back over the piece just taken; in those directions neither the captured piece nor
/// the vacated origin square is in the way (both lie behind), so the board's own occupancy decides.
#[inline(always)]
fn count_single_jumps<R: Rules, const WHITE: bool>(s: &Sides, jumps: &[u64; 4]) -> Option<u64> {
    let dirs = man_capture_dirs::<R, WHITE>();
    let promo = promotion_row::<R, WHITE>();
    let mut n = 0;
    each_direction!(|d| {
        if dirs & (1 << d) != 0 {
            let land = step::<R::Board>(step::<R::Board>(s.men & jumps[d], d), d);
            let mut goes_on = 0;
            for (e, j) in jumps.iter().enumerate() {
                if e != reverse(d) {
                    goes_on |= j;
                }
            }
            match R::MID_CAPTURE {
                // Crowning ends the move.
                MidCapturePromotion::EndsMove => goes_on &= !promo,
                // A man crowned on the way would go on as a king: generate.
                MidCapturePromotion::BecomesKing if land & promo != 0 => return None,
                MidCapturePromotion::BecomesKing | MidCapturePromotion::StaysMan => {}
            }
            if land & goes_on != 0 {
                return None;
            }
            n += land.count_ones();
        }
    });
    Some(n as u64)
}

#[inline(always)]
/// Appends the side's legal moves to `list`: its captures when it has any, else its quiet moves.
fn generate_sides<R: Rules, const WHITE: bool>(s: &Sides, list: &mut MoveList<Move>) {
    if has_capture_side::<R, WHITE>(s) {
        captures::<R, WHITE>(s, list);
    } else {
        quiets::<R, WHITE>(s, list);
    }
}

// ---------------------------------------------------------------------------------------------
// Quiet moves

/// Whether a flying king's quiet moves in direction `d` are forbidden by the duoyibu king rule:
/// the first piece along the diagonal is an enemy king with only empty squares between.
#[inline(always)]
fn opposition_blocks<R: Rules>(s: &Sides, king: u8, d: usize) -> bool {
    if !R::KING_OPPOSITION || s.opp_kings == 0 {
        return false;
    }
    let o = R::Board::RAYS[d][king as usize] & !s.empty;
    o != 0 && (1u64 << first::<R::Board>(o, d)) & s.opp_kings != 0
}

fn quiets<R: Rules, const WHITE: bool>(s: &Sides, list: &mut MoveList<Move>) {
    each_quiet::<R, WHITE>(s, &mut Push(list));
}

/// What [`each_quiet`] does with each quiet move (a trait rather than a closure, so that the
/// call is always inlined).
trait VisitQuiet {
    /// A quiet move from bit `from` to bit `to` of a king (`KING`) or a man, who is crowned by
    /// it when `promotes`.
    fn visit<const KING: bool>(&mut self, from: u8, to: u8, promotes: bool);
}

/// Lists the moves.
struct Push<'a>(&'a mut MoveList<Move>);

impl VisitQuiet for Push<'_> {
    #[inline(always)]
    fn visit<const KING: bool>(&mut self, from: u8, to: u8, promotes: bool) {
        self.0.push(Move::quiet(from, to, promotes));
    }
}

/// Calls `v.visit` for every quiet move of the side (bit indices and bitboards), men's moves
/// first. The one definition of which quiet moves exist, for listing them ([`quiets`]) and
/// for counting their children without listing them ([`count_two`]).
#[inline(always)]
fn each_quiet<R: Rules, const WHITE: bool>(s: &Sides, v: &mut impl VisitQuiet) {
    let promo = promotion_row::<R, WHITE>();
    for d in forward::<WHITE>() {
        let off = R::Board::OFFSETS[d];
        for to in Bits(step::<R::Board>(s.men, d) & s.empty) {
            v.visit::<false>((to as i32 - off) as u8, to, (1u64 << to) & promo != 0);
        }
    }
    if R::FLYING_KINGS {
        let occ = !s.empty;
        for k in Bits(s.kings) {
            each_direction!(|d| {
                if !opposition_blocks::<R>(s, k, d) {
                    for to in Bits(free_part::<R::Board>(R::Board::RAYS[d][k as usize], d, occ)) {
                        v.visit::<true>(k, to, false);
                    }
                }
            });
        }
    } else {
        each_direction!(|d| {
            let off = R::Board::OFFSETS[d];
            for to in Bits(step::<R::Board>(s.kings, d) & s.empty) {
                v.visit::<true>((to as i32 - off) as u8, to, false);
            }
        });
    }
}

#[inline(always)]
fn count_quiets<R: Rules, const WHITE: bool>(s: &Sides) -> u64 {
    let us = if WHITE { Color::White } else { Color::Black };
    let mut n = man_steps::<R::Board>(us, s.men, s.empty);
    if s.kings != 0 {
        if R::FLYING_KINGS {
            let occ = !s.empty;
            for k in Bits(s.kings) {
                each_direction!(|d| {
                    if !opposition_blocks::<R>(s, k, d) {
                        let ray = R::Board::RAYS[d][k as usize];
                        n += free_part::<R::Board>(ray, d, occ).count_ones();
                    }
                });
            }
        } else {
            each_direction!(|d| {
                n += (step::<R::Board>(s.kings, d) & s.empty).count_ones();
            });
        }
    }
    n as u64
}

// ---------------------------------------------------------------------------------------------
// Captures

/// The squares from which a piece could make a short jump in direction `d`: the next square an
/// enemy piece of `opp`, the one beyond in `empty`.
#[inline(always)]
fn jump_source<G: Geometry>(opp: u64, empty: u64, d: usize) -> u64 {
    let r = reverse(d);
    step::<G>(opp & step::<G>(empty, r), r)
}

/// Pieces among `pieces` that can jump an enemy piece in one of `dirs` (short jump: the enemy
/// adjacent, the square behind it empty).
#[inline(always)]
fn short_capturers<G: Geometry>(pieces: u64, opp: u64, empty: u64, dirs: u8) -> u64 {
    let mut c = 0;
    for d in 0..4 {
        if dirs & (1 << d) != 0 {
            c |= pieces & jump_source::<G>(opp, empty, d);
        }
    }
    c
}

/// Whether a piece on `at` (one bit) can make a short jump over `jumpable` in one of `dirs`.
#[inline(always)]
fn can_short_jump<G: Geometry>(at: u64, jumpable: u64, empty: u64, dirs: u8) -> bool {
    let mut r = 0;
    for d in 0..4 {
        if dirs & (1 << d) != 0 {
            r |= step::<G>(step::<G>(at, d) & jumpable, d) & empty;
        }
    }
    r != 0
}

#[inline(always)]
fn has_capture_side<R: Rules, const WHITE: bool>(s: &Sides) -> bool {
    if short_capturers::<R::Board>(s.men, s.opp, s.empty, man_capture_dirs::<R, WHITE>()) != 0 {
        return true;
    }
    if s.kings == 0 {
        return false;
    }
    if R::FLYING_KINGS {
        let occ = !s.empty;
        for k in Bits(s.kings) {
            each_direction!(|d| {
                let o = R::Board::RAYS[d][k as usize] & occ;
                if o != 0 {
                    let v = 1u64 << first::<R::Board>(o, d);
                    if v & s.opp != 0 && step::<R::Board>(v, d) & s.empty != 0 {
                        return true;
                    }
                }
            });
        }
        false
    } else {
        short_capturers::<R::Board>(s.kings, s.opp, s.empty, 0b1111) != 0
    }
}

/// State shared by one capture search.
struct Ctx<'a> {
    list: &'a mut MoveList<Move>,
    /// Origin of the piece now capturing.
    from: u8,
    /// Enemy pieces, captured ones included (Turkish strike: they stay until the end).
    opp: u64,
    /// Empty squares, with the capturing piece's origin vacated.
    empty: u64,
    /// Majority rule: the most pieces taken by a recorded sequence.
    best: u32,
    /// First list index holding a move of the current piece (duplicates share the origin).
    piece_start: usize,
}

impl Ctx<'_> {
    /// Records a completed sequence.
    #[inline(always)]
    fn add<R: Rules>(&mut self, to: u8, captured: u64, promotes: bool) {
        self.add_checked::<R, true>(to, captured, promotes)
    }

    /// Records a completed sequence; `DEDUP == false` when it cannot duplicate another one (a
    /// single jump is the only sequence taking that piece to that square).
    #[inline(always)]
    fn add_checked<R: Rules, const DEDUP: bool>(&mut self, to: u8, captured: u64, promotes: bool) {
        if R::MAJORITY {
            let n = captured.count_ones();
            if n < self.best {
                return;
            }
            if n > self.best {
                self.best = n;
                self.list.clear();
                self.piece_start = 0;
            }
        }
        let m = Move::capture(self.from, to, captured, promotes);
        if !DEDUP {
            self.list.push(m);
            return;
        }
        for i in self.piece_start..self.list.len() {
            let x = self.list.get_mut(i);
            if x.same_as(&m) {
                // The same move by another path. If one path crowned the man (russian: through the
                // last row mid-capture) the move crowns it.
                x.flags |= m.flags;
                return;
            }
        }
        self.list.push(m);
    }
}

fn captures<R: Rules, const WHITE: bool>(s: &Sides, list: &mut MoveList<Move>) {
    let mut ctx = Ctx {
        list,
        from: 0,
        opp: s.opp,
        empty: s.empty,
        best: 0,
        piece_start: 0,
    };
    // Men: the first jump of every sequence, direction by direction, straight from bitboards (no
    // per-man direction tests). A man's sequences starting in different directions are not
    // contiguous in the list, so duplicates are looked for in the whole list (`piece_start = 0`).
    let man_dirs = man_capture_dirs::<R, WHITE>();
    each_direction!(|d| {
        if man_dirs & (1 << d) != 0 {
            for f in Bits(s.men & jump_source::<R::Board>(s.opp, s.empty, d)) {
                let from = 1u64 << f;
                ctx.from = f;
                ctx.empty = s.empty | from;
                let over = step::<R::Board>(from, d);
                let land = step::<R::Board>(over, d);
                after_short_jump::<R, WHITE, true>(&mut ctx, land, over, 0, d);
            }
        }
    });
    for f in Bits(s.kings) {
        ctx.from = f;
        ctx.empty = s.empty | (1u64 << f);
        ctx.piece_start = ctx.list.len();
        if R::FLYING_KINGS {
            king_jumps::<R>(&mut ctx, f, 0, 0b1111, false);
        } else {
            short_jumps::<R, WHITE, false>(&mut ctx, f, 0, NO_DIR);
        }
    }
}

/// Continues a sequence of short jumps (a man, or an English king) standing on `sq`, having
/// taken `captured`, last jump in direction `came`. Returns whether any jump was possible.
fn short_jumps<R: Rules, const WHITE: bool, const MAN: bool>(
    ctx: &mut Ctx<'_>,
    sq: u8,
    captured: u64,
    came: usize,
) -> bool {
    let dirs = if MAN {
        man_capture_dirs::<R, WHITE>()
    } else {
        0b1111
    };
    let here = 1u64 << sq;
    let mut found = false;
    each_direction!(|d| {
        'dir: {
            // Jumping back the way we came would take the piece just taken: never possible.
            if dirs & (1 << d) == 0 || (came != NO_DIR && d == reverse(came)) {
                break 'dir;
            }
            let over = step::<R::Board>(here, d) & ctx.opp & !captured;
            if over == 0 {
                break 'dir;
            }
            let land = step::<R::Board>(over, d) & ctx.empty;
            if land == 0 {
                break 'dir;
            }
            found = true;
            after_short_jump::<R, WHITE, MAN>(ctx, land, over, captured, d);
        }
    });
    found
}

/// A short jump in direction `d` over `over` onto `land` (one bit each, `land` empty), with
/// `captured` taken before it: crowns the man if the rules say so, continues the sequence when it
/// can, and records it when it ends.
#[inline(always)]
fn after_short_jump<R: Rules, const WHITE: bool, const MAN: bool>(
    ctx: &mut Ctx<'_>,
    land: u64,
    over: u64,
    captured: u64,
    d: usize,
) {
    let l = land.trailing_zeros() as u8;
    let cap = captured | over;
    if MAN && land & promotion_row::<R, WHITE>() != 0 {
        match R::MID_CAPTURE {
            MidCapturePromotion::EndsMove => ctx.add::<R>(l, cap, true),
            MidCapturePromotion::BecomesKing => {
                if !king_jumps::<R>(ctx, l, cap, 0b1111 & !(1 << reverse(d)), true) {
                    ctx.add::<R>(l, cap, true);
                }
            }
            MidCapturePromotion::StaysMan => {
                if !short_jumps::<R, WHITE, MAN>(ctx, l, cap, d) {
                    ctx.add::<R>(l, cap, true);
                }
            }
        }
        return;
    }
    let dirs = if MAN {
        man_capture_dirs::<R, WHITE>()
    } else {
        0b1111
    };
    // Most jumps end the sequence: the bitwise test saves the recursive call.
    if !can_short_jump::<R::Board>(land, ctx.opp & !cap, ctx.empty, dirs & !(1 << reverse(d)))
        || !short_jumps::<R, WHITE, MAN>(ctx, l, cap, d)
    {
        if captured == 0 {
            // A single jump is the only way to take that piece to that square: no duplicate.
            ctx.add_checked::<R, false>(l, cap, false);
        } else {
            ctx.add::<R>(l, cap, false);
        }
    }
}

/// Continues a flying king's sequence from `sq`, having taken `captured`, trying the directions
/// in `dirs`. Returns whether any jump was possible. `promotes` marks a man crowned mid-capture.
fn king_jumps<R: Rules>(
    ctx: &mut Ctx<'_>,
    sq: u8,
    captured: u64,
    dirs: u8,
    promotes: bool,
) -> bool {
    let occ = !ctx.empty;
    let mut found = false;
    each_direction!(|d| {
        'dir: {
            if dirs & (1 << d) == 0 {
                break 'dir;
            }
            let o = R::Board::RAYS[d][sq as usize] & occ;
            if o == 0 {
                break 'dir;
            }
            let v = first::<R::Board>(o, d);
            let vb = 1u64 << v;
            if vb & ctx.opp & !captured == 0 {
                break 'dir;
            }
            let land = free_part::<R::Board>(R::Board::RAYS[d][v as usize], d, occ);
            if land == 0 {
                break 'dir;
            }
            found = true;
            let cap = captured | vb;
            // Continuing straight on reaches the same next piece from every landing square, so
            // it is tried from the nearest one only; turning is tried from each.
            let near = first::<R::Board>(land, d);
            let perp = perpendicular(d);
            let mut continued = false;
            for l in Bits(land) {
                let ds = if l == near { perp | (1 << d) } else { perp };
                continued |= king_jumps::<R>(ctx, l, cap, ds, promotes);
            }
            // The sequence must go on when it can: a landing square that ends it is only legal
            // when no landing square continues.
            if !continued {
                for l in Bits(land) {
                    ctx.add::<R>(l, cap, promotes);
                }
            }
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::rules::International;

    #[test]
    fn start_position_moves() {
        let p = Position::<International>::start();
        let mut l = MoveList::new();
        generate(&p, &mut l);
        assert_eq!(l.len(), 9);
        assert_eq!(count(&p, &mut MoveList::new()), 9);
    }
}
