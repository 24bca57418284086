//! The default books, embedded in the binary (`books/<variant>.book`, built with `tiao book
//! build`: the commands and settings are in docs/book.md), so that the engine plays from a book
//! without any file; and reading a book file given instead (`--book FILE`, Hub `book-file`).
//!
//! Duoyibu has no file of its own: it plays russian's book ([`stored_as`]). Built with duoyibu's
//! rules, its book was byte for byte russian's but for the header's variant name (the two rule
//! sets differ only in the kings, which these openings never reach: the same positions, keys,
//! moves and scores), so one payload serves both; a test walks the shared book with duoyibu's
//! rules (every position reached, every move legal).
//!
//! Invariants: each embedded book is decoded at most once per process, on its first use, and
//! shared ([`Arc`]); an embedded book that does not decode (a build from damaged files, which
//! the tests rule out) is no book, never a panic. A book file is refused unless it is a whole,
//! undamaged book (not a shard's part) of the variant asked for.

use super::format::{self, FileKind};
use super::{Book, BookError};
use crate::game::Variant;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The bytes of the default book of `variant` (a book of [`stored_as`]`(variant)`).
pub fn bytes(variant: Variant) -> &'static [u8] {
    match stored_as(variant) {
        Variant::International => include_bytes!("../../books/international.book"),
        Variant::Brazilian => include_bytes!("../../books/brazilian.book"),
        Variant::Russian | Variant::Duoyibu => include_bytes!("../../books/russian.book"),
        Variant::English => include_bytes!("../../books/english.book"),
        Variant::Morris => include_bytes!("../../books/morris.book"),
    }
}

/// The variant whose embedded book `variant` plays: its own, but duoyibu russian's (see the
/// module documentation).
pub fn stored_as(variant: Variant) -> Variant {
    match variant {
        Variant::Duoyibu => Variant::Russian,
        v => v,
    }
}

/// The name an embedded book goes by in messages.
fn name(variant: Variant) -> String {
    format!("<embedded {}.book>", variant.name())
}

/// Decodes the default book of `variant` (every time: see [`default_book`] for the shared copy),
/// as a book of `variant` (duoyibu's: russian's book, see the module documentation).
pub fn decode(variant: Variant) -> Result<Book, BookError> {
    let stored = stored_as(variant);
    let book = from_bytes(Path::new(&name(stored)), bytes(variant), stored)?;
    Ok(Book { variant, ..book })
}

/// The default book of `variant`, decoded once per process; `None` if it does not decode.
pub fn default_book(variant: Variant) -> Option<Arc<Book>> {
    static BOOKS: [OnceLock<Option<Arc<Book>>>; Variant::ALL.len()] =
        [const { OnceLock::new() }; Variant::ALL.len()];
    let i = Variant::ALL.iter().position(|v| *v == variant)?;
    BOOKS[i]
        .get_or_init(|| decode(variant).ok().map(Arc::new))
        .clone()
}

/// Reads the book file at `path`, of `variant`: a file that is not a whole, undamaged book of
/// that variant is refused with the error naming it and the problem.
pub fn read(path: &Path, variant: Variant) -> Result<Book, BookError> {
    let bytes = std::fs::read(path).map_err(|e| BookError::Io {
        path: path.to_path_buf(),
        error: e.to_string(),
    })?;
    from_bytes(path, &bytes, variant)
}

fn from_bytes(path: &Path, bytes: &[u8], variant: Variant) -> Result<Book, BookError> {
    let (header, entries) = format::decode(path, bytes, Some(variant))?;
    if header.kind != FileKind::Book {
        return Err(BookError::Mismatch {
            path: path.to_path_buf(),
            reason: "a shard's part, not a book (merge it with tiao book merge)".into(),
        });
    }
    Ok(Book {
        variant,
        settings: header.settings,
        entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duoyibu_plays_russians_book_and_every_move_of_it_is_legal_there() {
        use crate::book::build::book_children;
        use crate::book::probe;
        use crate::draughts::position::Position;
        use crate::draughts::rules::Duoyibu;
        let book = decode(Variant::Duoyibu).unwrap();
        assert_eq!(book.variant, Variant::Duoyibu);
        assert_eq!(book.entries, decode(Variant::Russian).unwrap().entries);
        // Walked with duoyibu's rules from its start, the book is whole: every position
        // reached, every legal move held and every held move legal.
        let (_, reached) = probe::depth::<Position<Duoyibu>>(&book);
        assert_eq!(reached, book.len());
        let mut todo = vec![Position::<Duoyibu>::start()];
        let mut seen = std::collections::HashSet::new();
        while let Some(pos) = todo.pop() {
            let Some(moves) = book.get(pos.key()) else {
                continue;
            };
            if !seen.insert(pos.key()) {
                continue;
            }
            assert!(probe::missing_moves(&book, &pos).is_empty());
            let children = book_children(&pos, moves);
            assert_eq!(children.len(), moves.len());
            todo.extend(children.into_iter().map(|(_, _, c)| c));
        }
        assert_eq!(seen.len(), book.len());
    }

    #[test]
    fn every_embedded_book_loads_and_is_of_its_variant() {
        for v in Variant::ALL {
            let book = decode(v).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(book.variant, v);
            assert!(!book.is_empty(), "{v:?}");
            assert!(default_book(v).is_some());
        }
    }
}
