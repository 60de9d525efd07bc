//! The walk of a table's staged rows beside its current rows: what each row does, counted,
//! gathered for a patch, or written as the merge of both, with the change feed's entries.

use std::iter::Peekable;

use super::tables::Gathered;
use super::{
    Duplicate, LISTED_DUPLICATES, Origin, REMOVED, RETIRES, Scope, Staging, Tally, UPSERT,
};
use crate::store::engine;
use crate::store::error::StoreError;
use crate::store::layout::TreeName;
use crate::store::packed::{Cursor, PackedTable, PackedWriter};
use crate::store::sorter::Sorter;

/// One walk's outputs and what it has found so far.
struct Walk<'g> {
    tree: TreeName,
    scope: Option<&'g Scope>,
    /// Where what a written merge changes goes, for the change feed.
    feed: Option<engine::Tree>,
    writer: Option<PackedWriter>,
    keys_out: Option<PackedWriter>,
    gather: Option<&'g mut Gathered>,
    changed: bool,
    /// Rows the replace's scope retires.
    removed: u64,
    /// Rows `remove` rows retire.
    retired: u64,
}

impl Walk<'_> {
    /// Whether the current rows are walked beside the staged ones (a merge, or a replace that
    /// retires the rows no staged row mentions); a count alone looks each key up.
    fn merging(&self) -> bool {
        self.writer.is_some() || self.scope.is_some()
    }

    /// Keeps a change for the feed.
    fn record(&self, key: &[u8], entry: &[u8]) -> Result<(), StoreError> {
        if let Some(changes) = &self.feed {
            let mut k = Vec::with_capacity(key.len() + 1);
            k.push(self.tree.index() as u8);
            k.extend_from_slice(key);
            changes.insert(&k, entry)?;
        }
        Ok(())
    }

    /// Keeps a retirement for the feed, with the row's last value.
    fn record_retired(&self, key: &[u8], old: &[u8]) -> Result<(), StoreError> {
        let mut entry = vec![REMOVED];
        entry.extend_from_slice(old);
        self.record(key, &entry)
    }

    /// A current row no staged row mentions: kept, or retired by the replace.
    fn unmentioned(&mut self, k: &[u8], v: &[u8]) -> Result<(), StoreError> {
        if self.scope.is_some_and(|s| s.covers(self.tree, k, v)) {
            self.removed += 1;
            if let Some(gathered) = self.gather.as_deref_mut() {
                gathered.add(k, None, Some(v));
            }
            return self.record_retired(k, v);
        }
        match self.writer.as_mut() {
            Some(writer) => writer.push(k, v),
            None => Ok(()),
        }
    }

    /// The current rows before `key`, none of which a staged row mentions.
    fn pass_before<I>(&mut self, current: &mut Peekable<I>, key: &[u8]) -> Result<(), StoreError>
    where
        I: Iterator<Item = Result<(Vec<u8>, Vec<u8>), StoreError>>,
    {
        while let Some(entry) = current.next_if(|e| !matches!(e, Ok((k, _)) if k.as_slice() >= key))
        {
            let (k, v) = entry?;
            self.unmentioned(&k, &v)?;
        }
        Ok(())
    }

    /// Whether the current table holds the staged row's key, and with the same value; a
    /// merge writes the row (or keeps its retirement for the feed) on the way.
    fn compare<I>(
        &mut self,
        current: &mut Peekable<I>,
        cursor: &mut Cursor<'_>,
        key: &[u8],
        value: &[u8],
        retires: bool,
    ) -> Result<Option<bool>, StoreError>
    where
        I: Iterator<Item = Result<(Vec<u8>, Vec<u8>), StoreError>>,
    {
        if !self.merging() {
            let old = cursor.find(key)?;
            self.gather_row(key, value, retires, old);
            return Ok(old.map(|v| v == value));
        }
        self.pass_before(current, key)?;
        let old = current.next_if(|e| matches!(e, Ok((k, _)) if k.as_slice() == key));
        let old = old.transpose()?.map(|(_, v)| v);
        self.gather_row(key, value, retires, old.as_deref());
        if retires {
            if let Some(old) = &old {
                self.record_retired(key, old)?;
            }
        } else if let Some(writer) = self.writer.as_mut() {
            writer.push(key, value)?;
        }
        Ok(old.map(|v| v == value))
    }

    /// What a patch needs of a staged row: its new value, or the retired row's last one.
    fn gather_row(&mut self, key: &[u8], value: &[u8], retires: bool, old: Option<&[u8]>) {
        if let Some(gathered) = self.gather.as_deref_mut() {
            match retires {
                true if old.is_some() => gathered.add(key, None, old),
                false if old != Some(value) => gathered.add(key, Some(value), None),
                _ => {}
            }
        }
    }
}

impl Staging<'_> {
    /// Walks the staged rows of `tree` in key order beside its current table: counts what
    /// each row does (when `count`), writes the staged keys to `keys_out` if given, and, given
    /// a writer, writes the merge of both (a staged row replaces the current row of its key;
    /// rows the import does not mention stay, unless a replace's scope covers them: those are
    /// retired) and keeps what it changes for the change feed. Given `gather`, a count alone
    /// gathers what each row changes for a patch. Says whether any row adds, changes or
    /// retires something, with the table written.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn walk(
        &mut self,
        sorter: &mut Sorter,
        base: &PackedTable,
        (tree, scope): (TreeName, Option<&Scope>),
        count: bool,
        keys_out: Option<PackedWriter>,
        writer: Option<PackedWriter>,
        gather: Option<&mut Gathered>,
    ) -> Result<(bool, Option<PackedTable>), StoreError> {
        // What a written merge changes goes to the feed, unless the table was empty: a load
        // is not kept key by key.
        let feed = match &writer {
            Some(_) if base.is_empty() => {
                self.unrecorded = true;
                None
            }
            Some(_) => Some(self.changes_tree()?),
            None => None,
        };
        let mut walk = Walk {
            tree,
            scope,
            feed,
            writer,
            keys_out,
            gather,
            changed: false,
            removed: 0,
            retired: 0,
        };
        let mut cursor = base.cursor();
        let mut current = base.iter().peekable();
        let mut previous: Option<(Vec<u8>, Origin)> = None;
        for item in sorter.sorted()? {
            let item = item?;
            let origin = Origin::unpacked(item.origin);
            let retires = item.origin & RETIRES != 0;
            if let Some((key, earlier)) = &previous
                && *key == item.key
            {
                if count {
                    self.tally(origin).duplicate(origin.line, *earlier);
                }
                continue;
            }
            let same = walk.compare(&mut current, &mut cursor, &item.key, &item.value, retires)?;
            if retires {
                // Retiring a key the catalogue holds changes it; one it lacks, nothing.
                let held = same.is_some();
                walk.changed |= held;
                walk.retired += u64::from(held);
                if count {
                    self.tally(origin).retiring(held);
                }
            } else {
                walk.changed |= same != Some(true);
                if same != Some(true) {
                    walk.record(&item.key, &[UPSERT])?;
                }
                if count {
                    self.tally(origin).staged(same);
                }
                if let Some(keys) = walk.keys_out.as_mut() {
                    let looked_up = walk.tree == TreeName::CriterionDefinitions;
                    keys.push(&item.key, if looked_up { &item.value } else { &[] })?;
                }
            }
            previous = Some((item.key, origin));
        }
        self.finish_walk(walk, current, count)
    }

    /// The current rows after the last staged one, the tables finished and the counts kept.
    fn finish_walk<I>(
        &mut self,
        mut walk: Walk<'_>,
        current: Peekable<I>,
        count: bool,
    ) -> Result<(bool, Option<PackedTable>), StoreError>
    where
        I: Iterator<Item = Result<(Vec<u8>, Vec<u8>), StoreError>>,
    {
        if walk.merging() {
            for entry in current {
                let (k, v) = entry?;
                walk.unmentioned(&k, &v)?;
            }
        }
        let written = match walk.writer {
            Some(writer) => Some(writer.finish()?.0),
            None => None,
        };
        if let Some(keys) = walk.keys_out {
            keys.finish()?;
        }
        if let Some(s) = walk.scope
            && count
        {
            self.tallies.entry(s.replace.file).or_default().removed += walk.removed;
        }
        if count {
            self.removed.insert(walk.tree, walk.removed + walk.retired);
        }
        Ok((walk.changed || walk.removed > 0, written))
    }

    fn tally(&mut self, origin: Origin) -> &mut Tally {
        self.tallies.entry(origin.file).or_default()
    }
}

impl Tally {
    /// A row whose key an earlier row of the same import gave.
    fn duplicate(&mut self, line: u64, earlier: Origin) {
        self.duplicate_count += 1;
        if self.duplicates.len() < LISTED_DUPLICATES {
            self.duplicates.push(Duplicate { line, earlier });
        }
    }

    /// A `remove` row: of a row the catalogue holds, or of one it lacks.
    fn retiring(&mut self, held: bool) {
        match held {
            true => self.removed += 1,
            false => self.unchanged += 1,
        }
    }

    /// A row written: the same as the current one, another value, or a new key.
    fn staged(&mut self, same: Option<bool>) {
        match same {
            Some(true) => self.unchanged += 1,
            Some(false) => self.changed += 1,
            None => self.added += 1,
        }
    }
}
