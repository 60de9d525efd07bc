//! `partscat backup` and `partscat restore`. A backup of a running server's store is written
//! by the server and fetched over its admin socket (only one process can open the store); of
//! a stopped one, here. Either way the file appears under its name only once it is whole.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use partscat::config::Settings;
use partscat::store;

pub fn backup(settings: Settings, out: &Path) -> Result<ExitCode, String> {
    let partial = partial_name(out);
    let written = write_backup(&settings, &partial);
    let summary = match written {
        Ok(summary) => summary,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    std::fs::rename(&partial, out).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("backup written to {}: {summary}", out.display());
    Ok(ExitCode::SUCCESS)
}

/// A client of the running server's admin socket, if a server answers there; without a
/// time-out (a backup or a compaction takes as long as the store is large).
pub(super) fn running_server(
    settings: &Settings,
) -> Result<Option<reqwest::blocking::Client>, String> {
    let Some(path) = settings.admin_socket_path() else {
        return Ok(None);
    };
    if std::os::unix::net::UnixStream::connect(&path).is_err() {
        return Ok(None);
    }
    reqwest::blocking::Client::builder()
        .unix_socket(path.as_path())
        .timeout(None)
        .build()
        .map(Some)
        .map_err(|e| format!("cannot reach the admin socket {}: {e}", path.display()))
}

/// `FILE.partial` beside `FILE`.
fn partial_name(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

fn write_backup(settings: &Settings, to: &Path) -> Result<String, String> {
    // A partial file left by a backup cut off is removed (a link, not what it points to);
    // the new one is created exclusively, readable by its owner alone: it holds key hashes.
    if std::fs::symlink_metadata(to).is_ok() {
        std::fs::remove_file(to).map_err(|e| format!("{}: {e}", to.display()))?;
    }
    let mut file = partscat::outside::files::create_private(to)
        .map_err(|e| format!("{}: {e}", to.display()))?;
    if let Some(client) = running_server(settings)? {
        let mut response = client
            .get("http://partscat/admin/backup")
            .header("X-Partscat-Operator", super::admin::user_name())
            .send()
            .map_err(|e| format!("the admin API did not answer: {e}"))?;
        if !response.status().is_success() {
            return Err(format!(
                "the server refused the backup ({})",
                response.status()
            ));
        }
        let bytes = response
            .copy_to(&mut file)
            .map_err(|e| format!("the backup broke off: {e}"))?;
        file.sync_all()
            .map_err(|e| format!("{}: {e}", to.display()))?;
        return Ok(format!("{bytes} bytes from the running server"));
    }
    if !partscat::store::exists_at(&settings.data_dir) {
        return Err(format!(
            "there is no store at {} (and no server answers on its admin socket)",
            settings.data_dir.display()
        ));
    }
    let store = super::open_store(settings)?;
    let summary = store.backup(&mut file).map_err(|e| e.to_string())?;
    file.flush()
        .and_then(|()| file.sync_all())
        .map_err(|e| format!("{}: {e}", to.display()))?;
    Ok(format!(
        "data version {}, {} entries in {} trees, {} bytes",
        summary.data_version, summary.entries, summary.trees, summary.bytes
    ))
}

pub fn restore(settings: Settings, file: &Path) -> Result<ExitCode, String> {
    let (summary, report) = store::restore(&settings.data_dir, file).map_err(|e| e.to_string())?;
    println!(
        "restored {} into {}: data version {}, {} entries; checksum {}",
        file.display(),
        settings.data_dir.display(),
        summary.data_version,
        summary.entries,
        report.checksum
    );
    Ok(if report.is_sound() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `partscat compact`: through the running server's admin socket when one answers (the
/// store compacts while it serves), else on the store itself, which is then checked.
pub fn compact(settings: Settings) -> Result<ExitCode, String> {
    let dir = &settings.data_dir;
    if let Some(client) = running_server(&settings)? {
        let answer = super::server_job::call(client.post("http://partscat/admin/compact"))?;
        let done: store::Compaction = serde_json::from_value(answer)
            .map_err(|e| format!("the admin API's answer cannot be read: {e}"))?;
        println!(
            "compacted {} in the running server: {:.1} MB before, {:.1} MB now",
            dir.display(),
            done.bytes_before as f64 / 1e6,
            done.bytes_after as f64 / 1e6,
        );
        return Ok(ExitCode::SUCCESS);
    }
    if !store::exists_at(dir) {
        return Err(format!(
            "there is no store at {} (and no server answers on its admin socket)",
            dir.display()
        ));
    }
    let done = store::compact(dir).map_err(|e| e.to_string())?;
    println!(
        "compacted {}: {:.1} MB before, {:.1} MB now; checksum {}",
        dir.display(),
        done.bytes_before as f64 / 1e6,
        done.bytes_after as f64 / 1e6,
        done.checksum
    );
    Ok(ExitCode::SUCCESS)
}
