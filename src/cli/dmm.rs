//! `partscat dmm`: what `apiDMM` does, from the command line: through the running server's
//! admin socket as its job, or on the store directly when it is stopped.

use std::process::ExitCode;

use partscat::config::Settings;
use partscat::service::dmm::{self, DmmRequest, MediaSetup};

pub fn run(settings: Settings, request: DmmRequest) -> Result<ExitCode, String> {
    if let Some(client) = super::server_job::admin_client(settings.admin_socket_path().as_deref())?
    {
        let order = serde_json::json!({
            "brandId": request.brand_id,
            "publish": request.publish,
            "download360": request.download360,
        });
        let job = super::server_job::run(&client, "dmm", &order)?;
        let r = &job["dmm"];
        println!(
            "brand {}: {} media entries, {} files ({} bytes), {} missing; {} downloaded, {} not (job {} of the running server)",
            request.brand_id,
            r["entries"],
            r["files"],
            r["bytes"],
            r["missing"],
            r["downloaded"],
            r["notFetchedCount"],
            job["id"]
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
        return Ok(ExitCode::SUCCESS);
    }
    let setup = MediaSetup::configured(&settings.media, &request).map_err(|e| e.to_string())?;
    let store = super::open_store(&settings)?;
    let bar = super::progress::ImportBar::new();
    let outcome = dmm::build(&store, &setup, request, &bar);
    bar.finish();
    let r = outcome.map_err(|e| e.to_string())?;
    println!(
        "brand {}: {} media entries, {} files ({} bytes), {} missing; {} downloaded, {} not",
        request.brand_id, r.entries, r.files, r.bytes, r.missing, r.downloaded, r.not_fetched_count
    );
    for n in &r.not_fetched {
        println!("not fetched: {}: {}", n.uri, n.reason);
    }
    if let Some(to) = &r.published_to {
        println!("published to {to}");
    }
    Ok(ExitCode::SUCCESS)
}
