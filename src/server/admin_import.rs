//! `POST /admin/import?dryRun=&mode=`: `partscat import` while the server runs. The body is a
//! tar of `<data set>.csv` files (the operator's files may be ones the service's account
//! cannot read, so they come as bytes), streamed to the store's scratch space as it arrives,
//! bounded by `limits.import_mb` and the transfer's minimum rate rather than the small bound
//! of other bodies; they are imported as one change, as a job (202 with it), as
//! `importArticles` does with a file of the inbox. `GET /admin/import` tells the sender the
//! bound before it sends.

use std::sync::Arc;

use poem::web::Data;
use poem::{Body, Request, Response, handler};

use super::AppState;
use super::admin_request::{job_started, json_answer, operator};
use super::problem::Problem;
use super::query::QueryPairs;
use crate::import::ImportMode;
use crate::service::upload;

/// What the query asks: a dry run or not (not, by default), and the mode (merge by default).
fn order(query: &QueryPairs) -> Result<(bool, ImportMode), Problem> {
    let (mut dry_run, mut mode) = (false, ImportMode::Merge);
    for (name, value) in query.iter() {
        match name {
            "dryRun" => {
                dry_run = match value {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(Problem::bad_parameter(
                            "dryRun",
                            format!("`{value}` is not `true` or `false`"),
                        ));
                    }
                }
            }
            "mode" => {
                mode = ImportMode::from_name(value).ok_or_else(|| {
                    Problem::bad_parameter(
                        "mode",
                        format!("`{value}` is not a mode; one of: {}", ImportMode::NAMES),
                    )
                })?
            }
            // The credentials of a call over HTTP, which the gate has read.
            "provider" | "api_key" => {}
            other => {
                return Err(Problem::bad_parameter(
                    "query",
                    format!("no parameter `{other}`; the parameters are dryRun and mode"),
                ));
            }
        }
    }
    Ok((dry_run, mode))
}

#[handler]
pub async fn start_import(
    req: &Request,
    state: Data<&Arc<AppState>>,
    body: Body,
) -> Result<Response, Problem> {
    let (dry_run, mode) = order(&QueryPairs::of(req))?;
    let started_by = operator(req)?.0;
    // Refused from the headers while another import runs: nothing of the body is read.
    let slot = state
        .jobs
        .reserve_upload(&started_by)
        .map_err(Problem::from)?;
    let size = req
        .headers()
        .get(poem::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    let store = state.store.clone();
    let mut tar = tokio_util::io::SyncIoBridge::new(body.into_async_read());
    let uploaded = tokio::task::spawn_blocking(move || {
        let unpacked = upload::unpack(&store, &mut tar, mode, size);
        if unpacked.is_err() {
            // The rest is read (within the body's bounds) so that the sender, still sending,
            // reads why instead of a broken pipe.
            let _ = std::io::copy(&mut tar, &mut std::io::sink());
        }
        unpacked
    })
    .await
    .map_err(|_| Problem::internal("the upload could not be received"))?
    .map_err(Problem::from)?;
    let (job, _) = state
        .jobs
        .start_upload(&state.store, slot, uploaded, dry_run, &started_by)
        .map_err(Problem::from)?;
    Ok(job_started(&state, &job))
}

/// How large the files of one import may be together, and whether an import runs now, for
/// the sender to check first.
#[handler]
pub async fn import_bound(req: &Request, state: Data<&Arc<AppState>>) -> Result<Response, Problem> {
    operator(req)?;
    let limits = state.settings.limits;
    Ok(json_answer(
        poem::http::StatusCode::OK,
        &serde_json::json!({
            "maxBytes": limits.import_bytes(),
            "setting": "limits.import_mb",
            "busy": state.jobs.catalogue_busy(),
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_names_a_dry_run_and_a_mode_or_leaves_them_to_their_defaults() {
        assert!(matches!(
            order(&QueryPairs::parse(Some(""))),
            Ok((false, ImportMode::Merge))
        ));
        assert!(matches!(
            order(&QueryPairs::parse(Some("dryRun=true&mode=replace"))),
            Ok((true, ImportMode::Replace))
        ));
        assert!(
            order(&QueryPairs::parse(Some(
                "provider=demo&api_key=k&dryRun=true"
            )))
            .is_ok()
        );
        for bad in ["dryRun=yes", "mode=purge", "dryrun=true"] {
            assert!(order(&QueryPairs::parse(Some(bad))).is_err(), "{bad}");
        }
    }
}
