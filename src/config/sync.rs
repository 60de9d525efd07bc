//! The `[sync]` settings: where `syncTecdoc` takes the catalogue from (another partscat, a
//! folder of deliveries on disk or served over HTTP(S)), as whom, whom it trusts, and how
//! often. Each row below is the one place its setting is read, from the config file's `[sync]`
//! table and from its `PARTSCAT_SYNC_*` variable alike.

use std::path::PathBuf;
use std::time::Duration;

use super::setting::{Setting, setting};
use super::values::{boolean, parse_base_url, parse_pin, path, text};
use crate::outside::tls::Trust;

/// The upstream `syncTecdoc` follows.
#[derive(Debug, Clone, PartialEq)]
pub struct SyncSettings {
    /// The upstream partscat's base address (`https://central.example.com:8443`).
    pub upstream: Option<String>,
    /// The provider the upstream knows this appliance as (with the `sync` scope).
    pub provider: Option<String>,
    pub api_key: Option<String>,
    /// A file holding the key (its first line), readable by the service only.
    pub api_key_file: Option<PathBuf>,
    /// Unattended syncs of every data set, this often; unset: only when asked.
    pub interval: Option<Duration>,
    /// Follow the upstream continuously: wait on its feed and take each change as it comes.
    pub follow: bool,
    /// How long one request of a follower waits on the feed for a newer version.
    pub follow_wait: Duration,
    /// A directory of deliveries, one subdirectory each, named so that they sort by date.
    pub source_dir: Option<PathBuf>,
    /// The same served over HTTP(S) (`https://cdn.example.com/partscat/deliveries/`), as an
    /// upstream's `deliveries_dir` is published.
    pub source_url: Option<String>,
    /// Whom HTTPS to the upstream trusts, and the certificate this appliance presents.
    pub trust: Trust,
}

impl Default for SyncSettings {
    fn default() -> Self {
        SyncSettings {
            upstream: None,
            provider: None,
            api_key: None,
            api_key_file: None,
            interval: None,
            follow: false,
            follow_wait: Duration::from_secs(60),
            source_dir: None,
            source_url: None,
            trust: Trust::default(),
        }
    }
}

/// The `[sync]` settings, in the order of the documented default file.
pub const SYNC_SETTINGS: [Setting; 13] = [
    setting("sync.upstream", "PARTSCAT_SYNC_UPSTREAM", "none", |s, t| {
        s.sync.upstream = parse_base_url(t)?;
        Ok(())
    }),
    setting("sync.provider", "PARTSCAT_SYNC_PROVIDER", "none", |s, t| {
        s.sync.provider = text(t);
        Ok(())
    }),
    setting("sync.api_key", "PARTSCAT_SYNC_API_KEY", "none", |s, t| {
        s.sync.api_key = text(t);
        Ok(())
    }),
    setting(
        "sync.api_key_file",
        "PARTSCAT_SYNC_API_KEY_FILE",
        "none",
        |s, t| {
            s.sync.api_key_file = path(t);
            Ok(())
        },
    ),
    setting(
        "sync.interval",
        "PARTSCAT_SYNC_INTERVAL",
        "none (only when asked)",
        |s, t| {
            s.sync.interval = parse_interval(t.trim())?;
            Ok(())
        },
    ),
    setting("sync.follow", "PARTSCAT_SYNC_FOLLOW", "false", |s, t| {
        s.sync.follow = boolean(t)?;
        Ok(())
    }),
    setting(
        "sync.follow_wait_s",
        "PARTSCAT_SYNC_FOLLOW_WAIT_S",
        "60",
        |s, t| {
            s.sync.follow_wait = parse_follow_wait(t.trim())?;
            Ok(())
        },
    ),
    setting(
        "sync.source_dir",
        "PARTSCAT_SYNC_SOURCE_DIR",
        "none",
        |s, t| {
            s.sync.source_dir = path(t);
            Ok(())
        },
    ),
    setting(
        "sync.source_url",
        "PARTSCAT_SYNC_SOURCE_URL",
        "none",
        |s, t| {
            s.sync.source_url = parse_base_url(t)?;
            Ok(())
        },
    ),
    setting(
        "sync.ca_file",
        "PARTSCAT_SYNC_CA_FILE",
        "none (the system's CAs)",
        |s, t| {
            s.sync.trust.ca_file = path(t);
            Ok(())
        },
    ),
    setting(
        "sync.pin_sha256",
        "PARTSCAT_SYNC_PIN_SHA256",
        "none",
        |s, t| {
            s.sync.trust.pin_sha256 = parse_pin(t)?;
            Ok(())
        },
    ),
    setting(
        "sync.client_cert",
        "PARTSCAT_SYNC_CLIENT_CERT",
        "none",
        |s, t| {
            s.sync.trust.client_cert = path(t);
            Ok(())
        },
    ),
    setting(
        "sync.client_key",
        "PARTSCAT_SYNC_CLIENT_KEY",
        "none",
        |s, t| {
            s.sync.trust.client_key = path(t);
            Ok(())
        },
    ),
];

impl SyncSettings {
    /// The settings that contradict each other.
    pub fn check(&self) -> Result<(), String> {
        let sources = [
            self.upstream.is_some(),
            self.source_dir.is_some(),
            self.source_url.is_some(),
        ];
        if sources.iter().filter(|s| **s).count() > 1 {
            return Err(
                "more than one of upstream, source_dir and source_url is set; name one source"
                    .into(),
            );
        }
        if self.api_key.is_some() && self.api_key_file.is_some() {
            return Err("api_key and api_key_file are both set; give the key one way".into());
        }
        if self.upstream.is_some() && self.provider.is_none() {
            return Err("upstream is set without provider: name the provider the upstream knows this appliance as".into());
        }
        if self.trust.client_cert.is_some() != self.trust.client_key.is_some() {
            return Err("client_cert and client_key go together: set both or neither".into());
        }
        if self.follow && self.upstream.is_none() && self.source_url.is_none() {
            return Err(
                "follow is set without upstream or source_url: there is nothing to follow".into(),
            );
        }
        Ok(())
    }
}

/// The longest a follower waits on its upstream's feed in one request.
pub const MAX_WAIT_S: u64 = 300;

/// Seconds from 1 to `MAX_WAIT_S`.
fn parse_follow_wait(text: &str) -> Result<Duration, String> {
    text.parse::<u64>()
        .ok()
        .filter(|s| (1..=MAX_WAIT_S).contains(s))
        .map(Duration::from_secs)
        .ok_or_else(|| format!("'{text}' is not a number of seconds from 1 to {MAX_WAIT_S}"))
}

/// `90` or `90s`, `15m`, `6h`, `1d`; empty: none. At least a minute.
fn parse_interval(text: &str) -> Result<Option<Duration>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    let (number, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let seconds = match unit.trim() {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => 0,
    };
    number
        .parse::<u64>()
        .ok()
        .map(|n| n.saturating_mul(seconds))
        .filter(|&s| s >= 60)
        .map(|s| Some(Duration::from_secs(s)))
        .ok_or_else(|| {
            format!("'{text}' is not an interval of a minute or more (90s, 15m, 6h, 1d)")
        })
}
