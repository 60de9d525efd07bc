//! CSV as the exports write it: RFC 4180 records written straight into the export's buffer,
//! and what is done for spreadsheets (a byte-order mark; codes and dates kept as text;
//! formulas defused).

/// What a CSV export does for spreadsheets (`docs/exports.md`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CsvStyle {
    /// A UTF-8 byte-order mark first, so that a spreadsheet reads the file as UTF-8.
    pub bom: bool,
    /// Codes and dates a spreadsheet would turn into numbers or dates (`0986…`, 13-digit
    /// EANs, `2016-03`) written as text formulas, `="2016-03"`.
    pub spreadsheet: bool,
}

/// The UTF-8 byte-order mark.
pub(super) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A row of a CSV export: its documented, stable column set and its cells, in that order.
pub trait CsvRow {
    const COLUMNS: &'static [&'static str];
    fn write_cells(&self, line: &mut CsvLine<'_>);
}

/// One CSV record being written: cells go straight into the export's buffer.
pub struct CsvLine<'a> {
    pub(super) out: &'a mut Vec<u8>,
    pub(super) first: bool,
    pub(super) spreadsheet: bool,
}

impl CsvLine<'_> {
    pub(super) fn separator(&mut self) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
    }

    /// A text cell: quoted per RFC 4180 where needed, formula-like text neutralised; for a
    /// spreadsheet, a code or date it would misread is written as a text formula.
    pub fn text(&mut self, cell: &str) {
        if self.spreadsheet && misread_by_spreadsheets(cell) {
            self.separator();
            // `="…"`, quoted for CSV: the cell holds no `"` (it is digits and separators).
            self.out.extend_from_slice(b"\"=\"\"");
            self.out.extend_from_slice(cell.as_bytes());
            self.out.extend_from_slice(b"\"\"\"");
            return;
        }
        self.separator();
        let guard = formula_like(cell);
        if cell.contains([',', '"', '\r', '\n']) {
            self.out.push(b'"');
            if guard {
                self.out.push(b'\'');
            }
            for &b in cell.as_bytes() {
                if b == b'"' {
                    self.out.push(b'"');
                }
                self.out.push(b);
            }
            self.out.push(b'"');
        } else {
            if guard {
                self.out.push(b'\'');
            }
            self.out.extend_from_slice(cell.as_bytes());
        }
    }

    /// A number cell (never quoted, never neutralised).
    pub fn number(&mut self, n: impl std::fmt::Display) {
        use std::io::Write;
        self.separator();
        let _ = write!(self.out, "{n}");
    }

    /// A number cell that may be absent.
    pub fn maybe<N: std::fmt::Display>(&mut self, n: Option<N>) {
        match n {
            Some(n) => self.number(n),
            None => self.separator(),
        }
    }

    pub(super) fn end(self) {
        self.out.extend_from_slice(b"\r\n");
    }
}

/// Whether a spreadsheet opening the CSV would change the cell: digits with a leading zero
/// (dropped) or twelve and more (shown in exponent form, written back rounded), and dates or
/// what reads as one (`2016-03`, `2026-01-31`, `3/4`). Amounts and other numbers stay
/// numbers.
fn misread_by_spreadsheets(cell: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if digits(cell) {
        return (cell.len() > 1 && cell.starts_with('0')) || cell.len() >= 12;
    }
    // Two or three groups of up to four digits, without collecting them (once per cell).
    let mut groups = 0;
    for part in cell.split(['-', '/']) {
        if !(digits(part) && part.len() <= 4) {
            return false;
        }
        groups += 1;
    }
    (2..=3).contains(&groups)
}

/// Whether a spreadsheet would run the cell as a formula (`=`, `+`, `-`, `@`, tab or CR
/// first); plain numbers such as `-12.50` are numbers, not formulas.
pub fn formula_like(cell: &str) -> bool {
    cell.starts_with(['=', '+', '-', '@', '\t', '\r'])
        && !(cell.len() > 1
            && cell[1..]
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
            && cell.as_bytes()[1].is_ascii_digit())
}
