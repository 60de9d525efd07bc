//! Reading an import CSV: optional UTF-8 BOM, `,` or `;` (sniffed from the header row),
//! quoted fields, a header naming the columns. Rows come with the file's own line numbers,
//! counted here from the bytes (the CSV reader's own count is one short after CRLF line ends).

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

use foldhash::HashMap;
use std::io::{BufRead, BufReader, Chain, Cursor, Read};
use std::rc::Rc;

use crate::catalogue::LIST_SEPARATOR;
use crate::limits::{FieldLimit, Limits};

/// A column of a data set's files: its header name, and whether every file must have it.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub required: bool,
}

pub const fn must(name: &'static str) -> Column {
    Column {
        name,
        required: true,
    }
}

pub const fn may(name: &'static str) -> Column {
    Column {
        name,
        required: false,
    }
}

/// The column every data set's file may add, as a change feed writes it: `upsert` (or
/// empty), the row is added or changed as in any import; `remove`, the row of its key is
/// retired.
pub const CHANGE: &str = "change";

/// The columns a data set takes, in the order partscat writes them.
pub struct ColumnSpec {
    pub columns: &'static [Column],
}

impl ColumnSpec {
    /// Every column's name, in order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> {
        self.columns.iter().map(|c| c.name)
    }

    /// The names of the columns every file must have.
    pub fn required(&self) -> impl Iterator<Item = &'static str> {
        self.columns.iter().filter(|c| c.required).map(|c| c.name)
    }

    /// The names of the columns a file may leave out.
    pub fn optional(&self) -> impl Iterator<Item = &'static str> {
        self.columns.iter().filter(|c| !c.required).map(|c| c.name)
    }
}

type Source = Chain<Cursor<Vec<u8>>, BufReader<Box<dyn Read>>>;

/// Each field's column and bound, by its place in a row.
type Bounds = Vec<(&'static str, FieldLimit)>;

pub struct CsvSource {
    reader: csv::Reader<CountingReader<Source>>,
    columns: HashMap<&'static str, usize>,
    bounds: Bounds,
    row_start: Rc<Cell<u64>>,
    pub bytes_total: u64,
    bytes_read: Rc<Cell<u64>>,
    lines: Rc<RefCell<Lines>>,
}

/// Counts what the CSV reader pulled, for progress bars, and where its line ends are; and
/// hands it no more than `row_bytes` (and a read-ahead) past the start of the row it reads,
/// so that one endless row or field cannot take the memory.
struct CountingReader<R> {
    inner: R,
    read: Rc<Cell<u64>>,
    lines: Rc<RefCell<Lines>>,
    row_start: Rc<Cell<u64>>,
    row_bytes: u64,
}

/// What the CSV reader may read ahead of a row's end.
const READ_AHEAD: u64 = 64 * 1024;

/// The message of a row over `limits.row_bytes`, found by the reader.
const ROW_TOO_LONG: &str = "row too long";

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.read.get() > self.row_start.get() + self.row_bytes + READ_AHEAD {
            return Err(std::io::Error::other(ROW_TOO_LONG));
        }
        let n = self.inner.read(buf)?;
        let start = self.read.get();
        self.lines.borrow_mut().saw(start, &buf[..n]);
        self.read.set(start + n as u64);
        Ok(n)
    }
}

/// The line ends read ahead of the rows handed out, so that a row's first byte gives its line:
/// 1 + the `\n`s before it (`\r\n` and `\n` files alike; a quoted cell's line ends count, as
/// an editor counts them). Holds at most one read-ahead buffer's line ends.
#[derive(Default)]
struct Lines {
    /// Line ends before every offset asked for so far.
    passed: u64,
    /// Offsets of the line ends read but not yet passed.
    ahead: VecDeque<u64>,
}

impl Lines {
    fn saw(&mut self, start: u64, bytes: &[u8]) {
        self.ahead
            .extend(memchr::memchr_iter(b'\n', bytes).map(|i| start + i as u64));
    }

    /// The line of the byte at `offset`; offsets asked for never decrease.
    fn line_at(&mut self, offset: u64) -> u64 {
        // `<=`: after a `\r\n` the CSV reader places a row's start at the `\n`.
        while self.ahead.front().is_some_and(|&end| end <= offset) {
            self.ahead.pop_front();
            self.passed += 1;
        }
        self.passed + 1
    }
}

/// One data row, with access to its fields by column name.
pub struct Row<'a> {
    pub line: u64,
    record: &'a csv::StringRecord,
    columns: &'a HashMap<&'static str, usize>,
}

impl<'a> Row<'a> {
    /// The trimmed field of a column; empty when the column is absent.
    pub fn get(&self, column: &str) -> &'a str {
        self.columns
            .get(column)
            .and_then(|&i| self.record.get(i))
            .map_or("", str::trim)
    }

    /// A field that must not be empty.
    pub fn required(&self, column: &str) -> Result<&'a str, String> {
        match self.get(column) {
            "" => Err(format!("column '{column}' is empty")),
            value => Ok(value),
        }
    }

    /// A positive integer field (1 and above).
    pub fn positive(&self, column: &str) -> Result<u32, String> {
        let text = self.required(column)?;
        match text.parse::<u32>() {
            Ok(n) if n >= 1 && text.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
            _ => Err(format!(
                "column '{column}': '{text}' is not a positive integer"
            )),
        }
    }

    /// A positive integer field that may be empty, with its default.
    pub fn positive_or(&self, column: &str, default: u32) -> Result<u32, String> {
        if self.get(column).is_empty() {
            Ok(default)
        } else {
            self.positive(column)
        }
    }

    /// A whole number field (0 and above) that may be empty, with its default.
    pub fn count_or<T: std::str::FromStr>(&self, column: &str, default: T) -> Result<T, String> {
        match self.get(column) {
            "" => Ok(default),
            text if text.bytes().all(|b| b.is_ascii_digit()) => text
                .parse()
                .map_err(|_| format!("column '{column}': '{text}' is too large")),
            text => Err(format!("column '{column}': '{text}' is not a whole number")),
        }
    }

    /// A field parsed by `parse`, whose message is prefixed with the column name.
    pub fn parsed<T>(
        &self,
        column: &str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<T, String> {
        parse(self.required(column)?).map_err(|e| format!("column '{column}': {e}"))
    }

    /// Like `parsed`, for a field that may be empty.
    pub fn parsed_opt<T>(
        &self,
        column: &str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Option<T>, String> {
        if self.get(column).is_empty() {
            Ok(None)
        } else {
            self.parsed(column, parse).map(Some)
        }
    }

    /// A list column's items (`LIST_SEPARATOR`-separated); empty items are skipped.
    pub fn list(&self, column: &str) -> Vec<&'a str> {
        self.get(column)
            .split(LIST_SEPARATOR)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect()
    }
}

/// Reads the header of `input` (`bytes_total` long, for progress) against `spec`.
/// The error says what is wrong with the file as a whole (as opposed to one row).
pub fn open(
    input: Box<dyn Read>,
    bytes_total: u64,
    spec: &ColumnSpec,
    limits: &Limits,
) -> Result<CsvSource, String> {
    let mut reader = BufReader::with_capacity(256 * 1024, input);
    let header = header_row(&mut reader, limits)?;
    let delimiter = sniff_delimiter(&header);
    let bytes_read = Rc::new(Cell::new(0));
    let lines = Rc::new(RefCell::new(Lines::default()));
    let row_start = Rc::new(Cell::new(0));
    let counting = CountingReader {
        inner: Cursor::new(header).chain(reader),
        read: bytes_read.clone(),
        lines: lines.clone(),
        row_start: row_start.clone(),
        row_bytes: limits.row_bytes,
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        // Fields are trimmed where they are read (`Row::get`): trimming the record would
        // copy every row.
        .trim(csv::Trim::Headers)
        .has_headers(true)
        .from_reader(counting);
    let headers = reader
        .headers()
        .map_err(|e| format!("header row cannot be read: {e}"))?
        .clone();
    let (columns, bounds) = columns_of(&headers, spec, limits)?;
    Ok(CsvSource {
        reader,
        columns,
        bounds,
        row_start,
        bytes_total,
        bytes_read,
        lines,
    })
}

/// The header row, within the row bound, without a byte-order mark; an empty file is an
/// error.
fn header_row(reader: &mut impl BufRead, limits: &Limits) -> Result<Vec<u8>, String> {
    let mut header = Vec::new();
    reader
        .take(limits.row_bytes + 1)
        .read_until(b'\n', &mut header)
        .map_err(|e| format!("cannot be read: {e}"))?;
    if header.len() as u64 > limits.row_bytes {
        return Err(format!(
            "its header row is over the limit of {} bytes (limits.row_bytes)",
            limits.row_bytes
        ));
    }
    if header.starts_with(b"\xEF\xBB\xBF") {
        header.drain(..3);
    }
    if header.iter().all(u8::is_ascii_whitespace) {
        return Err("is empty: a header row naming the columns is required".into());
    }
    Ok(header)
}

/// Where each column the header names is, and each one's bound; an unknown column, a column
/// named twice and a required one missing are errors.
fn columns_of(
    headers: &csv::StringRecord,
    spec: &ColumnSpec,
    limits: &Limits,
) -> Result<(HashMap<&'static str, usize>, Bounds), String> {
    let mut columns = HashMap::default();
    let mut bounds = Vec::new();
    for (i, name) in headers.iter().enumerate() {
        let lower = name.to_ascii_lowercase();
        let Some(known) = spec.names().chain([CHANGE]).find(|c| *c == lower) else {
            return Err(format!(
                "header names an unknown column '{name}'; the columns are {} (optional: {}, {CHANGE})",
                spec.required().collect::<Vec<_>>().join(", "),
                spec.optional().collect::<Vec<_>>().join(", ")
            ));
        };
        if columns.insert(known, i).is_some() {
            return Err(format!("header names column '{known}' twice"));
        }
        bounds.push((known, limits.of_column(known)));
    }
    let missing: Vec<&str> = spec
        .required()
        .filter(|c| !columns.contains_key(c))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "header lacks the required column(s) {}",
            missing.join(", ")
        ));
    }
    Ok((columns, bounds))
}

/// `;` where the header has more of them than `,` (outside quotes); `,` otherwise.
fn sniff_delimiter(header: &[u8]) -> u8 {
    let (mut commas, mut semicolons, mut quoted) = (0, 0, false);
    for &b in header {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => commas += 1,
            b';' if !quoted => semicolons += 1,
            _ => {}
        }
    }
    if semicolons > commas { b';' } else { b',' }
}

impl CsvSource {
    /// Calls `each` for every row; a row the CSV reader cannot read is passed as `Err`.
    pub fn for_each_row(
        &mut self,
        mut each: impl FnMut(Result<Row<'_>, (u64, String)>) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut record = csv::StringRecord::new();
        loop {
            let start = self.reader.position().byte();
            self.row_start.set(start);
            let line_of = |at: Option<&csv::Position>| {
                self.lines
                    .borrow_mut()
                    .line_at(at.map_or(start, |p| p.byte()))
            };
            match self.reader.read_record(&mut record) {
                Ok(false) => return Ok(()),
                Ok(true) => {
                    let line = line_of(record.position());
                    let too_long = record
                        .iter()
                        .zip(&self.bounds)
                        .find_map(|(value, (column, bound))| bound.exceeded(column, value.trim()));
                    match too_long {
                        Some(message) => each(Err((line, message)))?,
                        None => each(Ok(Row {
                            line,
                            record: &record,
                            columns: &self.columns,
                        }))?,
                    }
                }
                Err(e) => {
                    let line = line_of(e.position());
                    let message = match e.kind() {
                        csv::ErrorKind::UnequalLengths {
                            expected_len, len, ..
                        } => {
                            format!("has {len} fields where the header has {expected_len}")
                        }
                        csv::ErrorKind::Utf8 { .. } => {
                            "is not UTF-8 text; save the file as UTF-8".to_owned()
                        }
                        csv::ErrorKind::Io(io) if io.to_string() == ROW_TOO_LONG => {
                            return Err(format!(
                                "line {line}: a row over the limit of {} bytes (limits.row_bytes)",
                                self.reader.get_ref().row_bytes
                            ));
                        }
                        csv::ErrorKind::Io(io) => return Err(format!("cannot be read: {io}")),
                        _ => e.to_string(),
                    };
                    each(Err((line, message)))?;
                }
            }
        }
    }

    /// A shared handle on the count of bytes read so far, for progress while rows stream.
    pub fn bytes_read_counter(&self) -> Rc<Cell<u64>> {
        self.bytes_read.clone()
    }
}

#[cfg(test)]
mod tests;
