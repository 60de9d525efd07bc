//! Streamed exports: a blocking scan writes rows into 64 KiB chunks that a bounded channel
//! hands to the response body, so memory stays flat however large the export, and a client
//! that goes away closes the channel, which stops the scan at its next chunk.

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
use tokio::sync::mpsc;

use crate::store::StoreError;

const CHUNK_BYTES: usize = 64 * 1024;
/// Chunks in flight between the scan and the socket: the export's whole memory budget.
const CHUNKS_IN_FLIGHT: usize = 4;

/// JSON (an array of objects) or CSV (RFC 4180 with a header row).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Csv,
}

/// A row of a CSV export: its documented, stable column set and its cells.
pub trait CsvRow {
    const COLUMNS: &'static [&'static str];
    fn cells(&self, out: &mut Vec<String>);
}

/// Why a scan stopped before its end.
#[derive(Debug)]
pub enum Stop {
    /// The client went away.
    Disconnected,
    Store(StoreError),
}

impl From<StoreError> for Stop {
    fn from(e: StoreError) -> Stop {
        Stop::Store(e)
    }
}

/// Writes rows of one type in one format into the channel.
pub struct RowWriter<R> {
    format: Format,
    buffer: Vec<u8>,
    cells: Vec<String>,
    rows: u64,
    tx: mpsc::Sender<io::Result<Bytes>>,
    _row: PhantomData<fn(&R)>,
}

impl<R: Serialize + CsvRow> RowWriter<R> {
    fn new(format: Format, tx: mpsc::Sender<io::Result<Bytes>>) -> Self {
        let mut w = RowWriter {
            format,
            buffer: Vec::with_capacity(CHUNK_BYTES + 4096),
            cells: Vec::new(),
            rows: 0,
            tx,
            _row: PhantomData,
        };
        match format {
            Format::Json => w.buffer.push(b'['),
            Format::Csv => {
                let header: Vec<String> = R::COLUMNS.iter().map(|c| c.to_string()).collect();
                write_csv_record(&mut w.buffer, &header);
            }
        }
        w
    }

    pub fn row(&mut self, row: &R) -> Result<(), Stop> {
        match self.format {
            Format::Json => {
                if self.rows > 0 {
                    self.buffer.push(b',');
                }
                self.buffer.push(b'\n');
                serde_json::to_writer(&mut self.buffer, row)
                    .map_err(|e| Stop::Store(StoreError::Engine(e.to_string())))?;
            }
            Format::Csv => {
                self.cells.clear();
                row.cells(&mut self.cells);
                for cell in &mut self.cells {
                    neutralise_formula(cell);
                }
                write_csv_record(&mut self.buffer, &self.cells);
            }
        }
        self.rows += 1;
        if self.buffer.len() >= CHUNK_BYTES {
            self.send()?;
        }
        Ok(())
    }

    fn send(&mut self) -> Result<(), Stop> {
        let chunk = std::mem::replace(&mut self.buffer, Vec::with_capacity(CHUNK_BYTES + 4096));
        self.tx
            .blocking_send(Ok(Bytes::from(chunk)))
            .map_err(|_| Stop::Disconnected)
    }

    fn finish(mut self) -> Result<u64, Stop> {
        if self.format == Format::Json {
            self.buffer
                .extend_from_slice(if self.rows > 0 { b"\n]\n" } else { b"]\n" });
        }
        self.send()?;
        Ok(self.rows)
    }
}

/// RFC 4180: quote a cell that holds a separator, a quote or a line break; CRLF line ends.
fn write_csv_record(out: &mut Vec<u8>, cells: &[String]) {
    for (i, cell) in cells.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        if cell.contains([',', '"', '\r', '\n']) {
            out.push(b'"');
            out.extend_from_slice(cell.replace('"', "\"\"").as_bytes());
            out.push(b'"');
        } else {
            out.extend_from_slice(cell.as_bytes());
        }
    }
    out.extend_from_slice(b"\r\n");
}

/// A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a
/// leading `'`; plain numbers such as `-12.50` stay numbers.
pub fn neutralise_formula(cell: &mut String) {
    let risky = cell.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let number = cell.parse::<f64>().is_ok() && !cell.contains(['e', 'E', 'n', 'N', 'i', 'I']);
    if risky && !number {
        cell.insert(0, '\'');
    }
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

/// Starts the scan on a blocking thread and answers with its stream.
pub fn stream<R, J>(
    format: Format,
    file_stem: &str,
    scan: impl FnOnce(&mut RowWriter<R>) -> Result<(), Stop> + Send + 'static,
) -> ExportResponse<J>
where
    R: Serialize + CsvRow + 'static,
{
    let (tx, mut rx) = mpsc::channel::<io::Result<Bytes>>(CHUNKS_IN_FLIGHT);
    let name = file_stem.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut writer = RowWriter::<R>::new(format, tx.clone());
        let started = std::time::Instant::now();
        let outcome = scan(&mut writer).and_then(|()| writer.finish());
        match outcome {
            Ok(rows) => {
                tracing::info!(export = %name, rows, elapsed_ms = started.elapsed().as_millis() as u64, "export sent")
            }
            Err(Stop::Disconnected) => {
                tracing::info!(export = %name, "export stopped: the client disconnected")
            }
            Err(Stop::Store(e)) => {
                tracing::error!(export = %name, error = %e, "export failed");
                // An error chunk makes the server abort the response, so the client sees a
                // broken transfer rather than a short file that looks complete.
                let _ = tx.blocking_send(Err(io::Error::other("export failed")));
            }
        }
    });
    let body = futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx));
    let (content_type, extension) = match format {
        Format::Json => ("application/json", "json"),
        Format::Csv => ("text/csv; charset=utf-8; header=present", "csv"),
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
        .body(Body::from_bytes_stream(body));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_neutralised_and_numbers_kept() {
        for (input, expected) in [
            ("=1+1", "'=1+1"),
            ("+49 30 1234", "'+49 30 1234"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("-12.50", "-12.50"),
            ("-", "'-"),
            ("\tx", "'\tx"),
            ("0 986 494 048", "0 986 494 048"),
            ("-inf", "'-inf"),
        ] {
            let mut cell = input.to_string();
            neutralise_formula(&mut cell);
            assert_eq!(cell, expected, "{input}");
        }
    }

    #[test]
    fn csv_cells_are_quoted_per_rfc_4180() {
        let mut out = Vec::new();
        write_csv_record(
            &mut out,
            &["a,b".into(), "say \"hi\"".into(), "plain".into()],
        );
        assert_eq!(out, b"\"a,b\",\"say \"\"hi\"\"\",plain\r\n");
    }
}
