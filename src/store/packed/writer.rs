//! Writes a packed table in key order: entries fill a block, each full block becomes a page
//! and an entry of the current chunk of the block index, each full chunk a page and an
//! entry of the root. A patch hands it the pages it keeps as they are, in their place.

use std::sync::Arc;

use super::block::BlockBuilder;
use super::{BLOCK_BYTES, BlockCache, PackedTable, Pages, Root, Slot};
use crate::store::engine::{self, Batch};
use crate::store::error::StoreError;

/// Engine bytes gathered before one batch of pages is applied.
const BATCH_BYTES: usize = 4 << 20;

pub struct PackedWriter {
    root_tree: engine::Tree,
    pages: Pages,
    cache: Arc<BlockCache>,
    block: BlockBuilder,
    chunk: BlockBuilder,
    chunk_blocks: u32,
    batch: Batch,
    batch_bytes: usize,
    /// Whether pages are written one by one (a patch while the store serves: sled holds
    /// every reader while it applies a batch) or in batches (a whole table, which sled packs
    /// tighter).
    one_by_one: bool,
    root: Vec<(Box<[u8]>, Arc<Slot>)>,
    entries: u64,
}

impl PackedWriter {
    /// Writes a table whose root is `root_tree`, which must be empty.
    pub(super) fn new(root_tree: engine::Tree, pages: Pages, cache: Arc<BlockCache>) -> Self {
        PackedWriter {
            root_tree,
            pages,
            cache,
            block: BlockBuilder::default(),
            chunk: BlockBuilder::default(),
            chunk_blocks: 0,
            batch: Batch::default(),
            batch_bytes: 0,
            one_by_one: false,
            root: Vec::new(),
            entries: 0,
        }
    }

    /// Writes pages one by one from now on (see `one_by_one`).
    pub(super) fn one_by_one(&mut self) {
        self.one_by_one = true;
    }

    fn write(&self, tree: &engine::Tree, batch: Batch) -> Result<(), StoreError> {
        match self.one_by_one {
            true => tree.apply_each(batch),
            false => tree.apply(batch),
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

    /// Uncompressed bytes of the block being filled.
    pub(super) fn pending_block(&self) -> usize {
        self.block.body_len()
    }

    /// Uncompressed bytes of the chunk being filled.
    pub(super) fn pending_chunk(&self) -> usize {
        self.chunk.body_len()
    }

    fn write_page(&mut self, id: u64, stored: Vec<u8>) -> Result<(), StoreError> {
        self.batch_bytes += stored.len() + 8;
        self.batch
            .insert(super::pages::page_key(id).to_vec(), stored);
        if self.batch_bytes >= BATCH_BYTES {
            let pages = std::mem::take(&mut self.batch);
            self.write(&self.pages.tree, pages)?;
            self.batch_bytes = 0;
        }
        Ok(())
    }

    fn end_block(&mut self) -> Result<(), StoreError> {
        if self.block.is_empty() {
            return Ok(());
        }
        let last = self.block.last_key().to_vec();
        let id = self.pages.allocate();
        let stored = self.block.seal(id);
        self.write_page(id, stored)?;
        self.add_block(&last, id)
    }

    /// Lists a written block in the current chunk.
    fn add_block(&mut self, last: &[u8], id: u64) -> Result<(), StoreError> {
        self.chunk.push(last, &id.to_be_bytes());
        self.chunk_blocks += 1;
        if self.chunk.body_len() >= BLOCK_BYTES {
            self.end_chunk()?;
        }
        Ok(())
    }

    fn end_chunk(&mut self) -> Result<(), StoreError> {
        if self.chunk.is_empty() {
            return Ok(());
        }
        let last: Box<[u8]> = self.chunk.last_key().into();
        let id = self.pages.allocate();
        let stored = self.chunk.seal(id);
        self.write_page(id, stored)?;
        self.root
            .push((last, Slot::new(id, std::mem::take(&mut self.chunk_blocks))));
        Ok(())
    }

    /// Keeps the block `id`, whose last key is `last`, in its place: what is being filled
    /// before it is sealed first.
    pub(super) fn keep_block(&mut self, last: &[u8], id: u64) -> Result<(), StoreError> {
        self.end_block()?;
        self.add_block(last, id)
    }

    /// Keeps a whole chunk of the block index in its place.
    pub(super) fn keep_chunk(&mut self, last: &[u8], slot: Arc<Slot>) -> Result<(), StoreError> {
        self.end_block()?;
        self.end_chunk()?;
        self.root.push((last.into(), slot));
        Ok(())
    }

    /// Writes what is left and the root; the table written, with the entries pushed.
    pub fn finish(mut self) -> Result<(PackedTable, u64), StoreError> {
        self.end_block()?;
        self.end_chunk()?;
        let pages = std::mem::take(&mut self.batch);
        self.write(&self.pages.tree, pages)?;
        let mut root = Batch::default();
        for (last, slot) in &self.root {
            root.insert(last.to_vec(), slot.stored().to_vec());
        }
        self.write(&self.root_tree, root)?;
        let table =
            PackedTable::with_root(self.root_tree, self.pages, self.cache, Root::new(self.root));
        Ok((table, self.entries))
    }
}
