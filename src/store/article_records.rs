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
use super::indexes::{DataTrees, Out};
use super::keys::{self, SEP};
use super::layout::TreeName;
use super::packed::Entries;
use super::records::{ArticleRow, Record, RowView};
use super::varint;
use crate::catalogue::{Article, ArticleKey, ArticleText, TextKind, Translation};
use foldhash::HashMap;
use std::borrow::Cow;
use std::cell::OnceCell;

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
    /// Where each section starts in `value`, found at the first part read (an answer reads
    /// four; each would otherwise walk the sections before its own); none where the value
    /// does not decode.
    starts: OnceCell<Option<[usize; TABLES.len()]>>,
}

impl ArticleRecord {
    pub(super) fn new(prefix: Vec<u8>, value: Vec<u8>) -> ArticleRecord {
        ArticleRecord {
            prefix,
            value,
            starts: OnceCell::new(),
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

    /// The rows of `V`'s table borrowed from the record, in their key order.
    pub fn views<'r, V: RowView<'r>>(&'r self) -> Result<Vec<V>, StoreError> {
        let mut found = Vec::new();
        let mut rest = self.section(V::TREE)?;
        while let Some((suffix, value)) = next_row(&mut rest)? {
            found.push(V::view(suffix, value).ok_or_else(|| StoreError::undecodable(V::TREE))?);
        }
        Ok(found)
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
        let section = TABLES.iter().position(|&t| t == table).ok_or_else(|| {
            StoreError::Internal(format!("an article's record holds no {}", table.name()))
        })?;
        let starts = self.starts.get_or_init(|| section_starts(&self.value));
        let start = starts.ok_or_else(corrupt)?[section];
        Ok(&self.value[start..])
    }

    /// Calls `visit` with each row of `table` (its whole key and its value).
    fn visit(
        &self,
        table: TreeName,
        mut visit: impl FnMut(&[u8], &[u8]) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut rest = self.section(table)?;
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
        Ok(())
    }
}

/// Where each section of a record's value starts; none where it does not decode.
fn section_starts(value: &[u8]) -> Option<[usize; TABLES.len()]> {
    let mut rest = value;
    take(&mut rest)?;
    let mut starts = [0; TABLES.len()];
    for start in &mut starts {
        *start = value.len() - rest.len();
        while next_row(&mut rest).ok()?.is_some() {}
    }
    Some(starts)
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

fn put(out: &mut Vec<u8>, bytes: &[u8]) {
    varint::put(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// Adds a row to the section being written.
fn put_row(out: &mut Vec<u8>, prefix_len: usize, key: &[u8], value: &[u8]) {
    varint::put(out, (key.len() - prefix_len) as u64 + 1);
    out.extend_from_slice(&key[prefix_len..]);
    put(out, value);
}

/// The first byte of a description held as its generic article's name and the bytes that
/// follow the name (a stored value begins with its version, never 0).
const NAME_THEN: u8 = 0;

/// The generic articles' names in other languages, by generic article: (language, name).
pub struct GenartNames(HashMap<u32, Vec<(Vec<u8>, String)>>);

impl GenartNames {
    pub fn of(data: &dyn DataTrees) -> Result<GenartNames, StoreError> {
        let mut names: HashMap<u32, Vec<(Vec<u8>, String)>> = HashMap::default();
        let kind = [super::records::Code::code(TextKind::GenericArticle)];
        data.tree(TreeName::Texts)
            .visit_prefix(&kind, |key, value| {
                let text = Translation::decode(key, value)
                    .ok_or_else(|| StoreError::undecodable(TreeName::Texts))?;
                // An import keys these by id; a key that is none names nothing.
                if let Ok(id) = text.key.parse() {
                    let name = (text.language.into_bytes(), text.text);
                    names.entry(id).or_default().push(name);
                }
                Ok(())
            })?;
        Ok(GenartNames(names))
    }

    /// What a record holds of the description row `key` (an article's prefix of
    /// `prefix_len` bytes, then the language) stored as `value`: nothing where it is the
    /// name of the generic article `genart` gives in that language, `NAME_THEN` and what
    /// follows where it begins with that name, else the value.
    fn held<'v>(
        &self,
        genart: &mut impl FnMut() -> Option<u32>,
        prefix_len: usize,
        key: &[u8],
        value: &'v [u8],
    ) -> Cow<'v, [u8]> {
        let language = &key[prefix_len..];
        let name = genart()
            .and_then(|g| self.0.get(&g))
            .and_then(|names| names.iter().find(|(l, _)| l == language))
            .map(|(_, name)| name.as_str())
            .filter(|name| !name.is_empty());
        let rest = name.and_then(|name| {
            let description = ArticleText::description_of(value)?;
            Some(description.strip_prefix(name)?.to_owned())
        });
        match rest {
            Some(rest) if rest.is_empty() => Cow::Borrowed(&[]),
            Some(rest) => Cow::Owned([&[NAME_THEN][..], rest.as_bytes()].concat()),
            None => Cow::Borrowed(value),
        }
    }
}

/// The generic article of an article stored as `stored` under `key`, read at most once.
fn genart_of<'a>(key: &'a [u8], stored: &'a [u8]) -> impl FnMut() -> Option<u32> + 'a {
    let mut read = None;
    move || *read.get_or_insert_with(|| Article::decode(key, stored).map(|a| a.genart))
}

/// The record of `article` after a small change, from `before` (its record as stored, `None`
/// where the store did not hold the article): the parts `changed` names are read again from
/// `data`, the others copied, so a change of an article's prices reads its prices, not its
/// five tables. `None` where `data` holds no such article.
///
/// An article the store did not hold had no rows: a sound store holds none of an article it
/// lacks (a change that would leave any is refused, `check::dangling`), so of a new article
/// only the tables the change wrote rows of it to are read.
///
/// The descriptions are read again where the article's own row changed too: its generic
/// article may have, and with it the names they refer to.
pub fn patched(
    data: &dyn DataTrees,
    names: &GenartNames,
    article: &ArticleKey,
    before: Option<&[u8]>,
    changed: impl Fn(TreeName) -> bool,
) -> Result<Option<Vec<u8>>, StoreError> {
    let prefix = keys::article_prefix(article);
    let mut rest = before.unwrap_or_default();
    let stored_before = match before {
        Some(_) => Some(take(&mut rest).ok_or_else(corrupt)?),
        None => None,
    };
    let mut out = Vec::with_capacity(rest.len() + 64);
    let stored = match stored_before {
        Some(stored) if !changed(TreeName::Articles) => stored.to_vec(),
        _ => match data
            .tree(TreeName::Articles)
            .get(&keys::article_key(article))?
        {
            Some(stored) => stored,
            None => return Ok(None),
        },
    };
    put(&mut out, &stored);
    let mut genart = genart_of(&prefix[..prefix.len() - 1], &stored);
    for table in TABLES {
        let section = rest;
        if before.is_some() {
            while next_row(&mut rest)?.is_some() {}
        }
        let again =
            changed(table) || (table == TreeName::ArticleTexts && changed(TreeName::Articles));
        if again {
            data.tree(table).visit_prefix(&prefix, |k, v| {
                let v = match table {
                    TreeName::ArticleTexts => names.held(&mut genart, prefix.len(), k, v),
                    _ => Cow::Borrowed(v),
                };
                put_row(&mut out, prefix.len(), k, &v);
                Ok(())
            })?;
            out.push(0);
        } else if before.is_some() {
            out.extend_from_slice(&section[..section.len() - rest.len()]);
        } else {
            out.push(0);
        }
    }
    Ok(Some(out))
}

/// Every record, in key order, derived from `data` in one walk of each table; returns how
/// many. Articles are stored by `brand ‖ reference`, their rows by `brand ‖ reference ‖
/// SEP`: an article whose reference begins another's comes first in the one and after it in
/// the other, so each waits on a stack until the articles extending its key are written.
pub fn build(data: &dyn DataTrees, out: &mut Out<'_>) -> Result<u64, StoreError> {
    let names = GenartNames::of(data)?;
    let mut rows: Vec<(TreeName, Entries)> =
        TABLES.iter().map(|&t| (t, data.tree(t).iter())).collect();
    let mut waiting: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    let mut value = Vec::new();
    let mut written = 0;
    let mut write = |prefix: &[u8], article: &[u8]| -> Result<(), StoreError> {
        value.clear();
        put(&mut value, article);
        let mut genart = genart_of(&prefix[..prefix.len() - 1], article);
        for (t, table) in &mut rows {
            // Rows before the prefix belong to no article (`check` reports them).
            loop {
                let passed = match table.peek()? {
                    Some((k, v)) if k.starts_with(prefix) => {
                        let v = match t {
                            TreeName::ArticleTexts => names.held(&mut genart, prefix.len(), k, v),
                            _ => Cow::Borrowed(v),
                        };
                        put_row(&mut value, prefix.len(), k, &v);
                        true
                    }
                    Some((k, _)) => k < prefix,
                    None => false,
                };
                if !passed {
                    break;
                }
                table.advance();
            }
            value.push(0);
        }
        written += 1;
        out(prefix, &value)
    };
    for entry in data.tree(TreeName::Articles).iter() {
        let (key, stored) = entry?;
        while let Some((top, _)) = waiting.last() {
            if key.starts_with(&top[..top.len() - 1]) {
                break;
            }
            let (prefix, article) = waiting.pop().unwrap_or_default();
            write(&prefix, &article)?;
        }
        let mut prefix = key;
        prefix.push(SEP);
        waiting.push((prefix, stored));
    }
    while let Some((prefix, article)) = waiting.pop() {
        write(&prefix, &article)?;
    }
    Ok(written)
}

#[cfg(test)]
mod tests;
