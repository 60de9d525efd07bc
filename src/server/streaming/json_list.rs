//! A JSON answer whose one long list is streamed, pulled by the client a chunk at a time
//! like an export: the object's head, the list's items a batch at a time, its tail.

use bytes::Bytes;
use poem::Response;
use poem::http::StatusCode;
use serde::Serialize;

use super::{CHUNK_BYTES, Chunks, Streamed, pulled_body};
use crate::service::ServiceError;
use crate::service::context::Context;

/// The items of a JSON list being written into the chunk being filled.
pub struct JsonList {
    buffer: Vec<u8>,
    items: u64,
}

impl JsonList {
    pub fn item(&mut self, item: &impl Serialize) -> Result<(), ServiceError> {
        if self.items > 0 {
            self.buffer.push(b',');
        }
        self.items += 1;
        serde_json::to_writer(&mut self.buffer, item).map_err(ServiceError::from)
    }
}

/// Writes the items of one batch of a streamed list.
pub type WriteBatch<T> =
    Box<dyn FnMut(&Context, T, &mut JsonList) -> Result<(), ServiceError> + Send>;

/// A JSON object whose one long list is streamed.
struct ListProducer<T> {
    name: String,
    context: Context,
    batches: Box<dyn Iterator<Item = T> + Send>,
    write_batch: WriteBatch<T>,
    list: JsonList,
    tail: &'static [u8],
    done: bool,
}

impl<T: Send + 'static> Chunks for ListProducer<T> {
    fn next_chunk(&mut self) -> Result<Option<Bytes>, ServiceError> {
        if self.done {
            return Ok(None);
        }
        while self.list.buffer.len() < CHUNK_BYTES {
            match self.batches.next() {
                Some(batch) => (self.write_batch)(&self.context, batch, &mut self.list)?,
                None => {
                    self.list.buffer.extend_from_slice(self.tail);
                    self.done = true;
                    break;
                }
            }
        }
        Ok(Some(Bytes::from(std::mem::take(&mut self.list.buffer))))
    }
    fn is_done(&self) -> bool {
        self.done
    }
    fn name(&self) -> &str {
        &self.name
    }
}

/// A JSON answer streamed with flat memory: `head` (the object up to its list's `[`), the
/// items each batch writes, then `tail` (from the list's `]` to the end of the object).
pub fn stream_json_list<T: Send + 'static>(
    name: &str,
    head: Vec<u8>,
    tail: &'static [u8],
    context: Context,
    batches: impl Iterator<Item = T> + Send + 'static,
    write_batch: impl FnMut(&Context, T, &mut JsonList) -> Result<(), ServiceError> + Send + 'static,
) -> Response {
    let producer = ListProducer {
        name: name.to_owned(),
        context,
        batches: Box::new(batches),
        write_batch: Box::new(write_batch),
        list: JsonList {
            buffer: head,
            items: 0,
        },
        tail,
        done: false,
    };
    let mut response = Response::builder()
        .status(StatusCode::OK)
        .content_type(crate::server::json_body::JSON)
        .body(pulled_body(producer));
    response.extensions_mut().insert(Streamed);
    response
}
