//! The rows of the texts in other languages: `texts.csv` (a named thing's text) and
//! `article_texts.csv` (an article's description).

use super::article_key;
use crate::catalogue::*;
use crate::import::csv_source::Row;

/// A two-letter language code (ISO 639-1 or TecDoc's own), lower case.
fn language(row: &Row<'_>) -> Result<String, String> {
    let written = row.required("language")?;
    let code = written.to_ascii_lowercase();
    if code.len() == 2 && code.bytes().all(|b| b.is_ascii_lowercase()) {
        Ok(code)
    } else {
        Err(format!(
            "column 'language': '{written}' is not a two-letter language code (de, fr)"
        ))
    }
}

pub(in crate::import) fn translation(row: &Row<'_>) -> Result<Translation, String> {
    let written = row.required("kind")?;
    let kind = TextKind::from_name(written).ok_or_else(|| {
        let names: Vec<&str> = TextKind::ALL.iter().map(|k| k.name()).collect();
        format!(
            "column 'kind': '{written}' is not one of {}",
            names.join(", ")
        )
    })?;
    let key = if kind.keyed_by_id() {
        row.positive("key")?.to_string()
    } else {
        row.required("key")?.to_owned()
    };
    Ok(Translation {
        kind,
        key,
        language: language(row)?,
        text: row.required("text")?.to_owned(),
    })
}

pub(in crate::import) fn article_text(row: &Row<'_>) -> Result<ArticleText, String> {
    let (article, _) = article_key(row, "brand_id", "reference")?;
    Ok(ArticleText {
        article,
        language: language(row)?,
        description: row.required("description")?.to_owned(),
    })
}
