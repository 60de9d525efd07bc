//! One line per request: method, target, status, time, peer. Secrets never reach it: the
//! `api_key` query value is replaced by `[redacted]` and no header is logged, so neither
//! `X-Api-Key` nor `Authorization` can appear.

use std::time::Instant;

use poem::http::Uri;
use poem::{Endpoint, IntoResponse, Request, Response};
use tracing::Level;

const TARGET: &str = "partscat::access";

pub async fn log_access<E: Endpoint>(next: E, req: Request) -> poem::Result<Response> {
    if !tracing::enabled!(target: TARGET, Level::INFO) {
        return Ok(next.call(req).await?.into_response());
    }
    let started = Instant::now();
    let method = req.method().clone();
    let target = redacted(req.uri());
    let peer = req.remote_addr().to_string();
    let response = next.call(req).await?.into_response();
    tracing::info!(
        target: TARGET,
        %method,
        %target,
        status = response.status().as_u16(),
        micros = started.elapsed().as_micros() as u64,
        %peer,
        "request"
    );
    Ok(response)
}

/// The path and query with every `api_key` value replaced.
pub fn redacted(uri: &Uri) -> String {
    let path = uri.path();
    let Some(query) = uri.query() else {
        return path.to_owned();
    };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| {
            let name = pair.split('=').next().unwrap_or("");
            let decoded: String = form_urlencoded::parse(name.as_bytes())
                .map(|(n, _)| n.into_owned())
                .collect();
            if decoded == "api_key" {
                format!("{name}=[redacted]")
            } else {
                pair.to_owned()
            }
        })
        .collect();
    format!("{path}?{}", pairs.join("&"))
}

#[cfg(test)]
mod tests {
    use super::redacted;

    #[test]
    fn keys_are_redacted_however_they_are_spelled() {
        let uri = "/svc/e/k/1?provider=demo&api_key=pc_secret&x=1&api%5Fkey=pc_other&api_key"
            .parse()
            .unwrap();
        let line = redacted(&uri);
        assert!(
            !line.contains("pc_secret") && !line.contains("pc_other"),
            "{line}"
        );
        assert_eq!(
            line,
            "/svc/e/k/1?provider=demo&api_key=[redacted]&x=1&api%5Fkey=[redacted]&api_key=[redacted]"
        );
    }
}
