//! Writing the records: each built from the row tables in one walk of them (`build`, at an
//! import), or patched from the record as stored after a small change (`patched`), with the
//! descriptions held as their generic article's name where they begin with it
//! (`GenartNames`). `ArticleRecord` reads what these write.

use std::borrow::Cow;

use foldhash::HashMap;

use super::{NAME_THEN, TABLES, corrupt, next_row, take};
use crate::catalogue::{Article, ArticleKey, ArticleText, TextKind, Translation};
use crate::store::error::StoreError;
use crate::store::indexes::{DataTrees, Out};
use crate::store::keys::{self, SEP};
use crate::store::layout::TreeName;
use crate::store::packed::Entries;
use crate::store::records::{Code, Record};
use crate::store::varint;

/// The generic articles' names in other languages, by generic article: (language, name).
pub struct GenartNames(HashMap<u32, Vec<(Vec<u8>, String)>>);

impl GenartNames {
    pub fn of(data: &dyn DataTrees) -> Result<GenartNames, StoreError> {
        let mut names: HashMap<u32, Vec<(Vec<u8>, String)>> = HashMap::default();
        let kind = [Code::code(TextKind::GenericArticle)];
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
