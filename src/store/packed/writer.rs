//! Writes a packed table in key order: entries fill a block, full blocks go to the engine in
//! large batches.

use super::BLOCK_BYTES;
use super::block::BlockBuilder;
use crate::store::engine::{self, Batch};
use crate::store::error::StoreError;

/// Engine bytes gathered before one batch is applied.
const BATCH_BYTES: usize = 4 << 20;

pub struct PackedWriter {
    tree: engine::Tree,
    block: BlockBuilder,
    blocks: u64,
    batch: engine::Batch,
    batch_bytes: usize,
    entries: u64,
}

impl PackedWriter {
    /// Writes into `tree`, which must be empty.
    pub fn new(tree: engine::Tree) -> PackedWriter {
        PackedWriter {
            tree,
            block: BlockBuilder::default(),
            blocks: 0,
            batch: Batch::default(),
            batch_bytes: 0,
            entries: 0,
        }
    }

    /// Adds an entry; keys must come in strictly increasing order.
    pub fn push(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        if !self.block.is_empty() {
            if key <= self.block.last_key() {
                return Err(StoreError::Engine(
                    "a packed table was given keys out of order".into(),
                ));
            }
            if self.block.body_len() + key.len() + value.len() > BLOCK_BYTES {
                self.end_block()?;
            }
        }
        self.block.push(key, value);
        self.entries += 1;
        Ok(())
    }

    fn end_block(&mut self) -> Result<(), StoreError> {
        let last = self.block.last_key().to_vec();
        let stored = self.block.seal(self.blocks);
        self.blocks += 1;
        self.batch_bytes += last.len() + stored.len();
        self.batch.insert(last, stored);
        if self.batch_bytes >= BATCH_BYTES {
            self.tree.apply(std::mem::take(&mut self.batch))?;
            self.batch_bytes = 0;
        }
        Ok(())
    }

    /// Writes what is left; returns the number of entries written.
    pub fn finish(mut self) -> Result<u64, StoreError> {
        if !self.block.is_empty() {
            self.end_block()?;
        }
        self.tree.apply(std::mem::take(&mut self.batch))?;
        Ok(self.entries)
    }
}
