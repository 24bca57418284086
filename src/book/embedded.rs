//! The default books, embedded in the binary (`books/<variant>.book`, built with `tiao book
//! build`: the commands and settings are in docs/book.md), so that the engine plays from a book
//! without any file; and reading a book file given instead (`--book FILE`, Hub `book-file`).
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

/// The bytes of the default book of `variant`.
pub fn bytes(variant: Variant) -> &'static [u8] {
    match variant {
        Variant::International => include_bytes!("../../books/international.book"),
        Variant::Brazilian => include_bytes!("../../books/brazilian.book"),
        Variant::Russian => include_bytes!("../../books/russian.book"),
        Variant::Duoyibu => include_bytes!("../../books/duoyibu.book"),
        Variant::English => include_bytes!("../../books/english.book"),
        Variant::Morris => include_bytes!("../../books/morris.book"),
    }
}

/// The name an embedded book goes by in messages.
fn name(variant: Variant) -> String {
    format!("<embedded {}.book>", variant.name())
}

/// Decodes the default book of `variant` (every time: see [`default_book`] for the shared copy).
pub fn decode(variant: Variant) -> Result<Book, BookError> {
    from_bytes(Path::new(&name(variant)), bytes(variant), variant)
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
    fn every_embedded_book_loads_and_is_of_its_variant() {
        for v in Variant::ALL {
            let book = decode(v).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(book.variant, v);
            assert!(!book.is_empty(), "{v:?}");
            assert!(default_book(v).is_some());
        }
    }
}
