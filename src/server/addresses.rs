//! Where a new appliance is reached, printed when it starts: the UI, the OpenAPI document,
//! both WSDLs and the import inbox, so the first hour starts from working addresses; and
//! where a request reached it, for the addresses its answer gives.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use poem::Request;
use poem::http::header;

use super::AppState;
use crate::config::Settings;

/// The base URL clients use: the configured `base_url`, else the first listen address (a
/// wildcard address shown as loopback, which works on the appliance itself).
pub fn base_url(settings: &Settings) -> String {
    if let Some(base) = &settings.base_url {
        return base.clone();
    }
    let scheme = if settings.https() { "https" } else { "http" };
    match settings.listen.first() {
        Some(address) => format!("{scheme}://{}", reachable(*address)),
        None => format!("{scheme}://localhost"),
    }
}

/// Where the endpoints are reached (`{base}{soap_prefix}`, before `/services/…` and
/// `/documents/…`): the configured base URL, else the client's `Host`.
pub fn endpoints_base(state: &AppState, req: &Request) -> String {
    let base = match &state.settings.base_url {
        Some(base) => base.clone(),
        None => {
            let host = req
                .headers()
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .filter(|h| !h.is_empty() && !h.contains(['/', ' ', '"', '<']))
                .map(str::to_owned)
                .or_else(|| state.settings.listen.first().map(|a| a.to_string()))
                .unwrap_or_else(|| "localhost".into());
            let scheme = if state.settings.https() {
                "https"
            } else {
                "http"
            };
            format!("{scheme}://{host}")
        }
    };
    format!("{base}{}", state.settings.soap_prefix)
}

fn reachable(address: SocketAddr) -> SocketAddr {
    let ip = match address.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, address.port())
}

/// One line per address a user or a client starts from, labelled.
pub fn startup_lines(settings: &Settings) -> Vec<String> {
    let base = base_url(settings);
    let mut labelled = vec![
        ("API and its UI".to_owned(), format!("{base}/docs")),
        (
            "OpenAPI document".to_owned(),
            format!("{base}/openapi.json"),
        ),
    ];
    for (name, path) in super::soap::endpoint_paths(&settings.soap_prefix, &settings.brand_name) {
        labelled.push((format!("{name} WSDL"), format!("{base}{path}?wsdl")));
    }
    labelled.push(("import inbox".into(), settings.inbox.display().to_string()));
    // Values start in one column, two spaces after the longest label (a branded service
    // name is longer than the others).
    let width = labelled.iter().map(|(l, _)| l.len() + 3).max().unwrap_or(0);
    labelled
        .into_iter()
        .map(|(label, value)| format!("{:<width$}{value}", format!("{label}:")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wildcard_listen_address_is_shown_as_loopback_and_base_url_wins() {
        let mut settings = Settings {
            listen: vec!["0.0.0.0:8080".parse().unwrap()],
            ..Settings::default()
        };
        assert_eq!(base_url(&settings), "http://127.0.0.1:8080");
        settings.listen = vec!["[::]:9000".parse().unwrap()];
        assert_eq!(base_url(&settings), "http://[::1]:9000");
        settings.base_url = Some("https://parts.example.lan".into());
        let lines = startup_lines(&settings);
        assert!(
            lines[0].ends_with("https://parts.example.lan/docs"),
            "{lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.ends_with(
                "https://parts.example.lan/ws/3.0/services/PartsToCatDLW.soapEndpoint?wsdl"
            )),
            "{lines:?}"
        );
    }

    #[test]
    fn values_line_up_after_the_longest_label_with_a_space_between() {
        let settings = Settings {
            brand_name: "Tecdoc".into(),
            inbox: "/var/spool/partscat/inbox".into(),
            ..Settings::default()
        };
        let lines = startup_lines(&settings);
        // Where each value starts: after the label's colon and the spaces.
        let starts: Vec<usize> = lines
            .iter()
            .map(|l| {
                let colon = l.find(": ").unwrap();
                colon + 1 + l[colon + 1..].find(|c| c != ' ').unwrap()
            })
            .collect();
        assert!(starts.iter().all(|&s| s == starts[0]), "{lines:?}");
        let wsdl = lines
            .iter()
            .find(|l| l.contains("TecdocToCatDLB WSDL:"))
            .unwrap();
        assert!(wsdl.contains("WSDL:  http://"), "{wsdl}");
    }
}
