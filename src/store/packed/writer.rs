//! Writes a packed table in key order: entries fill a block, each full block becomes a page
//! and an entry of the current chunk of the block index, each full chunk a page and an
//! entry of the root. A patch hands it the pages it keeps as they are, in their place.
//!
//! A whole table's pages are compressed and written by a thread of their own, a batch at a
//! time, while this one fills the next batch: an import's two cores share the work.

use std::sync::Arc;
use std::sync::mpsc::{SyncSender, sync_channel};
use std::thread::JoinHandle;

use super::block::{BlockBuilder, Unsealed};
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
    /// Pages waiting to be written, and their uncompressed bytes.
    batch: Vec<(u64, Unsealed)>,
    batch_bytes: usize,
    /// The thread writing full batches; started with the first.
    background: Option<Background>,
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
            batch: Vec::new(),
            batch_bytes: 0,
            background: None,
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
                return Err(StoreError::Internal(
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

    fn write_page(&mut self, id: u64, page: Unsealed) -> Result<(), StoreError> {
        self.batch_bytes += page.len() + 8;
        self.batch.push((id, page));
        if self.batch_bytes >= BATCH_BYTES {
            let pages = std::mem::take(&mut self.batch);
            self.batch_bytes = 0;
            if self.one_by_one {
                return self.write(&self.pages.tree, sealed(pages));
            }
            let background = self
                .background
                .get_or_insert_with(|| Background::start(self.pages.tree.clone()));
            if !background.send(pages) {
                // The thread stopped at an error: it says which.
                return match self.background.take() {
                    Some(failed) => failed.finish(),
                    None => Ok(()),
                };
            }
        }
        Ok(())
    }

    fn end_block(&mut self) -> Result<(), StoreError> {
        if self.block.is_empty() {
            return Ok(());
        }
        let last = self.block.last_key().to_vec();
        let id = self.pages.allocate();
        let page = self.block.take();
        self.write_page(id, page)?;
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
        let page = self.chunk.take();
        self.write_page(id, page)?;
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
        let pages = sealed(std::mem::take(&mut self.batch));
        if let Some(background) = self.background.take() {
            background.finish()?;
        }
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

/// Pages in their stored form, as one batch.
fn sealed(pages: Vec<(u64, Unsealed)>) -> Batch {
    let mut batch = Batch::default();
    for (id, page) in pages {
        batch.insert(super::pages::page_key(id).to_vec(), page.seal(id));
    }
    batch
}

/// A thread that compresses and writes batches of pages, one waiting at most.
struct Background {
    batches: Option<SyncSender<Vec<(u64, Unsealed)>>>,
    thread: Option<JoinHandle<Result<(), StoreError>>>,
}

impl Background {
    fn start(tree: engine::Tree) -> Background {
        let (batches, received) = sync_channel::<Vec<(u64, Unsealed)>>(1);
        let thread = std::thread::spawn(move || {
            for pages in received {
                tree.apply(sealed(pages))?;
            }
            Ok(())
        });
        Background {
            batches: Some(batches),
            thread: Some(thread),
        }
    }

    /// Hands a batch over; `false` once the thread has stopped.
    fn send(&self, pages: Vec<(u64, Unsealed)>) -> bool {
        self.batches
            .as_ref()
            .is_some_and(|batches| batches.send(pages).is_ok())
    }

    /// Waits until every batch handed over is written.
    fn finish(mut self) -> Result<(), StoreError> {
        self.batches = None;
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(written)) => written,
            Some(Err(_)) => Err(StoreError::Internal(
                "the thread writing pages failed".into(),
            )),
            None => Ok(()),
        }
    }
}

impl Drop for Background {
    /// A writer dropped without finishing (an error elsewhere) still waits for its thread,
    /// so no page is written after the caller has moved on.
    fn drop(&mut self) {
        self.batches = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
