//! `partscat sync`: what `syncTecdoc` does, from the command line. While the server runs, the
//! store is its own: the sync runs there as a job, started and followed over the admin socket;
//! when it is stopped, here, on the store directly. A progress bar either way.

use std::process::ExitCode;

use partscat::config::Settings;
use partscat::import::ImportType;
use partscat::service::sync::{self, SyncRequest, Upstream};

pub fn run(settings: Settings, data_set: &str, refresh: bool) -> Result<ExitCode, String> {
    let data_set = match data_set {
        "all" => None,
        name => Some(ImportType::from_name(name).ok_or_else(|| {
            format!(
                "--type '{name}' is not a data set; one of: {}, or all",
                ImportType::names()
            )
        })?),
    };
    let request = SyncRequest { data_set, refresh };
    if let Some(client) = super::server_job::admin_client(settings.admin_socket_path().as_deref())?
    {
        return through_server(&client, request);
    }
    let upstream = Upstream::configured(&settings.sync).map_err(|e| e.to_string())?;
    let store = super::open_store(&settings)?;
    eprintln!(
        "(no server is running: synchronising the store at {} directly)",
        settings.data_dir.display()
    );
    let bar = super::progress::ImportBar::new();
    let outcome = sync::sync(&store, &upstream, request, &bar);
    bar.finish();
    let report = outcome.map_err(|e| e.to_string())?;
    println!(
        "synchronised from {}: {} → {}",
        report.upstream,
        report.from.as_deref().unwrap_or("nothing"),
        report.reached
    );
    for import in &report.imports {
        println!("{import}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Starts the sync as the server's job and follows it to its end.
fn through_server(
    client: &reqwest::blocking::Client,
    request: SyncRequest,
) -> Result<ExitCode, String> {
    let order = serde_json::json!({
        "importType": request.data_set.map_or("all", |d| d.name()),
        "refresh": request.refresh,
    });
    let job = super::server_job::run(client, "sync", &order)?;
    let id = &job["id"];
    let report = &job["sync"];
    println!(
        "synchronised from {}: {} → {} (job {id} of the running server)",
        report["upstream"].as_str().unwrap_or("?"),
        report["from"].as_str().unwrap_or("nothing"),
        report["reached"].as_str().unwrap_or("?")
    );
    for file in report["files"].as_array().into_iter().flatten() {
        println!(
            "{:<16} {:>9} rows: {:>9} added, {:>9} changed, {:>9} unchanged, {:>9} removed",
            file["importType"].as_str().unwrap_or("?"),
            file["rows"],
            file["added"],
            file["changed"],
            file["unchanged"],
            file["removed"]
        );
    }
    Ok(ExitCode::SUCCESS)
}
