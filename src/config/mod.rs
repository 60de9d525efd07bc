//! Settings, layered: built-in defaults, then the TOML file, then `PARTSCAT_*` environment
//! variables, then command-line flags. Each setting is declared once, in `table.rs` (`[sync]`'s
//! in `sync.rs`), and both layers set it through its row. Unknown keys and variables are warned
//! about, since a misspelt setting that silently does nothing is the hardest kind of mistake to
//! find.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

mod file;
mod keys;
mod setting;
mod sync;
mod table;
mod values;
pub use keys::{every_setting, settings_help};
pub use sync::SyncSettings;
pub use table::{SETTINGS, Setting};

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
    /// The languages of the catalogue's texts (ISO 639-1 or TecDoc's own two-letter codes),
    /// in fallback order; the first is the default.
    pub catalogue_languages: Vec<String>,
    /// Whether `catalogue_languages` was set: only then do imports leave out the texts of
    /// other languages (unset, they keep every language the files bring).
    pub catalogue_languages_set: bool,
    /// The countries the catalogue is for (ISO 3166-1 alpha-2).
    pub catalogue_countries: Vec<String>,
    /// The web origins (`https://shop.example.com`) whose pages may call the Pegasus
    /// endpoints from a browser (CORS); none: no page of another origin may.
    pub cors_origins: Vec<String>,
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
            catalogue_languages: vec!["en".into()],
            catalogue_languages_set: false,
            catalogue_countries: Vec::new(),
            cors_origins: Vec::new(),
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
    Settings(String),
    #[error("config file {0}: {1}")]
    File(PathBuf, String),
    #[error("environment variable {0}: {1}")]
    Env(&'static str, String),
    #[error("settings [sync]: {0}")]
    Sync(String),
}

/// The variable that names the config file (not a setting of its own).
pub const CONFIG_ENV: &str = "PARTSCAT_CONFIG";

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

        let file = overrides
            .config
            .clone()
            .or_else(|| env(CONFIG_ENV).map(PathBuf::from))
            .or_else(|| Some(PathBuf::from(DEFAULT_CONFIG_FILE)).filter(|p| p.exists()));
        if let Some(path) = file {
            for (setting, text) in file::read(&path, &mut warnings)? {
                (setting.set)(&mut settings, &text).map_err(|e| {
                    ConfigError::File(path.clone(), format!("{}: {e}", setting.key))
                })?;
            }
        }

        let known = keys::known_env();
        for name in env_names.iter().filter(|n| n.starts_with("PARTSCAT_")) {
            if !known.contains(&name.as_str()) {
                warnings.push(format!(
                    "environment variable {name} is not a partscat setting; known: {}",
                    known.join(", ")
                ));
            }
        }
        for setting in every_setting() {
            if let Some(text) = env(setting.env) {
                (setting.set)(&mut settings, &text)
                    .map_err(|e| ConfigError::Env(setting.env, e))?;
            }
        }
        settings.sync.check().map_err(ConfigError::Sync)?;

        settings.apply(overrides);
        settings.complete()?;
        Ok((settings, warnings))
    }

    /// The flags, over every other layer.
    fn apply(&mut self, overrides: &Overrides) {
        if !overrides.listen.is_empty() {
            self.listen = overrides.listen.clone();
        }
        if let Some(d) = &overrides.data_dir {
            self.data_dir = d.clone();
        }
        if let Some(d) = &overrides.inbox {
            self.inbox = d.clone();
        }
        if let Some(f) = &overrides.tls_cert {
            self.tls_cert = Some(f.clone());
        }
        if let Some(f) = &overrides.tls_key {
            self.tls_key = Some(f.clone());
        }
    }

    /// Checks what only the layers together decide, and fills in the directories beside the
    /// store that were left unset.
    fn complete(&mut self) -> Result<(), ConfigError> {
        if self.listen.is_empty() {
            return Err(ConfigError::Settings(
                "listen: at least one address is needed".into(),
            ));
        }
        if self.tls_cert.is_some() != self.tls_key.is_some() {
            return Err(ConfigError::Settings(
                "tls_cert and tls_key go together: set both (HTTPS) or neither (plain HTTP)".into(),
            ));
        }
        if self.inbox.as_os_str().is_empty() {
            self.inbox = default_inbox(&self.data_dir);
        }
        if self.media.dir.as_os_str().is_empty() {
            self.media.dir = beside(&self.data_dir, "media");
        }
        // Relative to where `serve` was started: made absolute once, so the log and the errors
        // name the directory that is read.
        self.inbox = std::path::absolute(&self.inbox).unwrap_or(self.inbox.clone());
        Ok(())
    }
}

#[cfg(test)]
mod tests;
