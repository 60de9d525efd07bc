//! `partscat dmm`: what `apiDMM` does, from the command line: through the running server's
//! admin socket as its job, or on the store directly when it is stopped.

use std::process::ExitCode;

use partscat::config::Settings;
use partscat::service::dmm::{self, DmmRequest, MediaSetup};
use serde_json::Value;

pub fn run(settings: Settings, request: DmmRequest) -> Result<ExitCode, String> {
    if let Some(client) = super::server_job::admin_client(settings.admin_socket_path().as_deref())?
    {
        let order = serde_json::json!({
            "brandId": request.brand_id,
            "publish": request.publish,
            "download360": request.download360,
        });
        let job = super::server_job::run(&client, "dmm", &order)?;
        print_report(request.brand_id, &job["dmm"]);
        println!("(job {} of the running server)", job["id"]);
        return Ok(ExitCode::SUCCESS);
    }
    let setup = MediaSetup::configured(&settings.media, settings.limits, &request)
        .map_err(|e| e.to_string())?;
    let store = super::open_store(&settings)?;
    let bar = super::progress::ImportBar::new();
    let outcome = dmm::build(&store, &setup, request, &bar);
    bar.finish();
    let report =
        serde_json::to_value(outcome.map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    print_report(request.brand_id, &report);
    Ok(ExitCode::SUCCESS)
}

/// A DMM report (as the job carries it) for a person.
fn print_report(brand_id: u32, r: &Value) {
    println!(
        "brand {brand_id}: {} media entries, {} files ({} bytes), {} missing; {} downloaded, {} not",
        r["entries"], r["files"], r["bytes"], r["missing"], r["downloaded"], r["notFetchedCount"],
    );
    for n in r["notFetched"].as_array().into_iter().flatten() {
        println!(
            "not fetched: {}: {}",
            n["uri"].as_str().unwrap_or("?"),
            n["reason"].as_str().unwrap_or("?")
        );
    }
    if let Some(to) = r["publishedTo"].as_str() {
        println!("published to {to}");
    }
}
