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

pub struct CsvSource {
    reader: csv::Reader<CountingReader<Source>>,
    columns: HashMap<&'static str, usize>,
    /// Each field's bound, by its place in a row.
    bounds: Vec<(&'static str, FieldLimit)>,
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
    let mut header = Vec::new();
    (&mut reader)
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
mod tests {
    use super::*;

    /// The line of each row, or of each row the reader refuses.
    fn lines_of(text: &str) -> Vec<u64> {
        let spec = ColumnSpec {
            columns: const { &[must("a"), must("b")] },
        };
        let bytes = text.as_bytes().to_vec();
        let total = bytes.len() as u64;
        let mut source = open(
            Box::new(Cursor::new(bytes)),
            total,
            &spec,
            &Limits::default(),
        )
        .unwrap();
        let mut lines = Vec::new();
        source
            .for_each_row(|row| {
                lines.push(match row {
                    Ok(row) => row.line,
                    Err((line, _)) => line,
                });
                Ok(())
            })
            .unwrap();
        lines
    }

    #[test]
    fn fields_are_read_without_the_spaces_around_them() {
        let spec = ColumnSpec {
            columns: const { &[must("a"), must("b")] },
        };
        let text = b" a , b \n  12 ,\t x y \n".to_vec();
        let total = text.len() as u64;
        let mut source = open(
            Box::new(Cursor::new(text)),
            total,
            &spec,
            &Limits::default(),
        )
        .unwrap();
        let mut fields = Vec::new();
        source
            .for_each_row(|row| {
                let row = row.map_err(|(_, e)| e)?;
                fields.push((row.get("a").to_owned(), row.get("b").to_owned()));
                Ok(())
            })
            .unwrap();
        assert_eq!(fields, [("12".to_owned(), "x y".to_owned())]);
    }

    #[test]
    fn rows_carry_the_files_own_line_numbers_whatever_the_line_ends() {
        let rows = ["1,2", "3,4", "5", "\"six\nlines\",7", "8,9"];
        for end in ["\n", "\r\n"] {
            let text = format!("a,b{end}{}{end}", rows.join(end));
            assert_eq!(lines_of(&text), [2, 3, 4, 5, 7], "{end:?}");
            let with_bom = format!("\u{feff}{text}");
            assert_eq!(lines_of(&with_bom), [2, 3, 4, 5, 7], "BOM, {end:?}");
        }
        // Without a final line end, and with a row that spans three lines.
        assert_eq!(lines_of("a,b\r\n\"x\r\ny\r\nz\",1\r\n2,3"), [2, 5]);
    }

    #[test]
    fn an_over_long_field_is_a_rejected_row_and_an_endless_row_stops_the_file() {
        let spec = ColumnSpec {
            columns: const { &[must("reference"), must("name")] },
        };
        let read = |text: String| {
            let total = text.len() as u64;
            let input = Box::new(Cursor::new(text.into_bytes()));
            let mut source = open(input, total, &spec, &Limits::default())?;
            let mut outcomes = Vec::new();
            source.for_each_row(|row| {
                outcomes.push(
                    row.map(|r| r.line)
                        .map_err(|(line, m)| format!("{line}: {m}")),
                );
                Ok(())
            })?;
            Ok::<_, String>(outcomes)
        };
        let name = "n".repeat(600);
        let outcomes = read(format!("reference,name\nA1,fine\nA2,{name}\n")).unwrap();
        assert_eq!(outcomes[0], Ok(2));
        let e = outcomes[1].clone().unwrap_err();
        assert!(e.starts_with("3: column 'name' is 600 bytes"), "{e}");
        assert!(e.contains("limits.text_bytes"), "{e}");

        let endless = format!("reference,name\nA1,fine\nA2,\"{}\"\n", "x".repeat(1 << 20));
        let e = read(endless).unwrap_err();
        assert!(e.starts_with("line 3: a row over the limit"), "{e}");
        let e = read(format!("reference,{}\n", "n".repeat(70_000))).unwrap_err();
        assert!(e.contains("header row is over the limit"), "{e}");
    }

    #[test]
    fn delimiter_follows_the_header() {
        assert_eq!(sniff_delimiter(b"brand_id;name\n"), b';');
        assert_eq!(sniff_delimiter(b"brand_id,name\n"), b',');
        assert_eq!(sniff_delimiter(b"\"a;b\",c\n"), b',');
        assert_eq!(sniff_delimiter(b"name\n"), b',');
    }
}
