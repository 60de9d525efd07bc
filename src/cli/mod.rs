//! Command-line interface: `serve`, `import`, `sync`, `dmm`, `media`, `backup`, `restore`,
//! `check`, `gen`, `admin`.

mod admin;
mod backup;
mod commands;
mod dmm;
mod importing;
mod media;
mod progress;
mod server_job;
mod serving;
mod sync;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

use commands::{Cli, Command, Common};

use partscat::config::{LogFormat, Overrides, Settings};
use partscat::store::{self, Store, check};
use partscat::{generate, server};

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("partscat: {message}");
            ExitCode::from(2)
        }
    }
}

/// What only `serve` takes as flags.
#[derive(Default)]
struct ServeFlags {
    listen: Vec<SocketAddr>,
    inbox: Option<PathBuf>,
    tls_cert: Option<PathBuf>,
    tls_key: Option<PathBuf>,
}

fn settings(common: &Common, flags: ServeFlags) -> Result<Settings, String> {
    let overrides = Overrides {
        config: common.config.clone(),
        listen: flags.listen,
        data_dir: common.data.clone(),
        inbox: flags.inbox,
        tls_cert: flags.tls_cert,
        tls_key: flags.tls_key,
    };
    let (settings, warnings) = Settings::load(&overrides).map_err(|e| e.to_string())?;
    init_logging(&settings.log, settings.log_format);
    for w in warnings {
        tracing::warn!("{w}");
    }
    // Every command that takes settings opens the store, which must stay private.
    store::keep_new_files_private();
    Ok(settings)
}

/// The settings of a command other than `serve`.
fn common_settings(common: &Common) -> Result<Settings, String> {
    settings(common, ServeFlags::default())
}

fn open_store(settings: &Settings) -> Result<Store, String> {
    let store = Store::open_with_cache(&settings.data_dir, settings.cache_mb * 1024 * 1024)
        .map_err(|e| e.to_string())?;
    store.set_change_retention(settings.change_feed);
    store.set_limits(settings.limits);
    store.set_text_languages(
        settings
            .catalogue_languages_set
            .then(|| settings.catalogue_languages.clone()),
    );
    Ok(store)
}

/// Log lines on standard error: coloured only on a terminal (journald and files get plain
/// text), or one JSON object a line for log collectors. A line that cannot be written (its
/// file's disk is full) is dropped: reporting that on standard error would fail too, and
/// panic the thread that logged.
fn init_logging(filter: &str, format: LogFormat) {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let lines = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .log_internal_errors(false);
    let _ = match format {
        LogFormat::Text => lines.with_ansi(std::io::stderr().is_terminal()).try_init(),
        LogFormat::Json => lines.json().try_init(),
    };
}

fn run(command: Command) -> Result<ExitCode, String> {
    match command {
        Command::Serve {
            common,
            listen,
            demo,
            demo_key,
            inbox,
            tls_cert,
            tls_key,
        } => serving::serve(
            settings(
                &common,
                ServeFlags {
                    listen,
                    inbox,
                    tls_cert,
                    tls_key,
                },
            )?,
            demo,
            demo_key,
        ),
        Command::Import {
            common,
            import_type,
            mode,
            dry_run,
            json,
            path,
        } => importing::import_files(
            common_settings(&common)?,
            import_type,
            &mode,
            dry_run,
            json,
            path,
        ),
        Command::Admin(args) => admin::run(args),
        Command::Dmm {
            common,
            brand,
            download360,
            publish,
        } => dmm::run(
            common_settings(&common)?,
            partscat::service::dmm::DmmRequest {
                brand_id: brand,
                publish,
                download360,
            },
        ),
        Command::Media {
            common,
            brand,
            missing,
            json,
        } => media::run(common_settings(&common)?, brand, missing, json),
        Command::Backup { common, out } => backup::backup(common_settings(&common)?, &out),
        Command::Restore { common, file } => backup::restore(common_settings(&common)?, &file),
        Command::Compact { common } => backup::compact(common_settings(&common)?),
        Command::Sync {
            common,
            import_type,
            refresh,
        } => sync::run(common_settings(&common)?, &import_type, refresh),
        Command::Deliveries { common, out } => write_deliveries(common_settings(&common)?, out),
        Command::Check { common, json } => check_store(common_settings(&common)?, json),
        Command::Tls { common, tls_cert } => show_certificate(common_settings(&common)?, tls_cert),
        Command::Gen {
            articles,
            out,
            seed,
            shape,
        } => generate_catalogue(articles, seed, shape.into(), &out),
    }
}

fn check_store(settings: Settings, json: bool) -> Result<ExitCode, String> {
    if !partscat::store::exists_at(&settings.data_dir) {
        return Err(format!(
            "there is no store at {}",
            settings.data_dir.display()
        ));
    }
    let store = open_store(&settings)?;
    let report = check::check(&store).map_err(|e| e.to_string())?;
    if json {
        let counts: serde_json::Map<String, serde_json::Value> = report
            .counts
            .iter()
            .map(|(n, c)| (n.to_string(), (*c).into()))
            .collect();
        let body = serde_json::json!({
            "sound": report.is_sound(),
            "checksum": report.checksum,
            "counts": counts,
            "problems": report.problems,
            "problem_count": report.problem_count,
            "over_limits": report.over_limits,
            "over_limit_count": report.over_limit_count,
            "unreclaimed_pages": report.unreclaimed_pages,
            "lacks": report.lacks,
            "languages": report.languages.iter().map(|l| serde_json::json!({
                "language": l.language,
                "generic_articles": [l.generic_articles.0, l.generic_articles.1],
                "assembly_groups": [l.assembly_groups.0, l.assembly_groups.1],
                "model_series": [l.model_series.0, l.model_series.1],
                "descriptions": [l.descriptions.0, l.descriptions.1],
                "terms": l.terms,
            })).collect::<Vec<_>>(),
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&body).map_err(|e| e.to_string())?
        );
    } else {
        for (name, count) in &report.counts {
            println!("{name:<40} {count:>10}");
        }
        for o in &report.over_limits {
            println!("over the limits: {o}");
        }
        if report.over_limit_count > report.over_limits.len() as u64 {
            println!("over the limits: {} values in all", report.over_limit_count);
        }
        for p in &report.problems {
            println!("problem: {p}");
        }
        for l in &report.lacks {
            println!("lacks: {l}");
        }
        for l in &report.languages {
            println!("{}", l.sentence());
        }
        if report.unreclaimed_pages > 0 {
            println!(
                "{} pages no generation holds: their space returns when the catalogue is imported into a new store",
                report.unreclaimed_pages
            );
        }
        println!("checksum: {}", report.checksum);
        let verdict = if report.is_sound() {
            "sound".to_owned()
        } else {
            format!("{} problems", report.problem_count)
        };
        println!("{verdict}");
    }
    Ok(if report.is_sound() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `deliveries`: the deliveries the folder lacks, written from the store.
fn write_deliveries(settings: Settings, out: Option<PathBuf>) -> Result<ExitCode, String> {
    let dir = out
        .or(settings.deliveries_dir.clone())
        .ok_or("no deliveries folder: set deliveries_dir or give --out DIR")?;
    let store = open_store(&settings)?;
    let written =
        partscat::service::deliveries::write_missing(&store, &dir).map_err(|e| e.to_string())?;
    store.flush().map_err(|e| e.to_string())?;
    use partscat::service::deliveries::Written;
    match written {
        Written::Nothing => println!("{}: up to date", dir.display()),
        Written::Full(v) => {
            println!("{}: the whole data sets at data version {v}", dir.display())
        }
        Written::Changes { from, to } => println!(
            "{}: the changes from data version {from} to {to}",
            dir.display()
        ),
    }
    Ok(ExitCode::SUCCESS)
}

/// `tls`: the certificate the server presents, with its fingerprint for clients to pin.
fn show_certificate(settings: Settings, tls_cert: Option<PathBuf>) -> Result<ExitCode, String> {
    let cert = match tls_cert {
        Some(cert) => cert,
        None => server::tls_files(&settings).map(|f| f.cert).ok_or(
            "no certificate is configured: set tls_cert and tls_key, or tls_self_signed = true (or give --tls-cert FILE)",
        )?,
    };
    if !cert.exists() && settings.tls_self_signed {
        return Err(format!(
            "{} is not there yet: serve makes it on its first start (tls_self_signed)",
            cert.display()
        ));
    }
    let files = server::tls::TlsFiles {
        key: PathBuf::new(),
        cert,
        client_ca: None,
    };
    println!("certificate:        {}", files.cert.display());
    println!("SHA-256 fingerprint: {}", files.fingerprint()?);
    Ok(ExitCode::SUCCESS)
}

/// `gen`: a synthetic catalogue's import files.
fn generate_catalogue(
    articles: usize,
    seed: u64,
    shape: generate::Shape,
    out: &std::path::Path,
) -> Result<ExitCode, String> {
    init_logging("info", LogFormat::Text);
    let summary = generate::generate_shaped(articles, seed, shape, out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "wrote {} articles and {} vehicles to {}",
        summary.articles,
        summary.vehicles,
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}
