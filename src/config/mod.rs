//! Settings, layered: built-in defaults, then the TOML file, then `PARTSCAT_*` environment
//! variables, then command-line flags. Unknown keys and variables are warned about, since a
//! misspelt setting that silently does nothing is the hardest kind of mistake to find.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

mod sync;
use sync::SYNC_SETTINGS;
pub use sync::SyncSettings;

/// Where the file is looked for when `--config` is not given.
pub const DEFAULT_CONFIG_FILE: &str = "/etc/partscat/partscat.toml";

/// The generic articles that make up an exhaust system by default (the demo catalogue's).
pub const DEFAULT_EXHAUST_GENARTS: [u32; 5] = [4000, 4010, 4020, 4030, 4040];

/// How log lines are written: for people (colour on a terminal only) or one JSON object a
/// line, for log collectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

fn parse_log_format(text: &str) -> Result<LogFormat, String> {
    match text.trim() {
        "text" => Ok(LogFormat::Text),
        "json" => Ok(LogFormat::Json),
        _ => Err(format!("'{text}' is not one of text, json")),
    }
}

/// Who may read `/metrics`: anyone, providers with the `admin` scope, or nobody.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricsAccess {
    Open,
    Admin,
    Off,
}

impl MetricsAccess {
    pub fn from_name(name: &str) -> Option<MetricsAccess> {
        match name.trim() {
            "open" => Some(MetricsAccess::Open),
            "admin" => Some(MetricsAccess::Admin),
            "off" => Some(MetricsAccess::Off),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Addresses to listen on; several allow IPv4 and IPv6 at once.
    pub listen: Vec<SocketAddr>,
    /// The store's directory.
    pub data_dir: PathBuf,
    /// A tracing filter (`info`, `partscat=debug`, …).
    pub log: String,
    /// Text or JSON log lines.
    pub log_format: LogFormat,
    /// How long one request's work may run before it answers an error, in ms; 0: no limit.
    pub work_budget_ms: u64,
    /// Open client connections at most; 0: derived from the open-file limit at start.
    pub max_connections: u32,
    /// Generic articles that count as exhaust-system parts.
    pub exhaust_genarts: Vec<u32>,
    /// The language of the catalogue's texts (ISO 639-1).
    pub catalogue_language: String,
    /// The countries the catalogue is for (ISO 3166-1 alpha-2).
    pub catalogue_countries: Vec<String>,
    /// The store's page cache, in MiB.
    pub cache_mb: u64,
    /// The import inbox: `importArticles` reads its `fileId` from here, nowhere else. Always
    /// absolute once loaded; unset, `<data_dir>-inbox` beside the store.
    pub inbox: PathBuf,
    /// How long `importArticles` waits for an import before answering 202 with its job.
    pub import_wait_ms: u64,
    /// The byte budget of finished lookup answers kept for repeated lookups, in MiB; 0: none.
    pub answer_cache_mb: u64,
    /// Reverse proxies whose `X-Forwarded-For` / `Forwarded` name the real client. From any
    /// other peer those headers are ignored.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Requests a second each provider may make (in bursts of as many); 0: no limit.
    pub rate_limit_per_second: u32,
    /// The admin API's Unix socket; unset: `admin.sock` in the data directory; empty: none.
    pub admin_socket: Option<PathBuf>,
    /// Audit entries older than this many days are removed.
    pub audit_retention_days: u32,
    /// Who may read `/metrics`.
    pub metrics: MetricsAccess,
    /// Where clients reach this server (`https://parts.example.lan`), for the addresses the
    /// WSDLs give; unset: the address each client used (its `Host` header).
    pub base_url: Option<String>,
    /// HTTPS on every listen address: the certificate chain and its key (PEM files). Both or
    /// neither.
    pub tls_cert: Option<PathBuf>,
    pub tls_key: Option<PathBuf>,
    /// Without tls_cert and tls_key: HTTPS with a key and a certificate for the machine's
    /// names and addresses, made on first start and kept in the store's directory.
    pub tls_self_signed: bool,
    /// A PEM file of the CA whose certificates followers present: the `sync` scope is then
    /// admitted only over a connection that presented one it signed (mutual TLS).
    pub client_ca: Option<PathBuf>,
    /// Each committed data version's changes are also written here as a delivery (immutable
    /// files and an index), for a static web server to serve to followers.
    pub deliveries_dir: Option<PathBuf>,
    /// The path the SOAP and JSON endpoints live under (`{base_url}{soap_prefix}/services/…`).
    pub soap_prefix: String,
    /// The maker's brand in the SOAP and JSON endpoints' names (`{brand_name}ToCatDLB`).
    pub brand_name: String,
    /// The first segment of the V2 routes' paths (`/{route_prefix}/getArticlesByKtype/…`):
    /// the maker's abbreviation, as the service description has it.
    pub route_prefix: String,
    /// CSV exports start with a UTF-8 byte-order mark unless a request says `bom=false`.
    pub csv_bom: bool,
    /// CSV exports keep codes and dates as text for spreadsheets unless a request says
    /// `spreadsheet=false`.
    pub csv_spreadsheet: bool,
    /// How long the change feed keeps each data version's changes.
    pub change_feed: crate::store::ChangeRetention,
    /// Where `syncTecdoc` takes the catalogue from.
    pub sync: SyncSettings,
    /// The media store, where its files come from, and where DMM packages go.
    pub media: MediaSettings,
    /// The bounds on what comes from outside (`[limits]`).
    pub limits: crate::limits::Limits,
}

/// The settings of `apiDMM`.
#[derive(Debug, Clone, PartialEq)]
pub struct MediaSettings {
    /// The local media store; unset: `<data_dir>-media` beside the store.
    pub dir: PathBuf,
    /// Where frames (and images) are fetched from: an `http(s)://` base or a directory.
    pub source: Option<String>,
    /// Whom HTTPS to the media source trusts (`media_ca_file`, `media_pin_sha256`).
    pub source_trust: crate::outside::tls::Trust,
    /// Where packages are published: an `http(s)://` endpoint or a directory.
    pub publish_target: Option<String>,
    /// HTTP Basic credentials for an HTTP publish target: the user, and a file holding the
    /// password (its first line).
    pub publish_user: Option<String>,
    pub publish_password_file: Option<PathBuf>,
    /// Whom HTTPS to the publish target trusts (`publish_ca_file`, `publish_pin_sha256`).
    pub publish_trust: crate::outside::tls::Trust,
    /// Whether `download360` fetches the brand's images and documents too.
    pub download_images: bool,
    /// A file larger than this is refused, in MiB.
    pub max_file_mb: u64,
    /// Downloads at once.
    pub concurrency: u32,
}

impl Default for MediaSettings {
    fn default() -> Self {
        MediaSettings {
            dir: PathBuf::new(),
            source: None,
            source_trust: Default::default(),
            publish_target: None,
            publish_trust: Default::default(),
            publish_user: None,
            publish_password_file: None,
            download_images: false,
            max_file_mb: 50,
            concurrency: 4,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            listen: vec![SocketAddr::from(([127, 0, 0, 1], 8080))],
            data_dir: PathBuf::from("partscat-data"),
            log: "info".into(),
            log_format: LogFormat::Text,
            work_budget_ms: 10_000,
            max_connections: 0,
            exhaust_genarts: DEFAULT_EXHAUST_GENARTS.to_vec(),
            catalogue_language: "en".into(),
            catalogue_countries: Vec::new(),
            cache_mb: crate::store::DEFAULT_CACHE_BYTES / (1024 * 1024),
            inbox: PathBuf::new(),
            import_wait_ms: 2000,
            answer_cache_mb: 128,
            trusted_proxies: Vec::new(),
            rate_limit_per_second: 0,
            admin_socket: None,
            audit_retention_days: 365,
            metrics: MetricsAccess::Open,
            base_url: None,
            tls_cert: None,
            tls_key: None,
            tls_self_signed: false,
            client_ca: None,
            deliveries_dir: None,
            soap_prefix: "/ws/3.0".into(),
            brand_name: "Parts".into(),
            route_prefix: "svc".into(),
            csv_bom: false,
            csv_spreadsheet: false,
            change_feed: crate::store::ChangeRetention::default(),
            sync: SyncSettings::default(),
            media: MediaSettings::default(),
            limits: crate::limits::Limits::default(),
        }
    }
}

/// The inbox beside the store: `/var/lib/partscat` → `/var/lib/partscat-inbox`.
fn default_inbox(data_dir: &Path) -> PathBuf {
    beside(data_dir, "inbox")
}

/// A directory beside the store: `/var/lib/partscat` → `/var/lib/partscat-<what>`.
fn beside(data_dir: &Path, what: &str) -> PathBuf {
    match data_dir.file_name() {
        Some(name) => {
            let mut name = name.to_os_string();
            name.push(format!("-{what}"));
            data_dir.with_file_name(name)
        }
        None => data_dir.join(what),
    }
}

/// What flags set; `None`/empty leaves the lower layers' value.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    pub config: Option<PathBuf>,
    pub listen: Vec<SocketAddr>,
    pub data_dir: Option<PathBuf>,
    pub inbox: Option<PathBuf>,
    pub tls_cert: Option<PathBuf>,
    pub tls_key: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("settings: {0}")]
    Tls(String),
    #[error("config file {0}: {1}")]
    File(PathBuf, String),
    #[error("environment variable {0}: {1}")]
    Env(&'static str, String),
    #[error("settings [sync]: {0}")]
    Sync(String),
}

#[derive(Deserialize, Default)]
struct FileLayer {
    listen: Option<Listen>,
    data_dir: Option<PathBuf>,
    log: Option<String>,
    log_format: Option<String>,
    work_budget_ms: Option<u64>,
    max_connections: Option<u32>,
    cache_mb: Option<u64>,
    inbox: Option<PathBuf>,
    import_wait_ms: Option<u64>,
    answer_cache_mb: Option<u64>,
    trusted_proxies: Option<Vec<String>>,
    rate_limit_per_second: Option<u32>,
    admin_socket: Option<PathBuf>,
    audit_retention_days: Option<u32>,
    metrics: Option<String>,
    base_url: Option<String>,
    tls_cert: Option<PathBuf>,
    tls_key: Option<PathBuf>,
    tls_self_signed: Option<bool>,
    client_ca: Option<PathBuf>,
    deliveries_dir: Option<PathBuf>,
    media_ca_file: Option<PathBuf>,
    media_pin_sha256: Option<String>,
    publish_ca_file: Option<PathBuf>,
    publish_pin_sha256: Option<String>,
    soap_prefix: Option<String>,
    brand_name: Option<String>,
    route_prefix: Option<String>,
    csv_bom: Option<bool>,
    csv_spreadsheet: Option<bool>,
    change_feed_versions: Option<u32>,
    change_feed_days: Option<u32>,
    media_dir: Option<PathBuf>,
    media_source: Option<String>,
    publish_target: Option<String>,
    publish_user: Option<String>,
    publish_password_file: Option<PathBuf>,
    media_download_images: Option<bool>,
    media_max_file_mb: Option<u64>,
    media_concurrency: Option<u32>,
    catalogue: Option<CatalogueLayer>,
    sync: Option<toml::Table>,
    limits: Option<toml::Table>,
}

#[derive(Deserialize, Default)]
struct CatalogueLayer {
    exhaust_genarts: Option<Vec<u32>>,
    language: Option<String>,
    countries: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Listen {
    One(String),
    Many(Vec<String>),
}

/// A setting as the config file and the environment name it, with its default, for the
/// help text, the warnings about unknown names and the documented default file.
pub struct Setting {
    /// The key in the config file (`[catalogue]` keys as `catalogue.<key>`).
    pub key: &'static str,
    pub env: &'static str,
    pub default: &'static str,
}

const fn setting(key: &'static str, env: &'static str, default: &'static str) -> Setting {
    Setting { key, env, default }
}

/// Every setting, in the order of the documented default file.
pub const SETTINGS: [Setting; 51] = [
    setting("listen", "PARTSCAT_LISTEN", "127.0.0.1:8080"),
    setting("data_dir", "PARTSCAT_DATA", "partscat-data"),
    setting("cache_mb", "PARTSCAT_CACHE_MB", "1024"),
    setting("inbox", "PARTSCAT_INBOX", "<data_dir>-inbox"),
    setting("import_wait_ms", "PARTSCAT_IMPORT_WAIT_MS", "2000"),
    setting("answer_cache_mb", "PARTSCAT_ANSWER_CACHE_MB", "128"),
    setting("trusted_proxies", "PARTSCAT_TRUSTED_PROXIES", "none"),
    setting(
        "rate_limit_per_second",
        "PARTSCAT_RATE_LIMIT_PER_SECOND",
        "0 (no limit)",
    ),
    setting(
        "admin_socket",
        "PARTSCAT_ADMIN_SOCKET",
        "<data_dir>/admin.sock",
    ),
    setting(
        "audit_retention_days",
        "PARTSCAT_AUDIT_RETENTION_DAYS",
        "365",
    ),
    setting("metrics", "PARTSCAT_METRICS", "open"),
    setting("log", "PARTSCAT_LOG", "info"),
    setting("log_format", "PARTSCAT_LOG_FORMAT", "text"),
    setting("work_budget_ms", "PARTSCAT_WORK_BUDGET_MS", "10000"),
    setting(
        "max_connections",
        "PARTSCAT_MAX_CONNECTIONS",
        "0 (from the open-file limit)",
    ),
    setting("base_url", "PARTSCAT_BASE_URL", "the request's Host"),
    setting("tls_cert", "PARTSCAT_TLS_CERT", "none (plain HTTP)"),
    setting("tls_key", "PARTSCAT_TLS_KEY", "none"),
    setting(
        "tls_self_signed",
        "PARTSCAT_TLS_SELF_SIGNED",
        "false (the packaged file: true)",
    ),
    setting("client_ca", "PARTSCAT_CLIENT_CA", "none"),
    setting("soap_prefix", "PARTSCAT_SOAP_PREFIX", "/ws/3.0"),
    setting("brand_name", "PARTSCAT_BRAND_NAME", "Parts"),
    setting("route_prefix", "PARTSCAT_ROUTE_PREFIX", "svc"),
    setting("csv_bom", "PARTSCAT_CSV_BOM", "false"),
    setting("csv_spreadsheet", "PARTSCAT_CSV_SPREADSHEET", "false"),
    setting(
        "change_feed_versions",
        "PARTSCAT_CHANGE_FEED_VERSIONS",
        "100",
    ),
    setting("change_feed_days", "PARTSCAT_CHANGE_FEED_DAYS", "30"),
    setting("deliveries_dir", "PARTSCAT_DELIVERIES_DIR", "none"),
    setting("media_dir", "PARTSCAT_MEDIA_DIR", "<data_dir>-media"),
    setting("media_source", "PARTSCAT_MEDIA_SOURCE", "none"),
    setting(
        "media_ca_file",
        "PARTSCAT_MEDIA_CA_FILE",
        "none (the system's CAs)",
    ),
    setting("media_pin_sha256", "PARTSCAT_MEDIA_PIN_SHA256", "none"),
    setting("publish_target", "PARTSCAT_PUBLISH_TARGET", "none"),
    setting("publish_user", "PARTSCAT_PUBLISH_USER", "none"),
    setting(
        "publish_password_file",
        "PARTSCAT_PUBLISH_PASSWORD_FILE",
        "none",
    ),
    setting(
        "publish_ca_file",
        "PARTSCAT_PUBLISH_CA_FILE",
        "none (the system's CAs)",
    ),
    setting("publish_pin_sha256", "PARTSCAT_PUBLISH_PIN_SHA256", "none"),
    setting(
        "media_download_images",
        "PARTSCAT_MEDIA_DOWNLOAD_IMAGES",
        "false",
    ),
    setting("media_max_file_mb", "PARTSCAT_MEDIA_MAX_FILE_MB", "50"),
    setting("media_concurrency", "PARTSCAT_MEDIA_CONCURRENCY", "4"),
    setting(
        "catalogue.exhaust_genarts",
        "PARTSCAT_EXHAUST_GENARTS",
        "4000,4010,4020,4030,4040",
    ),
    setting("catalogue.language", "PARTSCAT_CATALOGUE_LANGUAGE", "en"),
    setting(
        "catalogue.countries",
        "PARTSCAT_CATALOGUE_COUNTRIES",
        "none",
    ),
    setting("limits.text_bytes", "PARTSCAT_LIMIT_TEXT_BYTES", "512"),
    setting("limits.number_bytes", "PARTSCAT_LIMIT_NUMBER_BYTES", "64"),
    setting("limits.uri_bytes", "PARTSCAT_LIMIT_URI_BYTES", "2048"),
    setting("limits.row_bytes", "PARTSCAT_LIMIT_ROW_BYTES", "65536"),
    setting("limits.answer_mb", "PARTSCAT_LIMIT_ANSWER_MB", "64"),
    setting("limits.feed_mb", "PARTSCAT_LIMIT_FEED_MB", "8192"),
    setting(
        "limits.transfer_deadline_s",
        "PARTSCAT_LIMIT_TRANSFER_DEADLINE_S",
        "3600",
    ),
    setting(
        "limits.transfer_min_rate_kib",
        "PARTSCAT_LIMIT_TRANSFER_MIN_RATE_KIB",
        "4",
    ),
];

/// Every setting: the top level's and the tables', then `[sync]`'s.
pub fn every_setting() -> impl Iterator<Item = &'static Setting> {
    SETTINGS.iter().chain(SYNC_SETTINGS.iter())
}

/// The keys of the `[limits]` table.
const LIMIT_KEYS: [&str; 8] = {
    let mut keys = [""; 8];
    let mut i = 0;
    while i < 8 {
        keys[i] = crate::limits::LIMIT_SETTINGS[i].key;
        i += 1;
    }
    keys
};

/// The variable that names the config file (not a setting of its own).
pub const CONFIG_ENV: &str = "PARTSCAT_CONFIG";

/// The keys a config file may hold at its top level.
fn known_keys() -> Vec<&'static str> {
    let mut keys: Vec<&str> = every_setting()
        .map(|s| s.key.split('.').next().unwrap_or(s.key))
        .collect();
    keys.dedup();
    keys
}

/// The keys of a table (`catalogue`, `sync`).
fn known_table_keys(table: &str) -> Vec<&'static str> {
    every_setting()
        .filter_map(|s| s.key.strip_prefix(table)?.strip_prefix('.'))
        .collect()
}

fn known_env() -> Vec<&'static str> {
    std::iter::once(CONFIG_ENV)
        .chain(every_setting().map(|s| s.env))
        .collect()
}

/// The settings as help text: key, variable, default.
pub fn settings_help() -> String {
    let mut text = String::from(
        "Settings (config file key, environment variable, default); flags win over variables, variables over the file:\n",
    );
    for s in every_setting() {
        text.push_str(&format!("  {:<26} {:<31} {}\n", s.key, s.env, s.default));
    }
    text.push_str(&format!(
        "  The config file: --config, or {CONFIG_ENV}, or {DEFAULT_CONFIG_FILE} if it exists."
    ));
    text
}

fn parse_listen(items: &[String]) -> Result<Vec<SocketAddr>, String> {
    items
        .iter()
        .map(|s| {
            s.trim().parse().map_err(|_| {
                format!("'{s}' is not an address with a port (127.0.0.1:8080, [::1]:8080)")
            })
        })
        .collect()
}

/// Addresses or CIDR ranges: `10.0.0.5`, `10.0.0.0/24`, `::1`.
fn parse_networks(items: &[String]) -> Result<Vec<ipnet::IpNet>, String> {
    items
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<ipnet::IpNet>()
                .or_else(|_| s.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .map_err(|_| format!("'{s}' is not an address or a CIDR range (10.0.0.0/24)"))
        })
        .collect()
}

/// A number (or another value `FromStr` reads) from an environment variable, or the error
/// naming it and what it should be.
fn env_number<T: std::str::FromStr>(
    env: &impl Fn(&str) -> Option<String>,
    name: &'static str,
    what: &str,
) -> Result<Option<T>, ConfigError> {
    env(name)
        .map(|v| {
            v.trim()
                .parse()
                .map_err(|_| ConfigError::Env(name, format!("'{v}' is not {what}")))
        })
        .transpose()
}

fn parse_cache_mb(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|&mb| (16..=1 << 20).contains(&mb))
        .ok_or_else(|| format!("'{text}' is not a cache size in MiB (16 or more)"))
}

fn parse_genarts(text: &str) -> Result<Vec<u32>, String> {
    text.split(',')
        .map(|s| {
            s.trim()
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("'{s}' is not a positive integer"))
        })
        .collect()
}

/// `http(s)://host[:port][/path]`, kept without a trailing slash; empty: none.
fn parse_base_url(text: &str) -> Result<Option<String>, String> {
    let text = text.trim().trim_end_matches('/');
    if text.is_empty() {
        return Ok(None);
    }
    let rest = text
        .strip_prefix("http://")
        .or_else(|| text.strip_prefix("https://"))
        .ok_or_else(|| format!("'{text}' is not an http:// or https:// address"))?;
    if rest.is_empty() || rest.contains(char::is_whitespace) || rest.contains(['?', '#']) {
        return Err(format!(
            "'{text}' is not a base address (https://host[:port][/path])"
        ));
    }
    Ok(Some(text.to_owned()))
}

/// A path prefix of at least one segment, clear of the other routes: `/ws/3.0`.
fn parse_prefix(text: &str) -> Result<String, String> {
    let text = text.trim().trim_end_matches('/');
    let taken = [
        "/svc", "/admin", "/docs", "/openapi", "/health", "/ready", "/metrics",
    ];
    let fine = text.len() > 1
        && !taken
            .iter()
            .any(|t| text == *t || text.starts_with(&format!("{t}/")))
        && text.starts_with('/')
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-".contains(&b))
        && !text.contains("//");
    if fine {
        Ok(text.to_owned())
    } else {
        Err(format!(
            "'{text}' is not a path prefix of its own (/ws/3.0; not /svc, /admin, /docs, …)"
        ))
    }
}

/// An ISO 639-1 language code, lower case.
fn parse_language(text: &str) -> Result<String, String> {
    let code = text.trim().to_ascii_lowercase();
    if code.len() == 2 && code.bytes().all(|b| b.is_ascii_lowercase()) {
        Ok(code)
    } else {
        Err(format!(
            "'{text}' is not a language code (two letters: en, de)"
        ))
    }
}

/// An ISO 3166-1 alpha-2 country code, upper case.
fn parse_country(text: &str) -> Result<String, String> {
    let code = text.trim().to_ascii_uppercase();
    if code.len() == 2 && code.bytes().all(|b| b.is_ascii_uppercase()) {
        Ok(code)
    } else {
        Err(format!(
            "'{text}' is not a country code (two letters: DE, AT)"
        ))
    }
}

/// A brand name fit for the endpoints' names: a letter, then letters and digits.
fn parse_brand_name(text: &str) -> Result<String, String> {
    let text = text.trim();
    let fine = (1..=40).contains(&text.len())
        && text.starts_with(|c: char| c.is_ascii_alphabetic())
        && text.chars().all(|c| c.is_ascii_alphanumeric());
    if fine {
        Ok(text.to_owned())
    } else {
        Err(format!(
            "'{text}' is not a brand name for the endpoints (a letter, then letters and digits, at most 40: Parts, Tecdoc)"
        ))
    }
}

/// One path segment of its own for the V2 routes.
fn parse_route_prefix(text: &str) -> Result<String, String> {
    let text = text.trim().trim_matches('/');
    let taken = [
        "admin",
        "docs",
        "openapi.json",
        "openapi.yaml",
        "health",
        "ready",
        "metrics",
    ];
    let fine = (1..=40).contains(&text.len())
        && !taken.contains(&text)
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-".contains(&b));
    if fine {
        Ok(text.to_owned())
    } else {
        Err(format!(
            "'{text}' is not a route prefix of its own (one path segment of letters, digits, _ and -: svc, vlt; not admin, docs, …)"
        ))
    }
}

fn parse_metrics(text: &str) -> Result<MetricsAccess, String> {
    MetricsAccess::from_name(text).ok_or_else(|| format!("'{text}' is not one of open, admin, off"))
}

fn parse_retention(text: &str) -> Result<u32, String> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|&days| days >= 1)
        .ok_or_else(|| format!("'{text}' is not a number of days (1 or more)"))
}

fn at_least_one(text: &str, what: &str) -> Result<u32, String> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| format!("'{text}' is not a number of {what} (1 or more)"))
}

impl Settings {
    /// Whether the listeners speak HTTPS (`tls_cert` and `tls_key`, or `tls_self_signed`).
    pub fn https(&self) -> bool {
        self.tls_cert.is_some() || self.tls_self_signed
    }

    /// One request's work budget; `None`: no limit.
    pub fn work_budget(&self) -> Option<std::time::Duration> {
        Some(std::time::Duration::from_millis(self.work_budget_ms))
            .filter(|_| self.work_budget_ms > 0)
    }

    /// Where the admin API listens: `admin_socket`, else `admin.sock` in the data directory;
    /// `None` when `admin_socket` is set empty.
    pub fn admin_socket_path(&self) -> Option<PathBuf> {
        match &self.admin_socket {
            None => Some(self.data_dir.join("admin.sock")),
            Some(p) if p.as_os_str().is_empty() => None,
            Some(p) => Some(p.clone()),
        }
    }

    /// Builds the settings and the warnings to log once logging is up.
    pub fn load(overrides: &Overrides) -> Result<(Settings, Vec<String>), ConfigError> {
        Self::load_from(
            overrides,
            |name| std::env::var(name).ok(),
            std::env::vars().map(|(k, _)| k).collect(),
        )
    }

    fn load_from(
        overrides: &Overrides,
        env: impl Fn(&str) -> Option<String>,
        env_names: Vec<String>,
    ) -> Result<(Settings, Vec<String>), ConfigError> {
        let mut settings = Settings::default();
        let mut warnings = Vec::new();

        let explicit = overrides
            .config
            .clone()
            .or_else(|| env(CONFIG_ENV).map(PathBuf::from));
        let file = explicit
            .clone()
            .or_else(|| Some(PathBuf::from(DEFAULT_CONFIG_FILE)).filter(|p| p.exists()));
        if let Some(path) = file {
            settings.apply_file(&path, &mut warnings)?;
        }

        for name in env_names.iter().filter(|n| n.starts_with("PARTSCAT_")) {
            if !known_env().contains(&name.as_str()) {
                warnings.push(format!(
                    "environment variable {name} is not a partscat setting; known: {}",
                    known_env().join(", ")
                ));
            }
        }
        if let Some(v) = env("PARTSCAT_LISTEN") {
            let items: Vec<String> = v.split(',').map(str::to_owned).collect();
            settings.listen =
                parse_listen(&items).map_err(|e| ConfigError::Env("PARTSCAT_LISTEN", e))?;
        }
        if let Some(v) = env("PARTSCAT_DATA") {
            settings.data_dir = PathBuf::from(v);
        }
        if let Some(v) = env("PARTSCAT_LOG") {
            settings.log = v;
        }
        if let Some(v) = env("PARTSCAT_LOG_FORMAT") {
            settings.log_format =
                parse_log_format(&v).map_err(|e| ConfigError::Env("PARTSCAT_LOG_FORMAT", e))?;
        }
        if let Some(n) = env_number(&env, "PARTSCAT_WORK_BUDGET_MS", "a number of milliseconds")? {
            settings.work_budget_ms = n;
        }
        if let Some(n) = env_number(&env, "PARTSCAT_MAX_CONNECTIONS", "a number of connections")? {
            settings.max_connections = n;
        }
        if let Some(v) = env("PARTSCAT_CACHE_MB") {
            settings.cache_mb =
                parse_cache_mb(&v).map_err(|e| ConfigError::Env("PARTSCAT_CACHE_MB", e))?;
        }
        if let Some(v) = env("PARTSCAT_INBOX") {
            settings.inbox = PathBuf::from(v);
        }
        if let Some(v) = env("PARTSCAT_TLS_CERT") {
            settings.tls_cert = Some(PathBuf::from(v));
        }
        if let Some(v) = env("PARTSCAT_TLS_KEY") {
            settings.tls_key = Some(PathBuf::from(v));
        }
        if let Some(b) = env_number(&env, "PARTSCAT_TLS_SELF_SIGNED", "true or false")? {
            settings.tls_self_signed = b;
        }
        let path = |name: &str| {
            env(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        if let Some(p) = path("PARTSCAT_CLIENT_CA") {
            settings.client_ca = Some(p);
        }
        if let Some(p) = path("PARTSCAT_DELIVERIES_DIR") {
            settings.deliveries_dir = Some(p);
        }
        if let Some(p) = path("PARTSCAT_MEDIA_CA_FILE") {
            settings.media.source_trust.ca_file = Some(p);
        }
        if let Some(p) = path("PARTSCAT_PUBLISH_CA_FILE") {
            settings.media.publish_trust.ca_file = Some(p);
        }
        for (name, trust) in [
            (
                "PARTSCAT_MEDIA_PIN_SHA256",
                &mut settings.media.source_trust,
            ),
            (
                "PARTSCAT_PUBLISH_PIN_SHA256",
                &mut settings.media.publish_trust,
            ),
        ] {
            if let Some(v) = env(name) {
                trust.pin_sha256 = Some(
                    crate::outside::tls::Fingerprint::parse(&v)
                        .map_err(|e| ConfigError::Env(name, e))?,
                );
            }
        }
        if let Some(n) = env_number(&env, "PARTSCAT_IMPORT_WAIT_MS", "a number of milliseconds")? {
            settings.import_wait_ms = n;
        }
        if let Some(n) = env_number(&env, "PARTSCAT_ANSWER_CACHE_MB", "a size in MiB")? {
            settings.answer_cache_mb = n;
        }
        if let Some(v) = env("PARTSCAT_TRUSTED_PROXIES") {
            let items: Vec<String> = v.split(',').map(str::to_owned).collect();
            settings.trusted_proxies = parse_networks(&items)
                .map_err(|e| ConfigError::Env("PARTSCAT_TRUSTED_PROXIES", e))?;
        }
        if let Some(n) = env_number(
            &env,
            "PARTSCAT_RATE_LIMIT_PER_SECOND",
            "a number of requests a second",
        )? {
            settings.rate_limit_per_second = n;
        }
        if let Some(v) = env("PARTSCAT_ADMIN_SOCKET") {
            settings.admin_socket = Some(PathBuf::from(v));
        }
        if let Some(v) = env("PARTSCAT_AUDIT_RETENTION_DAYS") {
            settings.audit_retention_days = parse_retention(&v)
                .map_err(|e| ConfigError::Env("PARTSCAT_AUDIT_RETENTION_DAYS", e))?;
        }
        if let Some(v) = env("PARTSCAT_METRICS") {
            settings.metrics =
                parse_metrics(&v).map_err(|e| ConfigError::Env("PARTSCAT_METRICS", e))?;
        }
        if let Some(v) = env("PARTSCAT_BASE_URL") {
            settings.base_url =
                parse_base_url(&v).map_err(|e| ConfigError::Env("PARTSCAT_BASE_URL", e))?;
        }
        if let Some(v) = env("PARTSCAT_SOAP_PREFIX") {
            settings.soap_prefix =
                parse_prefix(&v).map_err(|e| ConfigError::Env("PARTSCAT_SOAP_PREFIX", e))?;
        }
        if let Some(v) = env("PARTSCAT_BRAND_NAME") {
            settings.brand_name =
                parse_brand_name(&v).map_err(|e| ConfigError::Env("PARTSCAT_BRAND_NAME", e))?;
        }
        if let Some(v) = env("PARTSCAT_ROUTE_PREFIX") {
            settings.route_prefix =
                parse_route_prefix(&v).map_err(|e| ConfigError::Env("PARTSCAT_ROUTE_PREFIX", e))?;
        }
        if let Some(b) = env_number(&env, "PARTSCAT_CSV_BOM", "true or false")? {
            settings.csv_bom = b;
        }
        if let Some(b) = env_number(&env, "PARTSCAT_CSV_SPREADSHEET", "true or false")? {
            settings.csv_spreadsheet = b;
        }
        if let Some(v) = env("PARTSCAT_EXHAUST_GENARTS") {
            settings.exhaust_genarts =
                parse_genarts(&v).map_err(|e| ConfigError::Env("PARTSCAT_EXHAUST_GENARTS", e))?;
        }
        if let Some(v) = env("PARTSCAT_CATALOGUE_LANGUAGE") {
            settings.catalogue_language = parse_language(&v)
                .map_err(|e| ConfigError::Env("PARTSCAT_CATALOGUE_LANGUAGE", e))?;
        }
        if let Some(v) = env("PARTSCAT_CATALOGUE_COUNTRIES") {
            settings.catalogue_countries = v
                .split(',')
                .filter(|c| !c.trim().is_empty())
                .map(parse_country)
                .collect::<Result<_, _>>()
                .map_err(|e| ConfigError::Env("PARTSCAT_CATALOGUE_COUNTRIES", e))?;
        }
        if let Some(v) = env("PARTSCAT_CHANGE_FEED_VERSIONS") {
            settings.change_feed.versions = at_least_one(&v, "data versions")
                .map_err(|e| ConfigError::Env("PARTSCAT_CHANGE_FEED_VERSIONS", e))?;
        }
        if let Some(v) = env("PARTSCAT_CHANGE_FEED_DAYS") {
            settings.change_feed.days = at_least_one(&v, "days")
                .map_err(|e| ConfigError::Env("PARTSCAT_CHANGE_FEED_DAYS", e))?;
        }
        let text = |name: &str| {
            env(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        for setting in &SYNC_SETTINGS {
            if let Some(v) = env(setting.env) {
                let key = setting.key.trim_start_matches("sync.");
                settings
                    .sync
                    .set(key, &v)
                    .map_err(|e| ConfigError::Env(setting.env, e))?;
            }
        }
        settings.sync.check().map_err(ConfigError::Sync)?;
        for limit in &crate::limits::LIMIT_SETTINGS {
            if let Some(v) = env(limit.env) {
                settings
                    .limits
                    .set(limit.key, &v)
                    .map_err(|e| ConfigError::Env(limit.env, e))?;
            }
        }
        if let Some(v) = env("PARTSCAT_MEDIA_DIR") {
            settings.media.dir = PathBuf::from(v);
        }
        if let Some(v) = text("PARTSCAT_MEDIA_SOURCE") {
            settings.media.source = Some(v);
        }
        if let Some(v) = text("PARTSCAT_PUBLISH_TARGET") {
            settings.media.publish_target = Some(v);
        }
        if let Some(v) = text("PARTSCAT_PUBLISH_USER") {
            settings.media.publish_user = Some(v);
        }
        if let Some(v) = text("PARTSCAT_PUBLISH_PASSWORD_FILE") {
            settings.media.publish_password_file = Some(PathBuf::from(v));
        }
        if let Some(b) = env_number(&env, "PARTSCAT_MEDIA_DOWNLOAD_IMAGES", "true or false")? {
            settings.media.download_images = b;
        }
        if let Some(v) = env("PARTSCAT_MEDIA_MAX_FILE_MB") {
            settings.media.max_file_mb = u64::from(
                at_least_one(&v, "MiB")
                    .map_err(|e| ConfigError::Env("PARTSCAT_MEDIA_MAX_FILE_MB", e))?,
            );
        }
        if let Some(v) = env("PARTSCAT_MEDIA_CONCURRENCY") {
            settings.media.concurrency = at_least_one(&v, "downloads")
                .map_err(|e| ConfigError::Env("PARTSCAT_MEDIA_CONCURRENCY", e))?;
        }

        if !overrides.listen.is_empty() {
            settings.listen = overrides.listen.clone();
        }
        if let Some(d) = &overrides.data_dir {
            settings.data_dir = d.clone();
        }
        if let Some(d) = &overrides.inbox {
            settings.inbox = d.clone();
        }
        if let Some(f) = &overrides.tls_cert {
            settings.tls_cert = Some(f.clone());
        }
        if let Some(f) = &overrides.tls_key {
            settings.tls_key = Some(f.clone());
        }
        if settings.tls_cert.is_some() != settings.tls_key.is_some() {
            return Err(ConfigError::Tls(
                "tls_cert and tls_key go together: set both (HTTPS) or neither (plain HTTP)".into(),
            ));
        }
        if settings.inbox.as_os_str().is_empty() {
            settings.inbox = default_inbox(&settings.data_dir);
        }
        if settings.media.dir.as_os_str().is_empty() {
            settings.media.dir = beside(&settings.data_dir, "media");
        }
        // Relative to where `serve` was started: made absolute once, so the log and the errors
        // name the directory that is read.
        settings.inbox = std::path::absolute(&settings.inbox).unwrap_or(settings.inbox);
        Ok((settings, warnings))
    }

    fn apply_file(&mut self, path: &Path, warnings: &mut Vec<String>) -> Result<(), ConfigError> {
        let fail = |m: String| ConfigError::File(path.into(), m);
        let text =
            std::fs::read_to_string(path).map_err(|e| fail(format!("cannot be read: {e}")))?;
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| fail(e.to_string()))?;
        for key in table.keys().filter(|k| !known_keys().contains(&k.as_str())) {
            warnings.push(format!(
                "config file {}: unknown key '{key}' is ignored; known keys: {}",
                path.display(),
                known_keys().join(", ")
            ));
        }
        for name in ["catalogue", "sync", "limits"] {
            let Some(toml::Value::Table(t)) = table.get(name) else {
                continue;
            };
            let known = known_table_keys(name);
            for key in t.keys().filter(|k| !known.contains(&k.as_str())) {
                warnings.push(format!(
                    "config file {}: unknown key '{name}.{key}' is ignored; known keys: {}",
                    path.display(),
                    known.join(", ")
                ));
            }
        }
        let layer: FileLayer = toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| fail(e.to_string()))?;
        if let Some(listen) = layer.listen {
            let items = match listen {
                Listen::One(s) => vec![s],
                Listen::Many(v) => v,
            };
            self.listen = parse_listen(&items).map_err(|e| fail(format!("listen: {e}")))?;
        }
        if let Some(d) = layer.data_dir {
            self.data_dir = d;
        }
        if let Some(d) = layer.inbox {
            self.inbox = d;
        }
        if let Some(f) = layer.tls_cert {
            self.tls_cert = Some(f);
        }
        if let Some(f) = layer.tls_key {
            self.tls_key = Some(f);
        }
        if let Some(b) = layer.tls_self_signed {
            self.tls_self_signed = b;
        }
        let path = |p: Option<PathBuf>| p.filter(|p| !p.as_os_str().is_empty());
        if let Some(p) = path(layer.client_ca) {
            self.client_ca = Some(p);
        }
        if let Some(p) = path(layer.deliveries_dir) {
            self.deliveries_dir = Some(p);
        }
        if let Some(p) = path(layer.media_ca_file) {
            self.media.source_trust.ca_file = Some(p);
        }
        if let Some(p) = path(layer.publish_ca_file) {
            self.media.publish_trust.ca_file = Some(p);
        }
        for (key, pin, trust) in [
            (
                "media_pin_sha256",
                layer.media_pin_sha256,
                &mut self.media.source_trust,
            ),
            (
                "publish_pin_sha256",
                layer.publish_pin_sha256,
                &mut self.media.publish_trust,
            ),
        ] {
            if let Some(pin) = pin.filter(|p| !p.trim().is_empty()) {
                trust.pin_sha256 = Some(
                    crate::outside::tls::Fingerprint::parse(&pin)
                        .map_err(|e| fail(format!("{key}: {e}")))?,
                );
            }
        }
        if let Some(items) = layer.trusted_proxies {
            self.trusted_proxies =
                parse_networks(&items).map_err(|e| fail(format!("trusted_proxies: {e}")))?;
        }
        if let Some(p) = layer.admin_socket {
            self.admin_socket = Some(p);
        }
        if let Some(days) = layer.audit_retention_days {
            self.audit_retention_days = parse_retention(&days.to_string())
                .map_err(|e| fail(format!("audit_retention_days: {e}")))?;
        }
        if let Some(u) = layer.base_url {
            self.base_url = parse_base_url(&u).map_err(|e| fail(format!("base_url: {e}")))?;
        }
        if let Some(p) = layer.soap_prefix {
            self.soap_prefix = parse_prefix(&p).map_err(|e| fail(format!("soap_prefix: {e}")))?;
        }
        if let Some(b) = layer.brand_name {
            self.brand_name = parse_brand_name(&b).map_err(|e| fail(format!("brand_name: {e}")))?;
        }
        if let Some(p) = layer.route_prefix {
            self.route_prefix =
                parse_route_prefix(&p).map_err(|e| fail(format!("route_prefix: {e}")))?;
        }
        if let Some(b) = layer.csv_bom {
            self.csv_bom = b;
        }
        if let Some(b) = layer.csv_spreadsheet {
            self.csv_spreadsheet = b;
        }
        if let Some(m) = layer.metrics {
            self.metrics = parse_metrics(&m).map_err(|e| fail(format!("metrics: {e}")))?;
        }
        if let Some(n) = layer.rate_limit_per_second {
            self.rate_limit_per_second = n;
        }
        if let Some(mb) = layer.answer_cache_mb {
            self.answer_cache_mb = mb;
        }
        if let Some(ms) = layer.import_wait_ms {
            self.import_wait_ms = ms;
        }
        if let Some(l) = layer.log {
            self.log = l;
        }
        if let Some(f) = layer.log_format {
            self.log_format = parse_log_format(&f).map_err(|e| fail(format!("log_format: {e}")))?;
        }
        if let Some(ms) = layer.work_budget_ms {
            self.work_budget_ms = ms;
        }
        if let Some(n) = layer.max_connections {
            self.max_connections = n;
        }
        if let Some(mb) = layer.cache_mb {
            self.cache_mb =
                parse_cache_mb(&mb.to_string()).map_err(|e| fail(format!("cache_mb: {e}")))?;
        }
        if let Some(catalogue) = layer.catalogue {
            if let Some(g) = catalogue.exhaust_genarts {
                self.exhaust_genarts = g;
            }
            if let Some(l) = catalogue.language {
                self.catalogue_language =
                    parse_language(&l).map_err(|e| fail(format!("catalogue.language: {e}")))?;
            }
            if let Some(c) = catalogue.countries {
                self.catalogue_countries = c
                    .iter()
                    .map(|c| parse_country(c))
                    .collect::<Result<_, _>>()
                    .map_err(|e| fail(format!("catalogue.countries: {e}")))?;
            }
        }
        if let Some(n) = layer.change_feed_versions {
            self.change_feed.versions = at_least_one(&n.to_string(), "data versions")
                .map_err(|e| fail(format!("change_feed_versions: {e}")))?;
        }
        if let Some(n) = layer.change_feed_days {
            self.change_feed.days = at_least_one(&n.to_string(), "days")
                .map_err(|e| fail(format!("change_feed_days: {e}")))?;
        }
        let text = |v: Option<String>| v.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty());
        if let Some(d) = layer.media_dir {
            self.media.dir = d;
        }
        if let Some(v) = text(layer.media_source) {
            self.media.source = Some(v);
        }
        if let Some(v) = text(layer.publish_target) {
            self.media.publish_target = Some(v);
        }
        if let Some(v) = text(layer.publish_user) {
            self.media.publish_user = Some(v);
        }
        if let Some(f) = layer.publish_password_file {
            self.media.publish_password_file = Some(f);
        }
        if let Some(b) = layer.media_download_images {
            self.media.download_images = b;
        }
        if let Some(n) = layer.media_max_file_mb {
            self.media.max_file_mb = u64::from(
                at_least_one(&n.to_string(), "MiB")
                    .map_err(|e| fail(format!("media_max_file_mb: {e}")))?,
            );
        }
        if let Some(n) = layer.media_concurrency {
            self.media.concurrency = at_least_one(&n.to_string(), "downloads")
                .map_err(|e| fail(format!("media_concurrency: {e}")))?;
        }
        for (key, value) in layer.limits.unwrap_or_default() {
            if LIMIT_KEYS.contains(&key.as_str()) {
                self.limits
                    .set(&key, &value.to_string())
                    .map_err(|e| fail(format!("limits.{key}: {e}")))?;
            }
        }
        for (key, value) in layer.sync.unwrap_or_default() {
            let text = match value {
                toml::Value::String(s) => s,
                other => other.to_string(),
            };
            if known_table_keys("sync").contains(&key.as_str()) {
                self.sync
                    .set(&key, &text)
                    .map_err(|e| fail(format!("sync.{key}: {e}")))?;
            }
        }
        if self.listen.is_empty() {
            return Err(fail("listen: at least one address is needed".into()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn load(
        file: Option<&str>,
        env: &[(&str, &str)],
        overrides: Overrides,
    ) -> Result<(Settings, Vec<String>), ConfigError> {
        let dir = tempfile::tempdir().unwrap();
        let mut overrides = overrides;
        if let Some(text) = file {
            let path = dir.path().join("partscat.toml");
            std::fs::write(&path, text).unwrap();
            overrides.config = Some(path);
        }
        let env: HashMap<String, String> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let names = env.keys().cloned().collect();
        Settings::load_from(&overrides, |n| env.get(n).cloned(), names)
    }

    #[test]
    fn layers_apply_in_order() {
        let file = "listen = [\"127.0.0.1:9000\", \"[::1]:9000\"]\ndata_dir = \"/srv/a\"\ncache_mb = 256\n[catalogue]\nexhaust_genarts = [1, 2]\n";
        let (s, w) = load(Some(file), &[], Overrides::default()).unwrap();
        assert_eq!(s.listen.len(), 2);
        assert_eq!(s.data_dir, PathBuf::from("/srv/a"));
        assert_eq!(s.exhaust_genarts, vec![1, 2]);
        assert_eq!(s.cache_mb, 256);
        assert!(w.is_empty());

        let (s, _) = load(
            Some(file),
            &[("PARTSCAT_DATA", "/srv/b")],
            Overrides::default(),
        )
        .unwrap();
        assert_eq!(s.data_dir, PathBuf::from("/srv/b"));

        let flags = Overrides {
            data_dir: Some("/srv/c".into()),
            listen: vec!["127.0.0.1:1".parse().unwrap()],
            config: None,
            ..Overrides::default()
        };
        let (s, _) = load(Some(file), &[("PARTSCAT_DATA", "/srv/b")], flags).unwrap();
        assert_eq!(s.data_dir, PathBuf::from("/srv/c"));
        assert_eq!(s.listen, vec!["127.0.0.1:1".parse().unwrap()]);
        assert_eq!(s.inbox, PathBuf::from("/srv/c-inbox"));

        let flags = Overrides {
            inbox: Some("drop".into()),
            ..Overrides::default()
        };
        let (s, _) = load(None, &[], flags).unwrap();
        assert!(s.inbox.is_absolute(), "{}", s.inbox.display());
        assert!(s.inbox.ends_with("drop"));
    }

    #[test]
    fn the_documented_default_file_names_every_setting_and_its_variable() {
        let text = include_str!("../../packaging/partscat.toml");
        for setting in every_setting() {
            let key = setting.key.rsplit('.').next().unwrap_or(setting.key);
            let set = text
                .lines()
                .any(|l| l.trim_start_matches("# ").starts_with(&format!("{key} = ")));
            assert!(set, "{key} is not in packaging/partscat.toml");
            assert!(text.contains(setting.env), "{} is not named", setting.env);
        }
        assert!(text.contains(CONFIG_ENV));
        let (settings, warnings) = load(Some(text), &[], Overrides::default()).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(settings.inbox, PathBuf::from("/var/spool/partscat/inbox"));
    }

    #[test]
    fn unknown_settings_are_warned_about() {
        let (_, w) = load(
            Some("data_dri = \"x\"\n"),
            &[("PARTSCAT_DAT", "y")],
            Overrides::default(),
        )
        .unwrap();
        assert!(w.iter().any(|m| m.contains("data_dri")), "{w:?}");
        assert!(w.iter().any(|m| m.contains("PARTSCAT_DAT")), "{w:?}");
    }

    #[test]
    fn bad_values_name_the_setting() {
        let e = load(Some("listen = \"nowhere\"\n"), &[], Overrides::default()).unwrap_err();
        assert!(e.to_string().contains("listen"), "{e}");
        let e = load(
            None,
            &[("PARTSCAT_LISTEN", "1.2.3.4")],
            Overrides::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("PARTSCAT_LISTEN"), "{e}");
        assert!(load(Some("listen = ["), &[], Overrides::default()).is_err());
        let e = load(None, &[("PARTSCAT_CACHE_MB", "1")], Overrides::default()).unwrap_err();
        assert!(e.to_string().contains("PARTSCAT_CACHE_MB"), "{e}");
    }
}
