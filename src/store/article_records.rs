//! One record per article: the article with the rows stored under it that an article's
//! answer reads (its cross-references, criteria, prices, media and descriptions in other
//! languages), so that a lookup reads one entry where it read six. It is an index like the
//! others: derived from those tables, built by imports, patched article by article by small
//! changes and compared with a full derivation by `check`.
//!
//! A description that is, or begins with, the article's generic article's name in its
//! language (as the `texts` hold it) is held as a reference to that name and what follows
//! it, not as a second copy: a catalogue's descriptions are mostly its generic articles'
//! names and a detail, and each added language would otherwise be held twice. A change of
//! the `texts` therefore builds the records whole (`staging::tables`: a source not keyed by
//! article bounds no patch).
//!
//! Its key is the article's prefix (`brand ‖ reference ‖ SEP`), under which the row tables
//! store the article's rows, so the build walks them side by side in their own order. Its
//! value: the article's stored value (varint length, bytes), then one section per table of
//! `TABLES`, each row as (varint length of the key after the prefix + 1, those bytes, varint
//! length of the value, the value), a 0 ending the section. Values are copied as stored, so
//! a record decodes with the tables' own `Record::decode`.

use super::error::StoreError;
use super::layout::TreeName;
use super::records::{ArticleRow, Record, RowView};
use super::varint;
use crate::catalogue::{Article, ArticleText};
use std::cell::Cell;

mod writing;
pub use writing::{GenartNames, build, patched};

/// The row tables a record holds, in the order of its sections.
pub const TABLES: [TreeName; 5] = [
    TreeName::CrossReferences,
    TreeName::Criteria,
    TreeName::Prices,
    TreeName::Media,
    TreeName::ArticleTexts,
];

fn corrupt() -> StoreError {
    StoreError::undecodable(TreeName::ArticleRecords)
}

/// A record as read: the article's prefix and the stored value, decoded part by part.
pub struct ArticleRecord {
    prefix: Vec<u8>,
    value: Vec<u8>,
    /// Where each section starts in `value`, 0 until found (the article's value comes
    /// first): found as far as a part read needs, and a section's rows read to their end
    /// give the next section's start, so an answer reading its sections in order walks each
    /// once.
    starts: [Cell<usize>; TABLES.len()],
}

impl ArticleRecord {
    pub(super) fn new(prefix: Vec<u8>, value: Vec<u8>) -> ArticleRecord {
        ArticleRecord {
            prefix,
            value,
            starts: Default::default(),
        }
    }

    pub fn article(&self) -> Result<Article, StoreError> {
        let (key, value) = self.article_bytes()?;
        Article::decode(key, value).ok_or_else(|| StoreError::undecodable(TreeName::Articles))
    }

    /// The article's own row, borrowed from the record.
    pub fn article_row(&self) -> Result<ArticleRow<'_>, StoreError> {
        let (key, value) = self.article_bytes()?;
        ArticleRow::view(key, value).ok_or_else(|| StoreError::undecodable(TreeName::Articles))
    }

    /// The article's key and value.
    fn article_bytes(&self) -> Result<(&[u8], &[u8]), StoreError> {
        let mut rest = self.value.as_slice();
        let value = take(&mut rest).ok_or_else(corrupt)?;
        Ok((&self.prefix[..self.prefix.len() - 1], value))
    }

    /// The rows of `V`'s table borrowed from the record, in their key order, read as the
    /// iterator is walked (collected, a viewed row would be copied once more).
    pub fn views<'r, V: RowView<'r>>(
        &'r self,
    ) -> Result<impl Iterator<Item = Result<V, StoreError>> + 'r, StoreError> {
        let section = section_of(V::TREE)?;
        // None once the section's end or an undecodable row is read.
        let mut rest = Some(self.section_at(section)?);
        Ok(std::iter::from_fn(move || {
            let viewed = match next_row(rest.as_mut()?) {
                Ok(None) => {
                    self.starts_at(section + 1, rest.unwrap_or_default());
                    None
                }
                Ok(Some((suffix, value))) => {
                    Some(V::view(suffix, value).ok_or_else(|| StoreError::undecodable(V::TREE)))
                }
                Err(e) => Some(Err(e)),
            };
            if !matches!(viewed, Some(Ok(_))) {
                rest = None;
            }
            viewed
        }))
    }

    /// The rows of `R`'s table, in their key order (not the descriptions, some of which are
    /// held by reference: `description`).
    pub fn rows<R: Record>(&self) -> Result<Vec<R>, StoreError> {
        let mut found = Vec::new();
        self.visit(R::TREE, |key, value| {
            found.push(R::decode(key, value).ok_or_else(|| StoreError::undecodable(R::TREE))?);
            Ok(())
        })?;
        Ok(found)
    }

    /// The description in the first of `languages` the article has one in; none where it
    /// has one in none of them. `genart_name` gives the article's generic article's name in
    /// a language, for the descriptions held as a reference to it.
    pub fn description(
        &self,
        languages: &[String],
        genart_name: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<String>, StoreError> {
        let t = TreeName::ArticleTexts;
        let mut found: Option<(usize, &[u8])> = None;
        let mut rest = self.section(t)?;
        while let Some((language, value)) = next_row(&mut rest)? {
            let rank = languages.iter().position(|l| l.as_bytes() == language);
            if let Some(rank) = rank.filter(|&r| found.is_none_or(|(f, _)| r < f)) {
                found = Some((rank, value));
            }
        }
        let Some((rank, value)) = found else {
            return Ok(None);
        };
        match value {
            [] => genart_name(&languages[rank]),
            [NAME_THEN, rest @ ..] => std::str::from_utf8(rest)
                .ok()
                .and_then(|rest| Some(genart_name(&languages[rank])? + rest)),
            stored => ArticleText::description_of(stored),
        }
        .map(Some)
        .ok_or_else(|| StoreError::undecodable(t))
    }

    /// The rows of `table`'s section, from its first row's start.
    fn section(&self, table: TreeName) -> Result<&[u8], StoreError> {
        self.section_at(section_of(table)?)
    }

    /// The rows of the section at `section`, found from the nearest start known before it.
    fn section_at(&self, section: usize) -> Result<&[u8], StoreError> {
        let known = (0..=section).rev().find(|&s| self.starts[s].get() != 0);
        let mut at = known.unwrap_or(0);
        let mut rest = match known {
            Some(s) => &self.value[self.starts[s].get()..],
            None => {
                let mut rest = self.value.as_slice();
                take(&mut rest).ok_or_else(corrupt)?;
                self.starts_at(0, rest);
                rest
            }
        };
        while at < section {
            while next_row(&mut rest)?.is_some() {}
            at += 1;
            self.starts_at(at, rest);
        }
        Ok(rest)
    }

    /// Notes that the section at `section` starts where `rest` begins (read to the end of
    /// the part before it); past the last section, nothing.
    fn starts_at(&self, section: usize, rest: &[u8]) {
        if let Some(start) = self.starts.get(section) {
            start.set(self.value.len() - rest.len());
        }
    }

    /// Calls `visit` with each row of `table` (its whole key and its value).
    fn visit(
        &self,
        table: TreeName,
        mut visit: impl FnMut(&[u8], &[u8]) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let section = section_of(table)?;
        let mut rest = self.section_at(section)?;
        let mut key = Vec::new();
        while let Some((suffix, value)) = next_row(&mut rest)? {
            if key.is_empty() {
                // Made at the first row (most sections have none), with room for the rest.
                key.reserve(self.prefix.len() + 64);
                key.extend_from_slice(&self.prefix);
            }
            key.truncate(self.prefix.len());
            key.extend_from_slice(suffix);
            visit(&key, value)?;
        }
        self.starts_at(section + 1, rest);
        Ok(())
    }
}

/// Where `table`'s section is among a record's.
fn section_of(table: TreeName) -> Result<usize, StoreError> {
    TABLES.iter().position(|&t| t == table).ok_or_else(|| {
        StoreError::Internal(format!("an article's record holds no {}", table.name()))
    })
}

/// A row of a record's section: its key after the article's prefix, and its value.
type Row<'a> = (&'a [u8], &'a [u8]);

/// The next row of the section `rest` starts with; `None` at the section's end, its 0 read.
fn next_row<'a>(rest: &mut &'a [u8]) -> Result<Option<Row<'a>>, StoreError> {
    let suffix_len = varint::take(rest).ok_or_else(corrupt)?;
    if suffix_len == 0 {
        return Ok(None);
    }
    let suffix = split(rest, suffix_len - 1).ok_or_else(corrupt)?;
    let value = take(rest).ok_or_else(corrupt)?;
    Ok(Some((suffix, value)))
}

fn split<'a>(rest: &mut &'a [u8], len: u64) -> Option<&'a [u8]> {
    let len = usize::try_from(len).ok()?;
    if rest.len() < len {
        return None;
    }
    let (bytes, after) = rest.split_at(len);
    *rest = after;
    Some(bytes)
}

/// A length-prefixed part.
fn take<'a>(rest: &mut &'a [u8]) -> Option<&'a [u8]> {
    let len = varint::take(rest)?;
    split(rest, len)
}

/// The first byte of a description held as its generic article's name and the bytes that
/// follow the name (a stored value begins with its version, never 0).
const NAME_THEN: u8 = 0;

#[cfg(test)]
mod tests;
