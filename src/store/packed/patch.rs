//! A new generation of a table that differs from the current one in a few keys: the blocks
//! holding those keys are written again, with the chunks of the block index listing them;
//! every other page is shared with the current generation.
//!
//! A block that shrank is joined with its neighbour where both fit in one block, and a chunk
//! likewise, so many small commits do not leave the table in ever smaller pieces.

use super::block::Block;
use super::{BLOCK_BYTES, PackedTable, PackedWriter, page_at};
use crate::store::error::StoreError;

/// One change to a table: the new value under a key, or (`None`) the key's removal.
pub struct Change {
    pub key: Vec<u8>,
    pub value: Option<Vec<u8>>,
}

/// A patched table and the pages of the current one it no longer uses.
pub struct Patched {
    pub table: PackedTable,
    pub freed: Vec<u64>,
}

impl PackedTable {
    /// This table with `changes` (keys strictly increasing) applied, written by `writer`
    /// (a new root over the same pages).
    pub fn patch(
        &self,
        mut writer: PackedWriter,
        changes: &[Change],
    ) -> Result<Patched, StoreError> {
        if changes.windows(2).any(|w| w[0].key >= w[1].key) {
            return Err(StoreError::Internal(
                "a packed table was patched with keys out of order".into(),
            ));
        }
        writer.one_by_one();
        let root = self.root()?;
        let mut freed = Vec::new();
        let mut next = 0;
        let chunks = root.len();
        if chunks == 0 {
            push_all(&mut writer, changes)?;
        }
        for c in 0..chunks {
            let slot = &root.slots[c];
            let last_chunk = c + 1 == chunks;
            // Keys past the table's last key go to its last block.
            let end = match last_chunk {
                true => changes.len(),
                false => next + up_to(&changes[next..], &root.lasts[c]),
            };
            if end == next && writer.pending_block() == 0 {
                let pending = writer.pending_chunk();
                if pending == 0 || pending + self.chunk(slot)?.bytes() > BLOCK_BYTES {
                    writer.keep_chunk(&root.lasts[c], slot.clone())?;
                    continue;
                }
            }
            freed.push(slot.page);
            let chunk = self.chunk(slot)?;
            for b in 0..chunk.len() {
                let page = page_at(chunk, b)?;
                let block_end = match last_chunk && b + 1 == chunk.len() {
                    true => end,
                    false => next + up_to(&changes[next..end], chunk.key(b)),
                };
                let block = match (block_end == next, writer.pending_block()) {
                    (true, 0) => None,
                    (true, pending) => {
                        let block = self.block(page)?;
                        (pending + block.bytes() <= BLOCK_BYTES).then_some(block)
                    }
                    (false, _) => Some(self.block(page)?),
                };
                let Some(block) = block else {
                    writer.keep_block(chunk.key(b), page)?;
                    continue;
                };
                freed.push(page);
                merge(&block, &changes[next..block_end], &mut writer)?;
                next = block_end;
            }
        }
        let (table, _) = writer.finish()?;
        Ok(Patched { table, freed })
    }
}

/// How many of `changes` have keys up to `last`.
fn up_to(changes: &[Change], last: &[u8]) -> usize {
    changes.partition_point(|c| c.key.as_slice() <= last)
}

fn push_all(writer: &mut PackedWriter, changes: &[Change]) -> Result<(), StoreError> {
    for change in changes {
        if let Some(value) = &change.value {
            writer.push(&change.key, value)?;
        }
    }
    Ok(())
}

/// Writes the entries of `block` with `changes` applied.
fn merge(block: &Block, changes: &[Change], writer: &mut PackedWriter) -> Result<(), StoreError> {
    let mut c = 0;
    for e in 0..block.len() {
        let key = block.key(e);
        let before = c + changes[c..].partition_point(|ch| ch.key.as_slice() < key);
        push_all(writer, &changes[c..before])?;
        c = before;
        match changes.get(c) {
            Some(change) if change.key == key => {
                if let Some(value) = &change.value {
                    writer.push(key, value)?;
                }
                c += 1;
            }
            _ => writer.push(key, block.value(e))?,
        }
    }
    push_all(writer, &changes[c..])
}
