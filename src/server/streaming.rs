//! Streamed exports, pulled by the client: each time the response body wants its next
//! chunk, the export's items are read on the blocking pool until about 64 KiB of rows are
//! written, and the thread is given back. A slow reader holds one chunk and the scan's
//! position, not a thread; memory stays flat however large the export; a client that goes
//! away drops the body, and with it the scan.

use std::io;
use std::marker::PhantomData;

use bytes::Bytes;
use poem::http::{HeaderValue, StatusCode, header};
use poem::{Body, IntoResponse, Response};
use poem_openapi::ApiResponse;
use poem_openapi::registry::{
    MetaHeader, MetaMediaType, MetaResponse, MetaResponses, MetaSchema, MetaSchemaRef, Registry,
};
use poem_openapi::types::Type;
use serde::Serialize;

use crate::limits::in_flight;
use crate::service::ServiceError;
use crate::service::context::Context;

mod csv;
mod json_list;

use csv::BOM;
pub use csv::{CsvLine, CsvRow, CsvStyle};
pub use json_list::stream_json_list;

/// Rows are written until a chunk holds this much; then the chunk goes out.
const CHUNK_BYTES: usize = 64 * 1024;

/// What a streamed answer holds while it is sent: the chunk being written (which may pass
/// `CHUNK_BYTES` by one item's rows) and the one on its way out.
const HELD_BYTES: i64 = 3 * CHUNK_BYTES as i64;

/// JSON (an array of objects) or CSV (RFC 4180 with a header row).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Csv(CsvStyle),
}

/// Writes rows of one type in one format into the chunk being filled.
pub struct RowWriter<R> {
    format: Format,
    buffer: Vec<u8>,
    rows: u64,
    _row: PhantomData<fn(&R)>,
}

impl<R: Serialize + CsvRow> RowWriter<R> {
    fn new(format: Format) -> Self {
        let mut w = RowWriter {
            format,
            buffer: Vec::new(),
            rows: 0,
            _row: PhantomData,
        };
        match format {
            Format::Json => w.buffer.push(b'['),
            Format::Csv(style) => {
                if style.bom {
                    w.buffer.extend_from_slice(BOM);
                }
                let mut line = w.csv_line();
                for column in R::COLUMNS {
                    line.text(column);
                }
                line.end();
            }
        }
        w
    }

    pub fn row(&mut self, row: &R) -> Result<(), ServiceError> {
        match self.format {
            Format::Json => {
                if self.rows > 0 {
                    self.buffer.push(b',');
                }
                self.buffer.push(b'\n');
                serde_json::to_writer(&mut self.buffer, row).map_err(ServiceError::from)?;
            }
            Format::Csv(_) => {
                let mut line = self.csv_line();
                row.write_cells(&mut line);
                line.end();
            }
        }
        self.rows += 1;
        Ok(())
    }

    fn csv_line(&mut self) -> CsvLine<'_> {
        CsvLine {
            spreadsheet: matches!(self.format, Format::Csv(style) if style.spreadsheet),
            out: &mut self.buffer,
            first: true,
        }
    }

    fn full(&self) -> bool {
        self.buffer.len() >= CHUNK_BYTES
    }

    fn finish(&mut self) {
        if self.format == Format::Json {
            self.buffer
                .extend_from_slice(if self.rows > 0 { b"\n]\n" } else { b"]\n" });
        }
    }

    fn take_chunk(&mut self) -> Bytes {
        Bytes::from(std::mem::take(&mut self.buffer))
    }
}

/// Writes the rows of one item of an export (an article, a competitor number).
pub type WriteItem<T, R> =
    Box<dyn FnMut(&Context, T, &mut RowWriter<R>) -> Result<(), ServiceError> + Send>;

/// An export under way: the items still to read, and the rows of the next chunk.
struct Producer<T, R> {
    name: String,
    context: Context,
    items: Box<dyn Iterator<Item = Result<T, ServiceError>> + Send>,
    write_item: WriteItem<T, R>,
    writer: RowWriter<R>,
    started: std::time::Instant,
    done: bool,
}

impl<T, R: Serialize + CsvRow> Producer<T, R> {
    /// The next chunk, whole items at a time; `None` after the last.
    fn next_chunk(&mut self) -> Result<Option<Bytes>, ServiceError> {
        if self.done {
            return Ok(None);
        }
        while !self.writer.full() {
            match self.items.next() {
                Some(item) => (self.write_item)(&self.context, item?, &mut self.writer)?,
                None => {
                    self.writer.finish();
                    self.done = true;
                    tracing::info!(
                        export = %self.name,
                        rows = self.writer.rows,
                        elapsed_ms = self.started.elapsed().as_millis() as u64,
                        "export sent"
                    );
                    break;
                }
            }
        }
        Ok(Some(self.writer.take_chunk()))
    }
}

impl<T, R> Drop for Producer<T, R> {
    fn drop(&mut self) {
        if !self.done {
            tracing::info!(export = %self.name, "export stopped: the client disconnected");
        }
    }
}

/// A producer of a streamed body's chunks, run on the blocking pool a chunk at a time.
trait Chunks: Send + 'static {
    /// The next chunk; `None` after the last.
    fn next_chunk(&mut self) -> Result<Option<Bytes>, ServiceError>;
    fn is_done(&self) -> bool;
    fn name(&self) -> &str;
}

impl<T: Send + 'static, R: Serialize + CsvRow + 'static> Chunks for Producer<T, R> {
    fn next_chunk(&mut self) -> Result<Option<Bytes>, ServiceError> {
        Producer::next_chunk(self)
    }
    fn is_done(&self) -> bool {
        self.done
    }
    fn name(&self) -> &str {
        &self.name
    }
}

/// A body that asks `producer` for a chunk each time the client wants more. Among the
/// answers in flight it counts what it holds, a chunk being written and one being sent,
/// whatever the export's size.
fn pulled_body(producer: impl Chunks) -> Body {
    let held = in_flight::current();
    if let Some(held) = &held {
        held.add(HELD_BYTES);
    }
    let chunks = futures_util::stream::unfold(Some((producer, held)), |state| async move {
        let (mut producer, held) = state?;
        let (producer, chunk) = tokio::task::spawn_blocking(move || {
            let chunk = producer.next_chunk();
            (producer, chunk)
        })
        .await
        .ok()?;
        match chunk {
            // After the last chunk the scan's state goes at once, not when the client has
            // read everything.
            Ok(Some(bytes)) if producer.is_done() => Some((Ok(bytes), None)),
            Ok(Some(bytes)) => Some((Ok(bytes), Some((producer, held)))),
            Ok(None) => None,
            Err(e) => {
                tracing::error!(answer = %producer.name(), error = %e, "streamed answer failed");
                // An error chunk makes the server abort the response, so the client sees a
                // broken transfer rather than a short answer that looks complete.
                Some((Err(io::Error::other("streamed answer failed")), None))
            }
        }
    });
    Body::from_bytes_stream(chunks)
}

/// A streamed export answer: `application/json` (an array of `J`) or `text/csv`, with a
/// file name in `Content-Disposition`.
pub struct ExportResponse<J> {
    response: Response,
    _json: PhantomData<fn() -> J>,
}

/// Marks a response whose body is streamed, so compression need not measure it first.
#[derive(Clone, Copy)]
pub struct Streamed;

/// Answers with the export's stream: `items` of `catalogue`, each written by `write_item`,
/// read a chunk at a time as the client takes them.
pub fn stream<T, R, J, E>(
    format: Format,
    file_stem: &str,
    context: Context,
    items: impl Iterator<Item = Result<T, E>> + Send + 'static,
    write_item: impl FnMut(&Context, T, &mut RowWriter<R>) -> Result<(), ServiceError> + Send + 'static,
) -> ExportResponse<J>
where
    T: Send + 'static,
    R: Serialize + CsvRow + 'static,
    E: Into<ServiceError>,
{
    let producer = Producer {
        name: file_stem.to_owned(),
        context,
        items: Box::new(items.map(|item| item.map_err(Into::into))),
        write_item: Box::new(write_item),
        writer: RowWriter::<R>::new(format),
        started: std::time::Instant::now(),
        done: false,
    };
    let body = pulled_body(producer);
    let (content_type, extension) = match format {
        Format::Json => ("application/json", "json"),
        Format::Csv(_) => ("text/csv; charset=utf-8; header=present", "csv"),
    };
    let disposition = format!("attachment; filename=\"{file_stem}.{extension}\"");
    let mut response = Response::builder()
        .status(StatusCode::OK)
        .content_type(content_type)
        .header(
            header::CONTENT_DISPOSITION,
            HeaderValue::from_str(&disposition)
                .unwrap_or_else(|_| HeaderValue::from_static("attachment")),
        )
        .body(body);
    response.extensions_mut().insert(Streamed);
    ExportResponse {
        response,
        _json: PhantomData,
    }
}

impl<J> IntoResponse for ExportResponse<J>
where
    J: Send,
{
    fn into_response(self) -> Response {
        self.response
    }
}

impl<J: Type> ApiResponse for ExportResponse<J> {
    fn meta() -> MetaResponses {
        MetaResponses {
            responses: vec![MetaResponse {
                description: "The export, streamed: a JSON array, or CSV with a header row.",
                status: Some(200),
                status_range: None,
                content: vec![
                    MetaMediaType {
                        content_type: "application/json",
                        schema: MetaSchemaRef::Inline(Box::new(MetaSchema {
                            items: Some(Box::new(J::schema_ref())),
                            ..MetaSchema::new("array")
                        })),
                    },
                    MetaMediaType {
                        content_type: "text/csv",
                        schema: MetaSchemaRef::Inline(Box::new(MetaSchema::new("string"))),
                    },
                ],
                headers: vec![MetaHeader {
                    name: "Content-Disposition".into(),
                    description: Some("`attachment` with the export's file name.".into()),
                    required: true,
                    deprecated: false,
                    schema: MetaSchemaRef::Inline(Box::new(MetaSchema::new("string"))),
                }],
            }],
        }
    }

    fn register(registry: &mut Registry) {
        J::register(registry);
    }
}

/// A body that `write` writes on the blocking pool, handed to the client a chunk at a time as
/// it reads (a slow reader holds the writer back; one that goes away makes the next write
/// fail). An error ends the body broken, so that a client cannot take a short body for a
/// whole one.
pub fn written_body(
    write: impl FnOnce(&mut dyn io::Write) -> Result<(), String> + Send + 'static,
) -> Body {
    let (tx, rx) = tokio::sync::mpsc::channel::<io::Result<Bytes>>(4);
    tokio::task::spawn_blocking(move || {
        let mut out = ChannelWriter {
            tx,
            buffer: Vec::with_capacity(CHUNK_BYTES),
        };
        let written =
            write(&mut out).and_then(|()| io::Write::flush(&mut out).map_err(|e| e.to_string()));
        if let Err(e) = written {
            tracing::warn!(error = %e, "a streamed answer broke off");
            let _ = out.tx.blocking_send(Err(io::Error::other(e)));
        }
    });
    Body::from_bytes_stream(futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    }))
}

/// Hands what is written to a response body a chunk at a time.
struct ChannelWriter {
    tx: tokio::sync::mpsc::Sender<io::Result<Bytes>>,
    buffer: Vec<u8>,
}

impl ChannelWriter {
    fn send(&mut self) -> io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::replace(
            &mut self.buffer,
            Vec::with_capacity(CHUNK_BYTES),
        ));
        self.tx
            .blocking_send(Ok(chunk))
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the client went away"))
    }
}

impl io::Write for ChannelWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= CHUNK_BYTES {
            self.send()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.send()
    }
}

#[cfg(test)]
mod tests;
