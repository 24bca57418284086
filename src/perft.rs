//! Perft: counting the leaves of the legal-move tree, the move generator's correctness test and
//! speed benchmark. Generic over [`Game`](crate::game::Game), so draughts and Morris share it.
//!
//! - Bulk counting: at the last ply the moves are counted, not made (`Game` positions that offer a
//!   faster count implement [`BulkCount`]); the last two and three plies are one call each
//!   ([`BulkCount::count_two_plies`], [`BulkCount::count_three_plies`]), which draughts answers
//!   without making the children.
//! - Parallel: the tree is split at the root (deeper when there are few root moves) into tasks that
//!   a rayon pool of the requested size runs; results are summed per root move for `divide`.
//! - Progress: an optional callback receives the number of finished and total tasks.

use crate::game::{BulkCount, MoveList};
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Options of a perft run.
#[derive(Copy, Clone, Debug)]
pub struct PerftOptions {
    /// Count the moves at the last ply instead of making them.
    pub bulk: bool,
    /// Worker threads (1 = run on the calling thread).
    pub threads: usize,
}

impl Default for PerftOptions {
    fn default() -> Self {
        PerftOptions {
            bulk: true,
            threads: 1,
        }
    }
}

/// Per-thread scratch: one move list per ply.
struct Lists<M: Copy + Default>(Vec<MoveList<M>>);

impl<M: Copy + Default> Lists<M> {
    fn new(depth: u32) -> Self {
        Lists((0..=depth).map(|_| MoveList::default()).collect())
    }
}

fn perft_rec<G: BulkCount>(
    pos: &G,
    depth: u32,
    bulk: bool,
    lists: &mut [MoveList<G::Move>],
) -> u64 {
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    if depth == 1 && bulk {
        return pos.count_moves(list);
    }
    if depth == 2 && bulk {
        // The last two plies in one loop: no call per leaf's parent.
        return pos.count_two_plies(list, &mut rest[0]);
    }
    if depth == 3 && bulk {
        let (list2, rest) = rest.split_first_mut().expect("one list per ply");
        return pos.count_three_plies(list, list2, &mut rest[0]);
    }
    pos.generate(list);
    if depth == 1 {
        // Make every leaf (the "moves/s" figure).
        let mut n = 0;
        for m in list.iter() {
            std::hint::black_box(pos.make(m));
            n += 1;
        }
        return n;
    }
    let mut n = 0;
    for m in list.iter() {
        n += perft_rec(&pos.make(m), depth - 1, bulk, rest);
    }
    n
}

/// Leaves of the tree of `depth` plies below `pos`, on the calling thread.
pub fn perft<G: BulkCount>(pos: &G, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut lists = Lists::new(depth);
    perft_rec(pos, depth, bulk, &mut lists.0)
}

/// Leaves below each root move (in generation order), run as [`PerftOptions`] say.
/// `progress(done, total)` is called as tasks finish (from worker threads).
pub fn divide<G: BulkCount>(
    pos: &G,
    depth: u32,
    opts: PerftOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<(G::Move, u64)> {
    let mut roots = MoveList::default();
    pos.generate(&mut roots);
    let roots: Vec<G::Move> = roots.as_slice().to_vec();
    if depth == 0 {
        return Vec::new();
    }
    // Tasks: (root index, position, remaining depth). Split below the root until there are
    // enough tasks to balance the threads.
    let mut tasks: Vec<(usize, G, u32)> = roots
        .iter()
        .enumerate()
        .map(|(i, m)| (i, pos.make(m), depth - 1))
        .collect();
    let want = if opts.threads > 1 {
        16 * opts.threads
    } else {
        1
    };
    while tasks.len() < want && tasks.iter().all(|t| t.2 >= 3) {
        let mut next = Vec::new();
        let mut list = MoveList::default();
        for (i, p, d) in tasks {
            p.generate(&mut list);
            next.extend(list.iter().map(|m| (i, p.make(m), d - 1)));
        }
        tasks = next;
    }
    let total = tasks.len();
    let done = AtomicUsize::new(0);
    let run = |(i, p, d): &(usize, G, u32)| {
        let n = if *d == 0 {
            1
        } else {
            perft_rec(p, *d, opts.bulk, &mut Lists::new(*d).0)
        };
        progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
        (*i, n)
    };
    let counts: Vec<(usize, u64)> = if opts.threads > 1 {
        match rayon::ThreadPoolBuilder::new()
            .num_threads(opts.threads)
            .build()
        {
            Ok(pool) => pool.install(|| tasks.par_iter().map(run).collect()),
            Err(_) => tasks.iter().map(run).collect(),
        }
    } else {
        tasks.iter().map(run).collect()
    };
    let mut per_root = vec![0u64; roots.len()];
    for (i, n) in counts {
        per_root[i] += n;
    }
    roots.into_iter().zip(per_root).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::position::Position;
    use crate::draughts::rules::International;

    #[test]
    fn divide_sums_to_perft() {
        let p = Position::<International>::start();
        let total = perft(&p, 4, true);
        assert_eq!(total, 4265);
        for threads in [1, 2] {
            let d = divide(
                &p,
                4,
                PerftOptions {
                    bulk: true,
                    threads,
                },
                &|_, _| {},
            );
            assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), total);
        }
        assert_eq!(perft(&p, 4, false), total);
    }
}
