//! How an export is written: JSON or CSV, and the CSV's style (a BOM, cells a spreadsheet
//! keeps as text), from the request or else the settings.

use poem::Request;
use poem_openapi::param::Query;

use crate::server::AppState;
use crate::server::streaming::{CsvStyle, Format};

/// JSON, or CSV in `style` where the request asks for it (`is_csv_export`).
pub fn format_of(is_csv: bool, style: CsvStyle) -> Format {
    if is_csv {
        Format::Csv(style)
    } else {
        Format::Json
    }
}

/// A request's CSV style: its `bom` and `spreadsheet`, else the settings'.
pub fn csv_style(
    state: &AppState,
    bom: &Query<Option<bool>>,
    spreadsheet: &Query<Option<bool>>,
) -> CsvStyle {
    CsvStyle {
        bom: bom.0.unwrap_or(state.settings.csv_bom),
        spreadsheet: spreadsheet.0.unwrap_or(state.settings.csv_spreadsheet),
    }
}

/// For routes without `is_csv_export`: CSV when the client prefers `text/csv`.
pub fn negotiated(req: &Request, style: CsvStyle) -> Format {
    let accept = req
        .headers()
        .get(poem::http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if accept
        .split(',')
        .next()
        .is_some_and(|first| first.trim().starts_with("text/csv"))
    {
        Format::Csv(style)
    } else {
        Format::Json
    }
}
