//! The settings' values read from text: the config file's value written as text, or the
//! environment variable's. Each parser names what it expected, so that the error can name the
//! setting and the value.

use std::net::SocketAddr;
use std::path::PathBuf;

use super::{LogFormat, MetricsAccess};

/// Trimmed text; empty: unset.
pub(super) fn text(text: &str) -> Option<String> {
    Some(text.trim().to_owned()).filter(|t| !t.is_empty())
}

/// A path; empty: unset.
pub(super) fn path(text: &str) -> Option<PathBuf> {
    self::text(text).map(PathBuf::from)
}

/// A comma-separated list (a file's array arrives as one), without empty items.
pub(super) fn list(text: &str) -> impl Iterator<Item = &str> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty())
}

pub(super) fn boolean(text: &str) -> Result<bool, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("'{}' is not true or false", text.trim()))
}

/// A number (or another value `FromStr` reads), or the error saying what it should be.
pub(super) fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("'{}' is not {what}", text.trim()))
}

pub(super) fn parse_log_format(text: &str) -> Result<LogFormat, String> {
    match text.trim() {
        "text" => Ok(LogFormat::Text),
        "json" => Ok(LogFormat::Json),
        _ => Err(format!("'{text}' is not one of text, json")),
    }
}

/// One address or several (`127.0.0.1:8080,[::1]:8080`).
pub(super) fn parse_listen(text: &str) -> Result<Vec<SocketAddr>, String> {
    list(text)
        .map(|s| {
            s.parse().map_err(|_| {
                format!("'{s}' is not an address with a port (127.0.0.1:8080, [::1]:8080)")
            })
        })
        .collect()
}

/// Addresses or CIDR ranges: `10.0.0.5`, `10.0.0.0/24`, `::1`.
pub(super) fn parse_networks(text: &str) -> Result<Vec<ipnet::IpNet>, String> {
    list(text)
        .map(|s| {
            s.parse::<ipnet::IpNet>()
                .or_else(|_| s.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .map_err(|_| format!("'{s}' is not an address or a CIDR range (10.0.0.0/24)"))
        })
        .collect()
}

/// Web origins as browsers send them: `http(s)://host[:port]`, lower case, no path; `none`:
/// none.
pub(super) fn parse_origins(text: &str) -> Result<Vec<String>, String> {
    list(text)
        .filter(|s| *s != "none")
        .map(|s| {
            let origin = s.trim_end_matches('/').to_ascii_lowercase();
            let host = origin
                .strip_prefix("https://")
                .or_else(|| origin.strip_prefix("http://"));
            match host {
                Some(h) if !h.is_empty() && !h.contains(['/', '?', '#', '@', ' ']) => Ok(origin),
                _ => Err(format!(
                    "'{s}' is not a web origin (https://shop.example.com, http://10.0.0.5:8080)"
                )),
            }
        })
        .collect()
}

pub(super) fn parse_cache_mb(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|&mb| (16..=1 << 20).contains(&mb))
        .ok_or_else(|| format!("'{text}' is not a cache size in MiB (16 or more)"))
}

pub(super) fn parse_genarts(text: &str) -> Result<Vec<u32>, String> {
    list(text)
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
pub(super) fn parse_base_url(text: &str) -> Result<Option<String>, String> {
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
pub(super) fn parse_prefix(text: &str) -> Result<String, String> {
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

/// Two-letter language codes (ISO 639-1, or TecDoc's own such as `qd`), lower case, none
/// twice, at least one.
pub(super) fn parse_languages(text: &str) -> Result<Vec<String>, String> {
    let codes = list(text)
        .map(parse_language)
        .collect::<Result<Vec<_>, _>>()?;
    if codes.is_empty() {
        return Err("no language given: the catalogue holds its texts in at least one".into());
    }
    if let Some(twice) = codes
        .iter()
        .enumerate()
        .find(|(at, c)| codes[..*at].contains(c))
    {
        return Err(format!("'{}' is given twice", twice.1));
    }
    Ok(codes)
}

/// A two-letter language code, lower case.
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
pub(super) fn parse_country(text: &str) -> Result<String, String> {
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
pub(super) fn parse_brand_name(text: &str) -> Result<String, String> {
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
pub(super) fn parse_route_prefix(text: &str) -> Result<String, String> {
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

pub(super) fn parse_metrics(text: &str) -> Result<MetricsAccess, String> {
    MetricsAccess::from_name(text).ok_or_else(|| format!("'{text}' is not one of open, admin, off"))
}

pub(super) fn parse_retention(text: &str) -> Result<u32, String> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|&days| days >= 1)
        .ok_or_else(|| format!("'{text}' is not a number of days (1 or more)"))
}

pub(super) fn at_least_one(text: &str, what: &str) -> Result<u32, String> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| format!("'{text}' is not a number of {what} (1 or more)"))
}

/// Countries, comma-separated (`DE,AT`).
pub(super) fn parse_countries(text: &str) -> Result<Vec<String>, String> {
    list(text).map(parse_country).collect()
}

/// A certificate's SHA-256 fingerprint; empty: none.
pub(super) fn parse_pin(text: &str) -> Result<Option<crate::outside::tls::Fingerprint>, String> {
    self::text(text)
        .map(|t| crate::outside::tls::Fingerprint::parse(&t))
        .transpose()
}
