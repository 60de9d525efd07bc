//! The commands and their flags, as clap parses them and `--help` shows them.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use super::admin;
use partscat::generate;
use partscat::import::ImportType;

#[derive(Parser)]
#[command(
    name = "partscat",
    version,
    about = "On-premise automotive parts-catalogue appliance"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Args)]
pub(crate) struct Common {
    /// TOML configuration file [env: PARTSCAT_CONFIG] [default: /etc/partscat/partscat.toml
    /// if it exists].
    #[arg(long, value_name = "FILE", global = true)]
    pub(crate) config: Option<PathBuf>,
    /// The store's directory [env: PARTSCAT_DATA] [default: partscat-data].
    #[arg(long, value_name = "DIR", global = true)]
    pub(crate) data: Option<PathBuf>,
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
pub(crate) enum Command {
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
        #[command(flatten)]
        shape: GenShape,
    },
}

/// The shape of a generated catalogue: each flag left out keeps the generator's own.
#[derive(Args)]
pub(crate) struct GenShape {
    /// Each article fits exactly N vehicles (link-heavy, as real fitment data); its link rows
    /// as short as a fitment file's unless `--link-details true`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    links_per_article: Option<u32>,
    /// Link rows with a position and a quantity (`true`) or without (`false`) [default: true,
    /// false with --links-per-article].
    #[arg(long, value_name = "BOOL", action = clap::ArgAction::Set)]
    link_details: Option<bool>,
    /// Cross numbers per article on average (OE, competitor, trade, internal; all written to
    /// `crossrefs.csv`), e.g. 3.5.
    #[arg(long, value_name = "MEAN", value_parser = mean_per_article)]
    crossrefs_per_article: Option<f64>,
    /// Prices per article on average, up to 8 (list and net prices in up to six currencies).
    #[arg(long, value_name = "MEAN", value_parser = prices_per_article)]
    prices_per_article: Option<f64>,
    /// Criteria per article, exactly, up to 8 (its generic article's, then shared ones).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=8))]
    criteria_per_article: Option<u32>,
    /// Media files (images) per article on average.
    #[arg(long, value_name = "MEAN", value_parser = mean_per_article)]
    media_per_article: Option<f64>,
    /// Exhaust systems and brake sets (kits of their components) among the articles
    /// (`true`), or plain articles only (`false`) [default: true].
    #[arg(long, value_name = "BOOL", action = clap::ArgAction::Set)]
    kits: Option<bool>,
    /// The maker's brands [default: 4].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10000))]
    brands: Option<u32>,
    /// Generic articles, at least 16 (past the generator's 16: variants of them).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(16..=100000))]
    genarts: Option<u32>,
    /// Vehicle types [default: a tenth of the articles, at least 300].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10000000))]
    vehicles: Option<u32>,
    /// Also write the texts in German and French, and some in Bulgarian (`texts.csv`,
    /// `article_texts.csv`), as the demo catalogue holds them.
    #[arg(long)]
    translated: bool,
}

impl From<GenShape> for generate::Shape {
    fn from(g: GenShape) -> generate::Shape {
        generate::Shape {
            links_per_article: g.links_per_article,
            link_details: g.link_details,
            crossrefs_per_article: g.crossrefs_per_article,
            prices_per_article: g.prices_per_article,
            criteria_per_article: g.criteria_per_article,
            media_per_article: g.media_per_article,
            kits: g.kits,
            brands: g.brands,
            genarts: g.genarts,
            vehicles: g.vehicles,
            translated: g.translated,
        }
    }
}

/// A mean count of rows per article: a number from 0 to 100.
fn mean_per_article(text: &str) -> Result<f64, String> {
    mean_up_to(text, 100.0)
}

/// A mean count of prices per article: from 0 to the generator's price kinds.
fn prices_per_article(text: &str) -> Result<f64, String> {
    mean_up_to(text, generate::PRICE_KINDS as f64)
}

fn mean_up_to(text: &str, most: f64) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(mean) if (0.0..=most).contains(&mean) => Ok(mean),
        _ => Err(format!("{text:?} is not a number from 0 to {most}")),
    }
}
