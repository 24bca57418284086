//! The transposition table: one table shared by every search thread, lock-free.
//!
//! Layout: buckets of four 16-byte entries (one 64-byte cache line each, asserted at compile
//! time). The bucket of a key is `(key * buckets) >> 64`, so any size in MiB is usable, not only
//! powers of two.
//!
//! An entry is two `AtomicU64` words: `data` (score, move, depth, bound, generation, packed by
//! [`Data`]; bits 16-31 free) and `check = key ^ data`. A reader accepts an entry only when
//! `check ^ data == key`. Static evaluations are not stored here: each search thread caches
//! them by key itself (`search::alphabeta`, the evaluation cache).
//!
//! # Memory ordering
//!
//! Every load and store is `Relaxed`. Each word is written atomically, so a reader sees, for each
//! word, some value that a writer stored; a reader racing a writer may see the new `data` with the
//! old `check` (or the reverse), and then `check ^ data` is (but for a 2^-64 chance) not the key,
//! so the torn entry is treated as a miss. Nothing else is published through the table, so no
//! acquire/release pairing is needed. Threads may overwrite each other's entries at any time: an
//! entry is a hint, and the search verifies the move it proposes (the move is an index into the
//! position's legal moves, checked against their number).
//!
//! Invariants: scores are stored relative to the node (`search::score::to_tt`); a `move_index`
//! of [`NO_MOVE`] means no move; the generation advances once per search ([`Tt::new_search`]) and
//! ages old entries for replacement.
//!
//! Clearing costs what was written: the table is cut into chunks of [`CHUNK_BUCKETS`] buckets (1
//! KiB), each with a bit raised by the first store into it, and [`Tt::clear`] zeroes only the
//! chunks whose bit is up. A batch of small searches (`tiao analyze --positions`, one empty table
//! per position) then clears kilobytes per position instead of the whole table. A store reads the
//! bit (the bits of a 64 MiB table are 8 KiB, which stay in the first-level cache) and sets it
//! only once per chunk. The bits follow the same relaxed ordering as the entries: `clear` runs
//! when no search does (the engine joins its threads first), and the join orders every store
//! before it.

use crate::memory::{self, MemoryError};
use std::mem::size_of;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// No move stored.
pub const NO_MOVE: u16 = u16::MAX;

/// The kind of bound a stored score is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (fail low).
    Upper = 1,
    /// The true score is at least the stored one (fail high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// The contents of an entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Data {
    /// Score relative to the node, in centi-men or `WIN - plies`.
    pub score: i16,
    /// Index of the best move in the position's generated move list, or [`NO_MOVE`].
    pub move_index: u16,
    /// Remaining depth of the search that stored it, in plies (0 for quiescence).
    pub depth: u8,
    /// What the score is.
    pub bound: Bound,
    /// The search (modulo 64) that stored it.
    generation: u8,
}

impl Data {
    #[inline(always)]
    fn pack(self) -> u64 {
        (self.score as u16 as u64)
            | (self.move_index as u64) << 32
            | (self.depth as u64) << 48
            | (self.bound as u64) << 56
            | ((self.generation & GEN_MASK) as u64) << 58
    }

    #[inline(always)]
    fn unpack(w: u64) -> Option<Data> {
        let bound = match (w >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None, // an empty entry
        };
        Some(Data {
            score: w as u16 as i16,
            move_index: (w >> 32) as u16,
            depth: (w >> 48) as u8,
            bound,
            generation: (w >> 58) as u8 & GEN_MASK,
        })
    }
}

const GEN_MASK: u8 = 63;

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(C, align(64))]
#[derive(Default)]
struct Bucket {
    entries: [Entry; 4],
}

const _: () = assert!(size_of::<Entry>() == 16);
const _: () = assert!(size_of::<Bucket>() == 64);

/// Bytes in one MiB.
const MIB: usize = 1 << 20;

/// Huge page size on x86-64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// The bucket array: like a `Box<[Bucket]>`, but a large one is aligned on huge pages and, on
/// Linux, advised to use them before it is first written (random probes into a big table then
/// miss the TLB far less).
struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    layout: std::alloc::Layout,
}

// SAFETY: `Buckets` owns its allocation exactly as a `Box<[Bucket]>` would, and `Bucket` (atomics
// only) is `Send + Sync`.
unsafe impl Send for Buckets {}
// SAFETY: as above; shared access only ever goes through `&[Bucket]`.
unsafe impl Sync for Buckets {}

#[cfg(target_os = "linux")]
unsafe extern "C" {
    fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: std::ffi::c_int)
    -> std::ffi::c_int;
}

impl Buckets {
    /// `len` zeroed buckets (at least one), or `None` when the size does not fit the address
    /// space or the allocation fails.
    fn try_new(len: usize) -> Option<Buckets> {
        let len = len.max(1);
        let size = len.checked_mul(size_of::<Bucket>())?;
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<Bucket>()
        };
        let layout = std::alloc::Layout::from_size_align(size, align).ok()?;
        // SAFETY: `layout` has a non-zero size.
        let raw = unsafe { std::alloc::alloc(layout) };
        let ptr = std::ptr::NonNull::new(raw.cast::<Bucket>())?;
        #[cfg(target_os = "linux")]
        if align == HUGE_PAGE {
            const MADV_HUGEPAGE: std::ffi::c_int = 14;
            // SAFETY: the range is our own fresh allocation; the advice only changes how the
            // kernel backs it (a failure leaves ordinary pages). Measured: `tiao bench` (64 MiB
            // table) runs about 20% faster.
            unsafe { madvise(raw.cast(), size, MADV_HUGEPAGE) };
        }
        // SAFETY: `raw` is valid for `size` bytes, and all-zero bytes are a valid `Bucket` (its
        // atomics holding 0).
        unsafe { std::ptr::write_bytes(raw, 0, size) };
        Some(Buckets { ptr, len, layout })
    }

    #[inline(always)]
    fn as_slice(&self) -> &[Bucket] {
        // SAFETY: `ptr` points to `len` initialised buckets that live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout, and freed only here.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) };
    }
}

/// The shared transposition table.
pub struct Tt {
    buckets: Buckets,
    generation: AtomicU8,
    /// One bit per chunk of [`CHUNK_BUCKETS`] buckets: written since the last clear.
    dirty: Box<[AtomicU64]>,
}

/// Buckets per chunk of the clearing flags (16 buckets of 64 bytes: 1 KiB).
pub const CHUNK_BUCKETS: usize = 16;

impl Tt {
    /// A table of about `mib` MiB (at least one bucket), or why it cannot be had: more than the
    /// memory available ([`memory::check`]), a size beyond the address space, or an allocation
    /// the system refused. Every size that comes from outside (options, command lines) is
    /// allocated here.
    pub fn try_new(mib: usize) -> Result<Tt, MemoryError> {
        memory::check("hash", mib as u64)?;
        let failed = || MemoryError::AllocFailed {
            what: "hash".into(),
            requested_mib: mib as u64,
        };
        let n = (mib.checked_mul(MIB).ok_or_else(failed)? / size_of::<Bucket>()).max(1);
        let buckets = Buckets::try_new(n).ok_or_else(failed)?;
        let words = n.div_ceil(CHUNK_BUCKETS).div_ceil(64);
        let mut dirty = Vec::new();
        dirty.try_reserve_exact(words).map_err(|_| failed())?;
        dirty.resize_with(words, AtomicU64::default);
        Ok(Tt {
            buckets,
            generation: AtomicU8::new(0),
            dirty: dirty.into_boxed_slice(),
        })
    }

    /// A table of a size fixed in the code (tests, benches, the openings' short searches).
    ///
    /// # Panics
    ///
    /// When the memory cannot be had (see [`Tt::try_new`], which sizes given from outside use).
    pub fn new(mib: usize) -> Tt {
        Tt::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Size in MiB (rounded down).
    pub fn mib(&self) -> usize {
        self.buckets.len * size_of::<Bucket>() / MIB
    }

    /// Empties every entry (a new game), zeroing only the chunks written since the last clear.
    /// Call it only while no search uses the table.
    pub fn clear(&self) {
        let buckets = self.buckets.as_slice();
        for (w, word) in self.dirty.iter().enumerate() {
            let mut bits = word.swap(0, Ordering::Relaxed);
            while bits != 0 {
                let c = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let end = ((c + 1) * CHUNK_BUCKETS).min(buckets.len());
                for b in &buckets[c * CHUNK_BUCKETS..end] {
                    for e in &b.entries {
                        e.check.store(0, Ordering::Relaxed);
                        e.data.store(0, Ordering::Relaxed);
                    }
                }
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: entries of earlier searches become easier to replace.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// The index of a key's bucket.
    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len as u128) >> 64) as usize
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets.as_slice()[self.index(key)]
    }

    /// Hints the CPU to fetch a key's bucket.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint with no effect on memory; `p` points into our buckets.
            // Measured: about 6% more nodes/s in `tiao bench`, and 10-13% more once the child
            // generates its moves before probing (the bucket is on its way meanwhile).
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Data> {
        for e in &self.bucket(key).entries {
            let d = e.data.load(Ordering::Relaxed);
            let c = e.check.load(Ordering::Relaxed);
            if c ^ d == key {
                return Data::unpack(d);
            }
        }
        None
    }

    /// Stores a result for `key`. Replaces the key's own entry, else the entry with the least
    /// depth, counting an entry of an older search as shallower.
    #[inline]
    pub fn store(&self, key: u64, score: i32, move_index: u16, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed) & GEN_MASK;
        let index = self.index(key);
        let bucket = &self.buckets.as_slice()[index];
        let chunk = index / CHUNK_BUCKETS;
        let (word, bit) = (&self.dirty[chunk / 64], 1u64 << (chunk % 64));
        if word.load(Ordering::Relaxed) & bit == 0 {
            word.fetch_or(bit, Ordering::Relaxed);
        }
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        let mut old_move = NO_MOVE;
        for e in &bucket.entries {
            let d = e.data.load(Ordering::Relaxed);
            let c = e.check.load(Ordering::Relaxed);
            if c ^ d == key {
                victim = e;
                if let Some(old) = Data::unpack(d) {
                    old_move = old.move_index;
                    // Keep a deeper result of this search unless the new one is exact.
                    if bound != Bound::Exact
                        && old.generation == generation
                        && old.depth as i32 > depth + 2
                    {
                        return;
                    }
                }
                break;
            }
            let worth = match Data::unpack(d) {
                None => i32::MIN,
                Some(old) => {
                    let age = generation.wrapping_sub(old.generation) & GEN_MASK;
                    old.depth as i32 - 8 * age as i32
                }
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let data = Data {
            score: score as i16,
            // A fail low knows no best move: keep the one found before.
            move_index: if move_index == NO_MOVE {
                old_move
            } else {
                move_index
            },
            depth: depth.clamp(0, u8::MAX as i32) as u8,
            bound,
            generation,
        }
        .pack();
        victim.data.store(data, Ordering::Relaxed);
        victim.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Per-mille of the first thousand buckets' entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & GEN_MASK;
        let n = self.buckets.len.min(250);
        let mut used = 0;
        for b in &self.buckets.as_slice()[..n] {
            for e in &b.entries {
                if let Some(d) = Data::unpack(e.data.load(Ordering::Relaxed))
                    && d.generation == generation
                {
                    used += 1;
                }
            }
        }
        (used * 1000 / (4 * n).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = Tt::new(1);
        assert_eq!(tt.mib(), 1);
        assert!(tt.probe(42).is_none());
        tt.store(42, -123, 5, 9, Bound::Lower);
        let d = tt.probe(42).unwrap();
        assert_eq!(
            (d.score, d.move_index, d.depth, d.bound),
            (-123, 5, 9, Bound::Lower)
        );
        // A fail low keeps the earlier move.
        tt.store(42, -200, NO_MOVE, 10, Bound::Upper);
        assert_eq!(tt.probe(42).unwrap().move_index, 5);
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn clear_zeroes_the_written_chunks_and_only_them() {
        let tt = Tt::new(1);
        let keys: Vec<u64> = (1..200u64)
            .map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for &k in &keys {
            tt.store(k, 5, 1, 3, Bound::Exact);
        }
        let written: u32 = tt
            .dirty
            .iter()
            .map(|w| w.load(Ordering::Relaxed).count_ones())
            .sum();
        assert!(written > 0 && written as usize <= keys.len(), "{written}");
        tt.clear();
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
        assert!(tt.dirty.iter().all(|w| w.load(Ordering::Relaxed) == 0));
        // Every bucket is zero again, as a fresh table's.
        let zero = tt
            .buckets
            .as_slice()
            .iter()
            .flat_map(|b| &b.entries)
            .all(|e| e.check.load(Ordering::Relaxed) == 0 && e.data.load(Ordering::Relaxed) == 0);
        assert!(zero);
        // A table whose size is not a whole number of chunks: the last, partial chunk too.
        let odd = Tt::new(0);
        odd.store(3, 1, 0, 1, Bound::Lower);
        odd.clear();
        assert!(odd.probe(3).is_none());
    }

    #[test]
    fn torn_entries_are_misses() {
        let tt = Tt::new(1);
        tt.store(7, 1, 0, 1, Bound::Exact);
        let e = &tt.bucket(7).entries;
        let slot = e
            .iter()
            .find(|e| e.check.load(Ordering::Relaxed) != 0)
            .unwrap();
        slot.data.fetch_xor(1 << 20, Ordering::Relaxed);
        assert!(tt.probe(7).is_none());
    }

    #[test]
    fn sizes_beyond_the_machine_are_errors_not_aborts() {
        // Past the address space: no layout, an error.
        let e = Tt::try_new(usize::MAX).err().expect("refused");
        assert!(e.to_string().starts_with("hash: "), "{e}");
        // A size that fits the address space but not this machine (1 TiB): refused up front
        // with the figures, before anything is allocated.
        if memory::available_mib().is_some() {
            let e = Tt::try_new(1 << 20).err().expect("refused");
            assert!(e.to_string().contains("1048576 MiB requested"), "{e}");
        }
        assert!(Tt::try_new(1).is_ok());
    }

    #[test]
    fn bucket_full_replaces_shallowest() {
        let tt = Tt::new(0); // one bucket: every key collides
        for k in 1..=4u64 {
            tt.store(k, 0, 0, 10 + k as i32, Bound::Exact);
        }
        tt.store(99, 0, 0, 3, Bound::Exact);
        assert!(tt.probe(1).is_none(), "the shallowest entry went");
        assert!(tt.probe(99).is_some() && tt.probe(4).is_some());
    }
}
