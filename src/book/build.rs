//! Growing a book from its roots by drop-out expansion (Lincke's best-first method), a step at
//! a time, generic over [`Game`]; the variant is chosen at the edge ([`dispatch!`](crate::dispatch)).
//!
//! The roots ([`Roots`], [`roots`]): the start position, and for an english book built with
//! [`Roots::Ballots`] also the position after each ballot of the ACF three-move deck
//! ([`crate::draughts::ballots::deck`], the 156 unbarred ballots), so that the book covers every
//! ballot a game may be drawn to and continues each.
//!
//! A book position ("node") has every legal move scored by a search of the position after it
//! ([`score_position`]: one thread, a table cleared before each search, a fixed node count, no
//! game history). The moves are backed up by minimax ([`back_up`]): a move into another book
//! position takes that position's value (negated, a proven result one ply further), a move out
//! of the book its own search score; a move back into a position on the path being valued (a
//! cycle) takes its search score.
//!
//! The next positions to add ([`next_step`]): first the roots the book does not hold yet (by
//! key, a step at a time); then every position one move outside the book is priced by the
//! cheapest path to it from a root (each root costs 0), a path costing, at each book position on
//! it, the drop-out of the move taken (the position's value minus the move's, centi-men, never
//! negative) plus [`Settings::ply_cost`]. So the main lines grow first, the side lines when
//! their drop-out is small against their shortness; with the ballots, each ballot's own lines
//! grow from it as the start's do. Positions without a legal move are never added. A step takes
//! the [`Settings::batch`] cheapest, ties broken by key: the first step of an empty book of the
//! start alone is the start position.
//!
//! Determinism, by construction (no randomness, hence no seed): a step depends only on the book
//! before it and the settings, and a position's scores only on the position and the node count.
//! So a build stopped after any step and resumed with the same settings grows the same book as a
//! build in one go (the book grows in whole steps: a target size is reached at the end of the
//! step that reaches it), whatever the number of threads; and the positions of one step can be
//! scored by shards ([`shard_of_step`]) and merged ([`merge`]) into the same book.

use super::format::{self, Entries, FileKind, Header};
use super::{Book, BookError, BookMove};
use crate::draughts::ballots;
use crate::game::{Evaluate, Game, MoveList, Variant};
use crate::search::score::{WIN, WIN_MIN, loss_in};
use crate::search::tt::Tt;
use crate::search::{self, Control, Limits, SearchOptions};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet};
use std::path::PathBuf;

/// Nodes searched per move by default.
pub const DEFAULT_NODES: u64 = 20_000;
/// Positions an expansion step adds by default.
pub const DEFAULT_BATCH: u32 = 8;
/// Cost of a ply on a line's price by default, centi-men.
pub const DEFAULT_PLY_COST: u32 = 20;
/// The transposition table of each scoring search, MiB: fixed, because a node-limited search
/// depends on the table's size.
pub const SEARCH_HASH_MIB: usize = 4;

/// Where a book grows from.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Roots {
    /// The start position alone.
    #[default]
    Start,
    /// English only: the start position and the position after each of the 156 ballots of the
    /// ACF three-move deck (the barred ballots are not roots: no game is drawn to them).
    Ballots,
}

impl Roots {
    /// Whether a book of `variant` may grow from these roots (the ballots are english's).
    pub fn fits(self, variant: Variant) -> bool {
        match self {
            Roots::Start => true,
            Roots::Ballots => variant == Variant::English,
        }
    }
}

/// How a book grows. Stored in its file: a resumed build or a merge must use the same ones.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Nodes searched per move (at least 1).
    pub nodes: u64,
    /// Positions an expansion step adds (at least 1).
    pub batch: u32,
    /// What a ply adds to a line's price, centi-men.
    pub ply_cost: u32,
    /// The positions the book grows from.
    pub roots: Roots,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            nodes: DEFAULT_NODES,
            batch: DEFAULT_BATCH,
            ply_cost: DEFAULT_PLY_COST,
            roots: Roots::Start,
        }
    }
}

/// The plies of a ballot: its position is this far from the start.
pub const BALLOT_PLIES: u32 = 3;

/// The roots a book with `settings` grows from, with their distance from the start in plies:
/// the start first, then (with [`Roots::Ballots`]) each ballot's position in ACF order. A
/// ballot that does not replay in `G` (a game other than english: refused before a build) is
/// left out, as is a root met twice.
pub fn roots<G: Game>(settings: &Settings) -> Vec<(G, u32)> {
    let start = G::start();
    let mut out = vec![(start, 0)];
    if settings.roots == Roots::Ballots && Roots::Ballots.fits(start.variant()) {
        for b in ballots::deck() {
            let pos = b
                .moves
                .iter()
                .try_fold(start, |p, text| p.parse_move(text).ok().map(|m| p.make(&m)));
            if let Some(p) = pos
                && out.iter().all(|(q, _)| q.key() != p.key())
            {
                out.push((p, BALLOT_PLIES));
            }
        }
    }
    out
}

/// A score found `1` ply deeper, for the side to move before that ply: negated, and a proven
/// result one ply further away.
pub fn from_child(s: i32) -> i32 {
    let p = -s;
    if p >= WIN_MIN {
        p - 1
    } else if p <= -WIN_MIN {
        p + 1
    } else {
        p
    }
}

/// The legal moves of `pos` as a book stores them: with their Hub text, sorted by it, a text
/// given by two moves kept once (the first generated).
pub fn legal_by_text<G: Game>(pos: &G) -> Vec<(String, G::Move)> {
    let mut list = MoveList::default();
    pos.generate(&mut list);
    let mut v: Vec<(String, G::Move)> = list.iter().map(|m| (pos.move_to_hub(m), *m)).collect();
    // A stable sort keeps the generation order among equal texts; dedup keeps the first.
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v.dedup_by(|b, a| a.0 == b.0);
    v
}

/// The legal moves of `pos` that its entry `moves` holds: (index in `moves`, the move, the
/// position after it), in the entry's order. A stored text that is not legal here is left out.
pub fn book_children<G: Game>(pos: &G, moves: &[BookMove]) -> Vec<(usize, G::Move, G)> {
    legal_by_text(pos)
        .into_iter()
        .filter_map(|(text, m)| {
            moves
                .binary_search_by(|b| b.text.as_str().cmp(&text))
                .ok()
                .map(|i| (i, m, pos.make(&m)))
        })
        .collect()
}

/// Whether `pos` has a legal move.
fn has_move<G: Game>(pos: &G) -> bool {
    let mut list = MoveList::default();
    pos.generate(&mut list);
    !list.is_empty()
}

/// Scores every legal move of `pos` by a search of the position after it with `nodes` nodes
/// (see the module documentation); `on_move` is called after each search. Moves sorted by text.
pub fn score_position<G: Evaluate>(
    pos: &G,
    nodes: u64,
    tt: &Tt,
    on_move: &(dyn Fn() + Sync),
) -> Vec<BookMove> {
    legal_by_text(pos)
        .into_iter()
        .map(|(text, m)| {
            let child = pos.make(&m);
            tt.clear();
            let limits = Limits {
                nodes: Some(nodes),
                analyze: true,
                ..Limits::default()
            };
            let r = search::search(
                &child,
                &[],
                &limits,
                &SearchOptions::default(),
                tt,
                &Control::new(false),
                None,
                &mut |_| {},
            );
            on_move();
            let leaf = from_child(r.score.0).clamp(-WIN, WIN) as i16;
            BookMove {
                text: text.chars().take(format::TEXT_MAX).collect(),
                score: leaf,
                leaf,
                depth: (r.depth + 1).min(u8::MAX as u32) as u8,
            }
        })
        .collect()
}

/// The workers that score a step: a thread pool and one table of [`SEARCH_HASH_MIB`] per
/// thread (the size is fixed here, as the scores depend on it).
pub struct Scorer {
    pool: rayon::ThreadPool,
    tables: Vec<Tt>,
}

impl Scorer {
    /// `threads` workers (at least one); an error when the machine cannot give the tables or
    /// the threads.
    pub fn new(threads: usize) -> Result<Scorer, String> {
        let threads = threads.max(1);
        let tables = (0..threads)
            .map(|_| Tt::try_new(SEARCH_HASH_MIB))
            .collect::<Result<Vec<Tt>, _>>()
            .map_err(|e| e.to_string())?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("thread pool: {e}"))?;
        Ok(Scorer { pool, tables })
    }

    /// Scores `positions` ([`score_position`] with `nodes` nodes a move): the same result for
    /// any number of threads.
    pub fn score<G: Evaluate>(
        &self,
        positions: &[G],
        nodes: u64,
        on_move: &(dyn Fn() + Sync),
    ) -> Entries {
        use rayon::prelude::*;
        let tables = &self.tables;
        let scored: Vec<(u64, Vec<BookMove>)> = self.pool.install(|| {
            positions
                .par_iter()
                .map(|p| {
                    // Inside the pool every thread has an index below the tables' count.
                    let worker = rayon::current_thread_index().unwrap_or(0) % tables.len();
                    (p.key(), score_position(p, nodes, &tables[worker], on_move))
                })
                .collect()
        });
        scored.into_iter().collect()
    }
}

/// The value of `pos` through the book (memoised by key; `stack`: the positions on the path).
fn value<G: Game>(
    pos: &G,
    book: &Book,
    memo: &mut HashMap<u64, i32>,
    stack: &mut HashSet<u64>,
) -> i32 {
    let key = pos.key();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let Some(moves) = book.entries.get(&key) else {
        return 0;
    };
    stack.insert(key);
    let mut best = loss_in(0);
    for (i, _, child) in book_children(pos, moves) {
        let ck = child.key();
        let s = if book.entries.contains_key(&ck) && !stack.contains(&ck) {
            from_child(value(&child, book, memo, stack))
        } else {
            moves[i].leaf as i32
        };
        best = best.max(s);
    }
    stack.remove(&key);
    memo.insert(key, best);
    best
}

/// Recomputes every move's `score` from the moves' search scores by minimax through the book
/// (see the module documentation).
pub fn back_up<G: Game>(book: &mut Book) {
    let roots: Vec<G> = roots::<G>(&book.settings)
        .into_iter()
        .map(|(g, _)| g)
        .filter(|g| book.entries.contains_key(&g.key()))
        .collect();
    let mut memo = HashMap::new();
    for root in &roots {
        value(root, book, &mut memo, &mut HashSet::new());
    }
    // Every book position was reached from a root (the book grows only by its roots and the
    // children of its positions), so `memo` holds them all; walk them again to set the moves'
    // scores.
    let mut updates: Vec<(u64, usize, i16)> = Vec::new();
    let mut seen = HashSet::new();
    let mut todo = roots;
    while let Some(pos) = todo.pop() {
        if !seen.insert(pos.key()) {
            continue;
        }
        let Some(moves) = book.entries.get(&pos.key()) else {
            continue;
        };
        for (i, _, child) in book_children(&pos, moves) {
            let s = match memo.get(&child.key()) {
                Some(&v) => {
                    todo.push(child);
                    from_child(v)
                }
                None => moves[i].leaf as i32,
            };
            updates.push((pos.key(), i, s.clamp(-WIN, WIN) as i16));
        }
    }
    for (key, i, s) in updates {
        if let Some(m) = book.entries.get_mut(&key).and_then(|v| v.get_mut(i)) {
            m.score = s;
        }
    }
}

/// The positions of the next expansion step, cheapest first (see the module documentation),
/// with their price. Empty when nothing is left to add.
pub fn next_step<G: Game>(book: &Book) -> Vec<(i64, G)> {
    let roots = roots::<G>(&book.settings);
    let mut missing: Vec<(u64, G)> = roots
        .iter()
        .filter(|(g, _)| !book.entries.contains_key(&g.key()) && has_move(g))
        .map(|(g, _)| (g.key(), *g))
        .collect();
    if !missing.is_empty() {
        missing.sort_by_key(|&(k, _)| k);
        missing.truncate(book.settings.batch as usize);
        return missing.into_iter().map(|(_, g)| (0, g)).collect();
    }
    let ply_cost = book.settings.ply_cost as i64;
    let in_book: Vec<G> = roots
        .into_iter()
        .map(|(g, _)| g)
        .filter(|g| book.entries.contains_key(&g.key()))
        .collect();
    let mut price: HashMap<u64, i64> = in_book.iter().map(|g| (g.key(), 0)).collect();
    let mut position: HashMap<u64, G> = in_book.iter().map(|g| (g.key(), *g)).collect();
    let mut heap: BinaryHeap<Reverse<(i64, u64)>> =
        in_book.iter().map(|g| Reverse((0i64, g.key()))).collect();
    let mut done = HashSet::new();
    let mut frontier: BTreeMap<u64, (i64, G)> = BTreeMap::new();
    while let Some(Reverse((cost, key))) = heap.pop() {
        if !done.insert(key) {
            continue;
        }
        let (Some(pos), Some(moves)) = (position.get(&key).copied(), book.entries.get(&key)) else {
            continue;
        };
        let best = moves.iter().map(|m| m.score as i64).max().unwrap_or(0);
        for (i, _, child) in book_children(&pos, moves) {
            let c = cost + (best - moves[i].score as i64).max(0) + ply_cost;
            let ck = child.key();
            if book.entries.contains_key(&ck) {
                if price.get(&ck).is_none_or(|&p| c < p) {
                    price.insert(ck, c);
                    position.insert(ck, child);
                    heap.push(Reverse((c, ck)));
                }
            } else if frontier.get(&ck).is_none_or(|&(p, _)| c < p) && has_move(&child) {
                frontier.insert(ck, (c, child));
            }
        }
    }
    let mut step: Vec<(i64, u64, G)> = frontier.into_iter().map(|(k, (c, g))| (c, k, g)).collect();
    step.sort_by_key(|&(c, k, _)| (c, k));
    step.truncate(book.settings.batch as usize);
    step.into_iter().map(|(c, _, g)| (c, g)).collect()
}

/// The positions of the next step that shard `shard` of `shards` scores: those whose place in
/// the step is `shard` modulo `shards`.
pub fn shard_of_step<G: Game>(step: &[(i64, G)], shard: u32, shards: u32) -> Vec<G> {
    step.iter()
        .enumerate()
        .filter(|(i, _)| (*i as u64) % shards.max(1) as u64 == shard as u64)
        .map(|(_, (_, g))| *g)
        .collect()
}

/// Adds scored positions to the book and backs the values up.
pub fn add<G: Game>(book: &mut Book, scored: Entries) {
    book.entries.extend(scored);
    back_up::<G>(book);
}

/// What one step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Positions added.
    pub added: usize,
    /// Positions in the book after it.
    pub size: usize,
    /// The price of the dearest position added (centi-men).
    pub price: i64,
}

/// Grows `book` step by step until it holds at least `target` positions or nothing is left to
/// add, scoring with `scorer`; after each step `on_step` is called with the book (to
/// save it: a build stopped between steps resumes from the saved book). `on_move` is called
/// after each search. Returns the steps done.
pub fn grow<G: Evaluate>(
    book: &mut Book,
    target: usize,
    scorer: &Scorer,
    on_step: &mut dyn FnMut(&Book, &Step) -> Result<(), BookError>,
    on_move: &(dyn Fn() + Sync),
) -> Result<Vec<Step>, BookError> {
    let mut steps = Vec::new();
    while book.len() < target {
        let step = next_step::<G>(book);
        if step.is_empty() {
            break;
        }
        let price = step.last().map_or(0, |s| s.0);
        let positions: Vec<G> = step.into_iter().map(|(_, g)| g).collect();
        let scored = scorer.score(&positions, book.settings.nodes, on_move);
        add::<G>(book, scored);
        let s = Step {
            added: positions.len(),
            size: book.len(),
            price,
        };
        on_step(book, &s)?;
        steps.push(s);
    }
    Ok(steps)
}

/// A shard's part of one step, read from its file.
#[derive(Clone, Debug)]
pub struct Part {
    /// The file it was read from.
    pub path: PathBuf,
    /// Its header.
    pub header: Header,
    /// The positions it scored.
    pub entries: Entries,
}

/// Merges the parts of the shards of the book's next step into the book: refused (naming the
/// part) unless they were made for this book with its settings, by every shard of one
/// split, once each, and together hold exactly the step's positions. Returns the positions
/// added.
pub fn merge<G: Game>(book: &mut Book, parts: Vec<Part>) -> Result<usize, BookError> {
    let base = format::payload_checksum(&book.entries);
    let mismatch = |p: &Part, reason: String| BookError::Mismatch {
        path: p.path.clone(),
        reason,
    };
    let mut shards_seen = BTreeSet::new();
    let mut count = None;
    for p in &parts {
        let FileKind::Part {
            base: b,
            shard,
            shards,
        } = p.header.kind
        else {
            return Err(mismatch(p, "a book, not a shard's part".into()));
        };
        if b != base {
            return Err(mismatch(
                p,
                "a part of a step of another book (or of this book at another size)".into(),
            ));
        }
        if p.header.settings != book.settings {
            return Err(mismatch(
                p,
                format!(
                    "built with other settings ({:?}) than the book ({:?})",
                    p.header.settings, book.settings
                ),
            ));
        }
        if *count.get_or_insert(shards) != shards {
            return Err(mismatch(
                p,
                "parts of splits into different shard counts".into(),
            ));
        }
        if !shards_seen.insert(shard) {
            return Err(mismatch(p, format!("shard {shard}/{shards} given twice")));
        }
    }
    let Some(n) = count else {
        return Ok(0);
    };
    if shards_seen.len() != n as usize {
        let missing: Vec<String> = (0..n)
            .filter(|i| !shards_seen.contains(i))
            .map(|i| format!("{i}/{n}"))
            .collect();
        return Err(BookError::Mismatch {
            path: parts[0].path.clone(),
            reason: format!("shards missing: {}", missing.join(", ")),
        });
    }
    let step: BTreeSet<u64> = next_step::<G>(book).iter().map(|(_, g)| g.key()).collect();
    let mut scored = Entries::new();
    for p in parts {
        for (k, moves) in &p.entries {
            if !step.contains(k) || scored.contains_key(k) {
                return Err(mismatch(
                    &p,
                    format!("holds position {k:016x}, not one of the step's to add"),
                ));
            }
            scored.insert(*k, moves.clone());
        }
    }
    if scored.len() != step.len() {
        return Err(BookError::Mismatch {
            path: PathBuf::from("the parts"),
            reason: format!(
                "hold {} of the step's {} positions",
                scored.len(),
                step.len()
            ),
        });
    }
    let added = scored.len();
    add::<G>(book, scored);
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::position::Position;
    use crate::draughts::rules::English;
    use crate::game::Variant;

    type E = Position<English>;

    fn settings() -> Settings {
        Settings {
            nodes: 300,
            batch: 3,
            ply_cost: 20,
            roots: Roots::Start,
        }
    }

    fn grown(target: usize) -> Book {
        let mut book = Book::new(Variant::English, settings());
        let scorer = Scorer::new(1).unwrap();
        grow::<E>(&mut book, target, &scorer, &mut |_, _| Ok(()), &|| {}).unwrap();
        book
    }

    #[test]
    fn proven_scores_move_one_ply_away() {
        assert_eq!(from_child(-WIN), WIN - 1);
        assert_eq!(from_child(WIN - 3), -WIN + 4);
        assert_eq!(from_child(35), -35);
    }

    #[test]
    fn the_first_step_is_the_start_and_steps_are_whole() {
        let book = grown(1);
        assert_eq!(book.len(), 1);
        assert_eq!(book.get(E::start().key()).unwrap().len(), 7);
        let book = grown(5);
        assert_eq!(book.len(), 7, "1, then two steps of 3");
    }

    #[test]
    fn values_are_the_minimax_of_the_tree() {
        let book = grown(10);
        for moves in book.entries.values() {
            assert!(moves.windows(2).all(|w| w[0].text < w[1].text));
        }
        let root = E::start();
        let moves = book.get(root.key()).unwrap();
        for (i, _, child) in book_children(&root, moves) {
            let expected = match book.get(child.key()) {
                Some(cm) => from_child(cm.iter().map(|m| m.score as i32).max().unwrap()),
                None => moves[i].leaf as i32,
            };
            assert_eq!(moves[i].score as i32, expected, "{}", moves[i].text);
        }
    }

    #[test]
    fn the_step_follows_the_cheapest_lines() {
        let book = grown(4);
        let step = next_step::<E>(&book);
        assert_eq!(step.len(), 3);
        assert!(step.windows(2).all(|w| w[0].0 <= w[1].0));
        assert!(step.iter().all(|(_, g)| book.get(g.key()).is_none()));
    }
}
