//! What an import did or would do, file by file.

use std::fmt;

use serde::Serialize;

use super::{ImportMode, ImportType};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RowError {
    /// Line of the file where the row starts (the header is line 1).
    pub line: u64,
    pub message: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    #[serde(serialize_with = "type_name")]
    pub import_type: ImportType,
    pub file: String,
    pub rows: u64,
    pub added: u64,
    pub changed: u64,
    pub unchanged: u64,
    /// Rows of its data set a replace retires; always 0 when merging.
    pub removed: u64,
    pub mode: ImportMode,
    pub rejected: u64,
    /// The first rejected rows.
    pub errors: Vec<RowError>,
    /// Texts in languages the catalogue does not serve, left out, by language.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub left_out: std::collections::BTreeMap<String, u64>,
}

fn type_name<S: serde::Serializer>(t: &ImportType, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(t.name())
}

impl FileReport {
    pub(super) fn new(import_type: ImportType, file: &str, mode: ImportMode) -> FileReport {
        FileReport {
            import_type,
            file: file.into(),
            rows: 0,
            added: 0,
            changed: 0,
            unchanged: 0,
            removed: 0,
            mode,
            rejected: 0,
            errors: Vec::new(),
            left_out: Default::default(),
        }
    }
}

impl FileReport {
    /// The texts left out, for a person: `left out: 1,204 texts in hu, 87 in pl (not in
    /// catalogue.languages)`.
    pub fn left_out_line(&self) -> String {
        let counts: Vec<String> = self
            .left_out
            .iter()
            .map(|(language, rows)| format!("{rows} in {language}"))
            .collect();
        format!(
            "left out: texts {} (languages not in catalogue.languages)",
            counts.join(", ")
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// The change is the catalogue now, durably.
    Committed { data_version: u64 },
    /// Every row matched the catalogue already; nothing was written.
    NothingChanged,
    /// Validated only; nothing was written.
    DryRun,
    /// At least one row is invalid; nothing was written.
    Rejected,
}

#[derive(Debug, Clone, Serialize)]
pub struct ImportReport {
    pub files: Vec<FileReport>,
    #[serde(flatten)]
    pub verdict: Verdict,
}

impl ImportReport {
    pub fn is_rejected(&self) -> bool {
        self.verdict == Verdict::Rejected
    }
}

impl ImportReport {
    /// The last line of the report: what happened to the catalogue.
    pub fn verdict_line(&self) -> String {
        match self.verdict {
            Verdict::Committed { data_version } => {
                format!("imported: the catalogue is now at data version {data_version}")
            }
            Verdict::NothingChanged => {
                "no changes: the catalogue already holds every row; nothing was written".into()
            }
            Verdict::DryRun => "dry run: nothing was written".into(),
            Verdict::Rejected => {
                "rejected: the files hold invalid rows; nothing was written".into()
            }
        }
    }
}

impl fmt::Display for ImportReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.files {
            // A merge retires rows only where a row says `remove`.
            let removed = if r.mode != ImportMode::Merge || r.removed > 0 {
                format!(", {:>9} removed", r.removed)
            } else {
                String::new()
            };
            writeln!(
                f,
                "{:<16} {:>9} rows: {:>9} added, {:>9} changed, {:>9} unchanged{removed}, {:>6} rejected  ({})",
                r.import_type.name(),
                r.rows,
                r.added,
                r.changed,
                r.unchanged,
                r.rejected,
                r.file
            )?;
            for e in &r.errors {
                writeln!(f, "  line {}: {}", e.line, e.message)?;
            }
            if r.rejected > r.errors.len() as u64 {
                writeln!(
                    f,
                    "  … and {} more rejected rows",
                    r.rejected - r.errors.len() as u64
                )?;
            }
            if !r.left_out.is_empty() {
                writeln!(f, "  {}", r.left_out_line())?;
            }
        }
        write!(f, "{}", self.verdict_line())
    }
}
