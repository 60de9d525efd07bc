//! The fields a Pegasus request gives that its type does not define. TecDoc ignores a field
//! its schema does not define, and so does partscat, saying so: the answer's
//! `Partscat-Ignored-Fields` header names them, the log names each once per provider, and
//! `partscat_ignored_fields` counts them by operation. A provider set `strict` is refused
//! them instead, naming the first. A field TecDoc's schema does define but partscat does not
//! answer is refused for everyone: ignoring it would answer another question than the one
//! asked.

use std::collections::HashSet;
use std::sync::Mutex;

use super::call::{Failure, parse_failure};
use super::registry::Operation;
use super::tecdoc_form;
use crate::accounts::ProviderRecord;

/// The answer header naming the fields ignored, comma-separated, each by its path.
pub const HEADER: &str = "partscat-ignored-fields";

/// How many (provider, operation, field) the log remembers having named; past it a new one
/// is still ignored and counted, not logged, so that a client inventing names cannot grow it.
const REMEMBERED: usize = 10_000;

/// The fields already named in the log, per provider and operation.
#[derive(Default)]
pub struct Logged(Mutex<HashSet<String>>);

/// Fields of TecDoc's operations that its DLB schema does not hold (the JSON API's own) that
/// partscat does not answer.
const BEYOND_THE_SCHEMA: &[(&str, &[&str])] = &[("getLinkageTargets", &["sort", "description"])];

/// Refuses a request giving a field TecDoc defines for the operation that partscat does not
/// answer; the others may be ignored.
pub fn refuse_unanswered(op: &Operation, unknown: &[String]) -> Result<(), Failure> {
    let form = tecdoc_form::form();
    let beyond = BEYOND_THE_SCHEMA
        .iter()
        .find(|(name, _)| *name == op.name)
        .map_or(&[][..], |(_, fields)| fields);
    let defined = |f: &String| form.defines(op.name, f) || beyond.contains(&f.as_str());
    match unknown.iter().find(|f| defined(f)) {
        Some(field) => Err(parse_failure(format!(
            "Field '{field}' of TecDoc's {} is not one partscat answers; leave it out",
            op.name
        ))),
        None => Ok(()),
    }
}

/// Whether the caller's provider takes the fields ignored (then they are logged once and
/// counted), or is strict and refused them.
pub fn admit(
    logged: &Logged,
    count: impl Fn(usize),
    op: &Operation,
    unknown: &[String],
    provider: &ProviderRecord,
) -> Result<(), Failure> {
    let Some(first) = unknown.first() else {
        return Ok(());
    };
    if provider.strict {
        return Err(parse_failure(format!(
            "Field '{first}' is not part of {} (refused: provider '{}' is strict)",
            op.request_type, provider.id
        )));
    }
    count(unknown.len());
    let mut seen = logged.0.lock().unwrap_or_else(|e| e.into_inner());
    for field in unknown {
        let key = format!("{}\u{0}{}\u{0}{field}", provider.id, op.name);
        if seen.len() < REMEMBERED && seen.insert(key) {
            tracing::info!(
                provider = provider.id,
                operation = op.name,
                ?field,
                "ignored a field TecDoc does not define (named once per provider and field)"
            );
        }
    }
    Ok(())
}

/// The header's value: the fields by their paths, each character a header may not carry
/// written `?`.
pub fn header_value(unknown: &[String]) -> String {
    unknown
        .join(", ")
        .chars()
        .map(|c| {
            if c == ' ' || c.is_ascii_graphic() {
                c
            } else {
                '?'
            }
        })
        .collect()
}
