//! Command-line interface: `serve`, `import`, `sync`, `dmm`, `media`, `backup`, `restore`,
//! `check`, `gen`, `admin`.

mod admin;
mod backup;
mod dmm;
mod importing;
mod media;
mod progress;
mod server_job;
mod sync;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, Parser, Subcommand};

use partscat::config::{LogFormat, Overrides, Settings};
use partscat::import::{self, ImportType};
use partscat::store::{self, Store, check};
use partscat::{demo, generate, server};

#[derive(Parser)]
#[command(
    name = "partscat",
    version,
    about = "On-premise automotive parts-catalogue appliance"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Args)]
struct Common {
    /// TOML configuration file [env: PARTSCAT_CONFIG] [default: /etc/partscat/partscat.toml
    /// if it exists].
    #[arg(long, value_name = "FILE", global = true)]
    config: Option<PathBuf>,
    /// The store's directory [env: PARTSCAT_DATA] [default: partscat-data].
    #[arg(long, value_name = "DIR", global = true)]
    data: Option<PathBuf>,
}

/// The data sets an import takes, with their columns, for `import --help`.
fn import_types_help() -> String {
    let mut text = String::from(
        "Data sets (--type, or the <type>.csv files of a directory); columns, optional ones in brackets:\n",
    );
    for t in ImportType::ALL {
        let columns = t.columns();
        let required = columns.required().map(str::to_owned);
        let optional = columns.optional().map(|c| format!("[{c}]"));
        text.push_str(&format!(
            "  {:<16} {}\n",
            t.name(),
            required.chain(optional).collect::<Vec<_>>().join(", ")
        ));
    }
    text.push_str("A directory is imported in the order above, all files or none.");
    text
}

#[derive(Subcommand)]
enum Command {
    /// Serve the catalogue over HTTP.
    #[command(after_help = partscat::config::settings_help())]
    Serve {
        #[command(flatten)]
        common: Common,
        /// Address to listen on; repeat it to listen on several (IPv4 and IPv6)
        /// [env: PARTSCAT_LISTEN, comma-separated] [default: 127.0.0.1:8080].
        #[arg(long, value_name = "ADDR")]
        listen: Vec<SocketAddr>,
        /// Load the embedded demo catalogue into an empty store, and create the `demo`
        /// provider on the store's first start (later starts keep it as it is).
        #[arg(long)]
        demo: bool,
        /// A key the demo provider gets if it lacks it [default: a new random key when the
        /// provider is created, printed at start].
        #[arg(long, value_name = "KEY", requires = "demo")]
        demo_key: Option<String>,
        /// The import inbox: `importArticles` takes its files from here; created at start
        /// [env: PARTSCAT_INBOX] [default: <data_dir>-inbox, beside the store].
        #[arg(long, value_name = "DIR")]
        inbox: Option<PathBuf>,
        /// Serve HTTPS on every listen address with this certificate chain (PEM), reloaded on
        /// SIGHUP and when the file changes [env: PARTSCAT_TLS_CERT].
        #[arg(long, value_name = "FILE", requires = "tls_key")]
        tls_cert: Option<PathBuf>,
        /// The certificate's private key (PEM), readable by its owner and group only
        /// [env: PARTSCAT_TLS_KEY].
        #[arg(long, value_name = "FILE", requires = "tls_cert")]
        tls_key: Option<PathBuf>,
    },
    /// Import CSV data: one file of one data set, or a directory of <type>.csv files.
    #[command(after_help = import_types_help())]
    Import {
        #[command(flatten)]
        common: Common,
        /// The data set of FILE (not needed for a directory): one of the data sets below.
        #[arg(long = "type", value_name = "TYPE")]
        import_type: Option<String>,
        /// `merge`: rows the files do not hold stay. `replace`: they are retired, within the
        /// brands each file's rows name where its data set is per brand.
        #[arg(long, value_name = "MODE", default_value = "merge")]
        mode: String,
        /// Validate and report what would change; write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// A CSV file, or a directory of <type>.csv files imported together.
        #[arg(value_name = "FILE")]
        path: PathBuf,
    },
    /// Bring the catalogue up to the configured upstream's ([sync] in the settings): another
    /// partscat's change feed, or a directory of deliveries. Through the running server's
    /// admin socket, or on the store directly when the server is stopped.
    Sync {
        #[command(flatten)]
        common: Common,
        /// The data set to synchronise, or `all`.
        #[arg(long = "type", value_name = "TYPE", default_value = "all")]
        import_type: String,
        /// Reload in full (retiring what the upstream no longer holds) instead of taking
        /// what changed since the last sync.
        #[arg(long)]
        refresh: bool,
    },
    /// Write the deliveries that are missing from the deliveries folder (deliveries_dir, or
    /// --out): the changes since the last one, or the whole data sets, and the index, for a
    /// static web server to serve to followers. A running server with deliveries_dir set
    /// writes them itself after each commit; this is for a stopped one.
    Deliveries {
        #[command(flatten)]
        common: Common,
        /// The folder [else the settings' deliveries_dir].
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Build a brand's DMM package (apiDMM): its media manifest and files from the media
    /// store, optionally fetching 360-degree frames first and publishing it after.
    Dmm {
        #[command(flatten)]
        common: Common,
        /// The brand.
        #[arg(long, value_name = "ID")]
        brand: u32,
        /// Fetch the 360-degree frames the media store lacks from media_source first.
        #[arg(long)]
        download360: bool,
        /// Deliver the package to publish_target.
        #[arg(long)]
        publish: bool,
    },
    /// Show which media files of the catalogue the media store (media_dir) holds and which
    /// it lacks, per kind; through the running server's admin socket, or on the store
    /// directly when it is stopped.
    Media {
        #[command(flatten)]
        common: Common,
        /// One brand's media only.
        #[arg(long, value_name = "ID")]
        brand: Option<u32>,
        /// List up to N missing entries by URI.
        #[arg(long, value_name = "N", default_value_t = 20)]
        missing: usize,
        /// Print the inventory as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Write a backup of the store (catalogue, providers, grants, audit trail) to a file:
    /// through the running server's admin socket, or from the store directly when it is
    /// stopped.
    Backup {
        #[command(flatten)]
        common: Common,
        /// The backup file to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Restore a backup into an empty store directory (--data); a damaged or foreign file is
    /// refused with nothing written.
    Restore {
        #[command(flatten)]
        common: Common,
        /// The backup file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Write the stopped store afresh and put it in its own place: the space many small
    /// commits left to the storage engine goes back to the file system.
    Compact {
        #[command(flatten)]
        common: Common,
    },
    /// Show the HTTPS certificate `serve` uses (tls_cert, or the self-signed one in the store's
    /// directory): its file and SHA-256 fingerprint, for clients to compare or pin.
    Tls {
        #[command(flatten)]
        common: Common,
        /// The certificate chain (PEM) [env: PARTSCAT_TLS_CERT; else the config's tls_cert].
        #[arg(long, value_name = "FILE")]
        tls_cert: Option<PathBuf>,
    },
    /// Verify that every index agrees with the data; print counts and a content checksum.
    Check {
        #[command(flatten)]
        common: Common,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Administer providers, keys, whitelists, scopes and brands, and read the audit trail.
    Admin(admin::AdminArgs),
    /// Generate a deterministic catalogue as import CSV files.
    Gen {
        /// Number of articles.
        #[arg(long, value_name = "N")]
        articles: usize,
        /// Output directory.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Seed: the same seed and size give the same files.
        #[arg(long, default_value_t = generate::DEMO_SEED)]
        seed: u64,
        /// Link-heavy, as real fitment data: each article fits exactly N vehicles, its link
        /// rows as short as a fitment file's.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
        links_per_article: Option<u32>,
    },
}

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

fn open_store(settings: &Settings) -> Result<Store, String> {
    let store = Store::open_with_cache(&settings.data_dir, settings.cache_mb * 1024 * 1024)
        .map_err(|e| e.to_string())?;
    store.set_change_retention(settings.change_feed);
    store.set_limits(settings.limits);
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
        } => serve(
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
            settings(&common, ServeFlags::default())?,
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
            settings(&common, ServeFlags::default())?,
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
        } => media::run(
            settings(&common, ServeFlags::default())?,
            brand,
            missing,
            json,
        ),
        Command::Backup { common, out } => {
            backup::backup(settings(&common, ServeFlags::default())?, &out)
        }
        Command::Restore { common, file } => {
            backup::restore(settings(&common, ServeFlags::default())?, &file)
        }
        Command::Compact { common } => backup::compact(settings(&common, ServeFlags::default())?),
        Command::Sync {
            common,
            import_type,
            refresh,
        } => sync::run(
            settings(&common, ServeFlags::default())?,
            &import_type,
            refresh,
        ),
        Command::Deliveries { common, out } => {
            let settings = settings(&common, ServeFlags::default())?;
            let dir = out
                .or(settings.deliveries_dir.clone())
                .ok_or("no deliveries folder: set deliveries_dir or give --out DIR")?;
            let store = open_store(&settings)?;
            let written = partscat::service::deliveries::write_missing(&store, &dir)
                .map_err(|e| e.to_string())?;
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
        Command::Check { common, json } => {
            check_store(settings(&common, ServeFlags::default())?, json)
        }
        Command::Tls { common, tls_cert } => {
            let settings = settings(&common, ServeFlags::default())?;
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
        Command::Gen {
            articles,
            out,
            seed,
            links_per_article,
        } => {
            init_logging("info", LogFormat::Text);
            let shape = generate::Shape { links_per_article };
            let summary = generate::generate_shaped(articles, seed, shape, &out)
                .map_err(|e| format!("{}: {e}", out.display()))?;
            println!(
                "wrote {} articles and {} vehicles to {}",
                summary.articles,
                summary.vehicles,
                out.display()
            );
            Ok(ExitCode::SUCCESS)
        }
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

/// Creates the import inbox if it is missing and says where it is; a server that cannot
/// create it still serves (its imports answer that the file is missing there).
fn prepare_inbox(inbox: &std::path::Path) {
    match std::fs::create_dir_all(inbox) {
        Ok(()) => tracing::info!(inbox = %inbox.display(), "import inbox"),
        Err(e) => tracing::warn!(
            inbox = %inbox.display(),
            error = %e,
            "the import inbox cannot be created; importArticles will find no files"
        ),
    }
}

/// What `--demo` does before the server starts: the demo's files into an empty inbox, and
/// the demo provider (created on the store's first start, kept after), with its key printed.
fn prepare_demo(store: &Store, settings: &Settings, demo_key: Option<&str>) -> Result<(), String> {
    match demo::seed_inbox(&settings.inbox) {
        Ok(0) => {}
        Ok(files) => tracing::info!(
            files,
            inbox = %settings.inbox.display(),
            "the demo catalogue's files are in the empty import inbox, for importArticles to try"
        ),
        Err(e) => tracing::warn!(error = %e, "the demo files could not be put into the inbox"),
    }
    let outcome = demo::prepare_demo_provider(store, &partscat::clock::SystemClock, demo_key)
        .map_err(|e| e.to_string())?;
    let number = store
        .provider(demo::DEMO_PROVIDER)
        .map_err(|e| e.to_string())?
        .and_then(|record| record.number);
    match number {
        Some(number) => println!(
            "demo provider:      {} (or {number}, for clients that send an integer)",
            demo::DEMO_PROVIDER
        ),
        None => println!("demo provider:      {}", demo::DEMO_PROVIDER),
    }
    match outcome {
        demo::DemoKey::Created(key) | demo::DemoKey::Kept(key) => {
            println!("demo key:           {key}")
        }
        demo::DemoKey::Added(key) => println!("demo key:           {key} (added)"),
        demo::DemoKey::Unchanged => println!(
            "demo key:           unchanged (the one printed when this store was first served; --demo-key KEY adds one)"
        ),
    }
    Ok(())
}

fn serve(settings: Settings, demo: bool, demo_key: Option<String>) -> Result<ExitCode, String> {
    // The certificate checked before anything is bound or opened: a wrong file stops here.
    let self_signed = settings.tls_cert.is_none() && settings.tls_self_signed;
    if let Some(files) = server::tls_files(&settings).filter(|_| !self_signed) {
        files.load()?;
        println!("HTTPS certificate:  SHA-256 {}", files.fingerprint()?);
    }
    // Bound before the store is opened or created: a busy port leaves nothing behind.
    let listeners = server::bind(&settings.listen).map_err(|e| e.to_string())?;
    let store = Arc::new(open_store(&settings)?);
    if let Some(files) = server::tls_files(&settings).filter(|_| self_signed) {
        let made = server::self_signed::ensure(
            &settings.data_dir,
            &settings.listen,
            settings.base_url.as_deref(),
        )?;
        files.load()?;
        println!(
            "HTTPS certificate:  SHA-256 {} (self-signed{}, {})",
            files.fingerprint()?,
            if made { ", made now" } else { "" },
            files.cert.display()
        );
    }
    partscat::limits::set_answer_bytes(settings.limits.answer_bytes());
    // A store whose blocks do not decode would answer every lookup with a 500: refused.
    store::check::probe(&store).map_err(|e| {
        format!(
            "the store at {} is damaged ({e}); `partscat check` lists what, and `partscat restore` brings a backup back",
            settings.data_dir.display()
        )
    })?;
    tracing::info!(data = %settings.data_dir.display(), "store open");
    for wide in store::wider_than_owner(&settings.data_dir) {
        tracing::warn!(
            path = %wide.display(),
            "others than the owner may read this part of the store (it holds key hashes, grants and the audit trail): chmod go-rwx"
        );
    }
    prepare_inbox(&settings.inbox);
    if demo {
        prepare_demo(&store, &settings, demo_key.as_deref())?;
    }
    for line in server::addresses::startup_lines(&settings) {
        println!("{line}");
    }
    let state = server::AppState::new(store.clone(), settings);
    let runtime =
        tokio::runtime::Runtime::new().map_err(|e| format!("cannot start the runtime: {e}"))?;
    let result = runtime.block_on(async {
        let loader = state.clone();
        tokio::task::spawn_blocking(move || {
            if demo {
                loader.set_loading("loading the demo catalogue");
                match demo::load_demo_catalogue(&loader.store, &import::Quiet) {
                    Ok(Some(report)) => {
                        tracing::info!("demo catalogue loaded: {}", report.verdict_line())
                    }
                    Ok(None) => tracing::info!(
                        "the store holds a catalogue already; the demo catalogue was not loaded"
                    ),
                    Err(e) => {
                        tracing::error!("the demo catalogue could not be loaded: {e}");
                        return;
                    }
                }
            }
            // No lookup waits for a table's block index: all are read before ready.
            let started = std::time::Instant::now();
            loader.set_loading("reading the block index of every table");
            match loader.store.catalogue().warm() {
                Ok(()) => tracing::info!(
                    seconds = started.elapsed().as_secs_f64(),
                    "read the block index of every table"
                ),
                Err(e) => tracing::warn!("a table's block index could not be read: {e}"),
            }
            loader.set_ready();
        });
        server::run(state, listeners).await
    });
    store.flush().map_err(|e| e.to_string())?;
    result.map_err(|e| e.to_string())?;
    tracing::info!("stopped; the store is flushed");
    Ok(ExitCode::SUCCESS)
}
