//! `partscat sync`: what `syncTecdoc` does, from the command line. While the server runs, the
//! store is its own: the sync runs there as a job, started and followed over the admin socket;
//! when it is stopped, here, on the store directly. A progress bar either way.

use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;

use partscat::config::Settings;
use partscat::import::ImportType;
use partscat::service::sync::{self, SyncRequest, Upstream};

/// How often a running server's job is asked how far it is.
const POLL: Duration = Duration::from_millis(250);

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
    if let Some(path) = settings.admin_socket_path()
        && std::os::unix::net::UnixStream::connect(&path).is_ok()
    {
        let client = reqwest::blocking::Client::builder()
            .unix_socket(path.as_path())
            .timeout(Duration::from_secs(30))
            .build()
            .map_err(|e| format!("cannot reach the admin socket {}: {e}", path.display()))?;
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
    let mut job = call(client.post("http://partscat/admin/sync").json(&order))?;
    let id = job["id"].as_u64().ok_or("the server answered no job")?;
    let bar = ProgressBar::new_spinner().with_style(
        ProgressStyle::with_template("{spinner} {msg} {bytes}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    while job["state"] == "running" {
        bar.set_message(job["progress"]["phase"].as_str().unwrap_or("").to_owned());
        bar.set_position(job["progress"]["bytesRead"].as_u64().unwrap_or(0));
        bar.tick();
        std::thread::sleep(POLL);
        job = call(client.get(format!("http://partscat/admin/jobs/{id}")))?;
    }
    bar.finish_and_clear();
    if job["state"] != "succeeded" {
        return Err(job["error"]
            .as_str()
            .unwrap_or("the sync failed; the server's log says why")
            .to_owned());
    }
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

/// One call to the admin API; a problem+json answer becomes its `detail`.
fn call(request: reqwest::blocking::RequestBuilder) -> Result<Value, String> {
    let response = request
        .header("X-Partscat-Operator", super::admin::user_name())
        .send()
        .map_err(|e| format!("the admin API did not answer: {e}"))?;
    let ok = response.status().is_success();
    let body: Value = response
        .json()
        .map_err(|e| format!("the admin API's answer cannot be read: {e}"))?;
    if !ok {
        return Err(body["detail"]
            .as_str()
            .unwrap_or("the admin API refused")
            .to_owned());
    }
    Ok(body)
}
