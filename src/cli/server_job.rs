//! Long work asked of a running server (the store is its own while it runs): the job is
//! started over the admin socket and followed to its end with a spinner.

use std::path::Path;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;

/// How often a running server's job is asked how far it is.
const POLL: Duration = Duration::from_millis(250);

/// A client of the admin socket, if a server answers on it.
pub fn admin_client(socket: Option<&Path>) -> Result<Option<reqwest::blocking::Client>, String> {
    let Some(path) = socket else { return Ok(None) };
    if std::os::unix::net::UnixStream::connect(path).is_err() {
        return Ok(None);
    }
    reqwest::blocking::Client::builder()
        .unix_socket(path)
        .timeout(Duration::from_secs(30))
        .build()
        .map(Some)
        .map_err(|e| format!("cannot reach the admin socket {}: {e}", path.display()))
}

/// Starts a job with `POST /admin/<route>` and `order`, and follows it to its end: the
/// finished job, or the job's error.
pub fn run(
    client: &reqwest::blocking::Client,
    route: &str,
    order: &Value,
) -> Result<Value, String> {
    follow(
        client,
        client
            .post(format!("http://partscat/admin/{route}"))
            .json(order),
    )
}

/// Starts a job with `start` and follows it to its end: the finished (or rejected) job, or
/// the job's error.
pub fn follow(
    client: &reqwest::blocking::Client,
    start: reqwest::blocking::RequestBuilder,
) -> Result<Value, String> {
    let mut job = call(start)?;
    let id = job["id"].as_u64().ok_or("the server answered no job")?;
    let bar = ProgressBar::new_spinner().with_style(
        ProgressStyle::with_template("{spinner} {msg} {bytes}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    while job["state"] == "running" {
        let progress = &job["progress"];
        let phase = progress["phase"].as_str().unwrap_or("");
        bar.set_message(
            match (
                progress["filesDone"].as_u64(),
                progress["filesTotal"].as_u64(),
            ) {
                (Some(done), Some(total)) if total > 0 => format!("{phase} ({done}/{total} files)"),
                _ => phase.to_owned(),
            },
        );
        bar.set_position(progress["bytesRead"].as_u64().unwrap_or(0));
        bar.tick();
        std::thread::sleep(POLL);
        job = call(client.get(format!("http://partscat/admin/jobs/{id}")))?;
    }
    bar.finish_and_clear();
    // A rejected import is an answer (its report lists the rows), not a failure.
    if job["state"] != "succeeded" && job["state"] != "rejected" {
        return Err(job["error"]
            .as_str()
            .unwrap_or("the job failed; the server's log says why")
            .to_owned());
    }
    Ok(job)
}

/// One call to the admin API; a problem+json answer becomes its `detail`.
pub fn call(request: reqwest::blocking::RequestBuilder) -> Result<Value, String> {
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
