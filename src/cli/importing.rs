//! `partscat import`: into the stopped store directly, or, while a server runs (the store is
//! its own), through the server's admin socket: the files are sent as a tar, imported as the
//! server's job, and followed to their report.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use partscat::config::Settings;
use partscat::import::{self, ImportFile, ImportMode, ImportType, Source};
use serde_json::Value;

pub(super) fn import_files(
    settings: Settings,
    import_type: Option<String>,
    mode: &str,
    dry_run: bool,
    json: bool,
    path: PathBuf,
) -> Result<ExitCode, String> {
    if !path.exists() {
        return Err(format!("{}: no such file or directory", path.display()));
    }
    let files = if path.is_dir() {
        if import_type.is_some() {
            return Err(format!(
                "{} is a directory: its files name their data sets, so leave out --type",
                path.display()
            ));
        }
        import::files_in_directory(&path).map_err(|e| e.to_string())?
    } else {
        let name = import_type.ok_or_else(|| {
            format!(
                "--type is needed for a file; one of: {}",
                ImportType::names()
            )
        })?;
        let import_type = ImportType::from_name(&name).ok_or_else(|| {
            format!(
                "--type '{name}' is not a data set; one of: {}",
                ImportType::names()
            )
        })?;
        vec![ImportFile {
            import_type,
            source: Source::Path(path),
            mode: ImportMode::Merge,
        }]
    };
    let mode = ImportMode::from_name(mode).ok_or_else(|| {
        format!(
            "--mode '{mode}' is not a mode; one of: {}",
            ImportMode::NAMES
        )
    })?;
    let files: Vec<ImportFile> = files
        .into_iter()
        .map(|f| ImportFile { mode, ..f })
        .collect();
    if let Some(client) = super::backup::running_server(&settings)? {
        return through_server(&client, &files, dry_run, json);
    }
    let store = super::open_store(&settings)?;
    let bar = super::progress::ImportBar::new();
    let report = import::import(&store, &files, dry_run, &bar).map_err(|e| e.to_string())?;
    bar.finish();
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?
        );
    } else {
        println!("{report}");
    }
    Ok(if report.is_rejected() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The length of the tar `through_server` writes of files of `lengths`: a header block
/// and the content padded to whole blocks for each, and the two zero blocks that end it.
fn tar_length(lengths: impl Iterator<Item = u64>) -> u64 {
    lengths
        .map(|len| 512 + len.div_ceil(512) * 512)
        .sum::<u64>()
        + 1024
}

/// Sends `files` to the running server as a tar, streamed as it is read, and follows the
/// import job it starts. The server's bound (`limits.import_mb`) is asked first, so that
/// files over it are refused before a byte is sent, with the reason.
fn through_server(
    client: &reqwest::blocking::Client,
    files: &[ImportFile],
    dry_run: bool,
    json: bool,
) -> Result<ExitCode, String> {
    let total: u64 = files.iter().map(|f| f.source.bytes()).sum();
    let length = tar_length(files.iter().map(|f| f.source.bytes()));
    let bound = super::server_job::call(client.get("http://partscat/admin/import"))?;
    if let Some(busy) = bound["busy"].as_str() {
        return Err(busy.to_owned());
    }
    if let Some(max) = bound["maxBytes"].as_u64()
        && length > max
    {
        return Err(format!(
            "the files are {} MiB together, over the running server's limit of {} MiB ({}): raise it in the server's settings and restart it, or import the files in parts",
            length.div_ceil(1 << 20),
            max >> 20,
            bound["setting"].as_str().unwrap_or("limits.import_mb")
        ));
    }
    let mode = files.first().map_or(ImportMode::Merge, |f| f.mode);
    let (tar_out, tar_in) =
        std::io::pipe().map_err(|e| format!("cannot prepare the upload: {e}"))?;
    let sending = files.to_vec();
    // The tar is written as the request reads it: no copy of the files on disk.
    let writing = std::thread::spawn(move || -> Result<(), String> {
        let mut tar = tar::Builder::new(tar_in);
        for file in sending {
            let (reader, len) = file
                .source
                .open()
                .map_err(|e| format!("{}: {e}", file.source.name()))?;
            let mut header = tar::Header::new_gnu();
            header.set_size(len);
            header.set_mode(0o600);
            header.set_entry_type(tar::EntryType::Regular);
            let name = format!("{}.csv", file.import_type.name());
            tar.append_data(&mut header, &name, reader.take(len))
                .map_err(|e| format!("{}: {e}", file.source.name()))?;
        }
        tar.into_inner().map(drop).map_err(|e| e.to_string())
    });
    let bar = ProgressBar::new(total).with_style(
        ProgressStyle::with_template(
            "sending to the running server {bar:30} {bytes}/{total_bytes} ({bytes_per_sec})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let sent = Sending {
        inner: tar_out,
        bar: bar.clone(),
    };
    // The server holds the sender to a minimum rate; this client waits at least as long
    // as 1 MiB/s takes, whatever the client's time-out for short calls.
    let patience = Duration::from_secs(60 + (length >> 20));
    let start = client
        .post(format!(
            "http://partscat/admin/import?dryRun={dry_run}&mode={}",
            mode.name()
        ))
        .timeout(patience)
        .header("Content-Type", "application/x-tar")
        .body(reqwest::blocking::Body::sized(sent, length));
    let job = super::server_job::follow(client, start);
    bar.finish_and_clear();
    let written = writing
        .join()
        .unwrap_or_else(|_| Err("the files could not be read".into()));
    // The server's answer first: where it refused, its reason is what the operator needs.
    let job = match (job, written) {
        (Ok(job), Ok(())) => job,
        (Err(refused), _) => return Err(refused),
        (Ok(_), Err(e)) => return Err(format!("the files could not be sent whole: {e}")),
    };
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&job).map_err(|e| e.to_string())?
        );
    } else {
        print_report(&job);
    }
    Ok(match job["state"].as_str() {
        Some("rejected") => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

/// The import job's report, as the direct import prints its own.
fn print_report(job: &Value) {
    let files = match job["files"].as_array() {
        Some(files) => files.iter().collect(),
        None => vec![&job["report"]],
    };
    for file in &files {
        println!(
            "{:<16} {:>9} rows: {:>9} added, {:>9} changed, {:>9} unchanged, {:>6} rejected",
            file["importType"].as_str().unwrap_or("?"),
            file["rows"],
            file["added"],
            file["changed"],
            file["unchanged"],
            file["rejected"]
        );
        for error in file["errors"].as_array().into_iter().flatten() {
            println!(
                "  line {}: {}",
                error["line"],
                error["message"].as_str().unwrap_or("")
            );
        }
    }
    let report = &job["report"];
    match report["verdict"].as_str() {
        Some("committed") => println!(
            "imported through the running server (job {}): the catalogue is now at data version {}",
            job["id"], report["dataVersion"]
        ),
        Some("nothing_changed") => {
            println!("nothing changed: the catalogue already holds these rows")
        }
        Some("dry_run") => println!("dry run: nothing was written"),
        Some("rejected") => println!("rejected: the files hold invalid rows; nothing was written"),
        _ => println!("job {}: {}", job["id"], job["state"]),
    }
}

/// The tar on its way to the server, counted into the progress bar.
struct Sending {
    inner: std::io::PipeReader,
    bar: ProgressBar,
}

impl Read for Sending {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bar.inc(n as u64);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declared_length_is_the_length_of_the_tar_written() {
        let lengths = [0u64, 1, 511, 512, 513, 70_000];
        let mut tar = tar::Builder::new(Vec::new());
        for (i, len) in lengths.iter().enumerate() {
            let mut header = tar::Header::new_gnu();
            header.set_size(*len);
            header.set_mode(0o600);
            header.set_entry_type(tar::EntryType::Regular);
            let data = vec![b'x'; *len as usize];
            tar.append_data(&mut header, format!("f{i}.csv"), data.as_slice())
                .unwrap();
        }
        let written = tar.into_inner().unwrap();
        assert_eq!(written.len() as u64, tar_length(lengths.into_iter()));
    }
}
