//! One line per request: method, target, status, time, peer. Secrets never reach it: the
//! value of a query parameter named like a key (`api_key`, `API_KEY`, `apikey`, `api-key`,
//! `key`, however encoded) and a path segment that looks like a key are replaced by
//! `[redacted]`, and no header is logged, so neither `X-Api-Key` nor `Authorization` can
//! appear.

use std::time::Instant;

use poem::http::{Method, Uri};
use poem::{Request, Response};
use tracing::Level;

const TARGET: &str = "partscat::service::access";

/// A request's line: begun when it comes in, written with its answer's status.
pub struct Line {
    started: Instant,
    method: Method,
    target: String,
    peer: String,
}

impl Line {
    /// None while the access log is off.
    pub fn begin(req: &Request) -> Option<Line> {
        tracing::enabled!(target: TARGET, Level::INFO).then(|| Line {
            started: Instant::now(),
            method: req.method().clone(),
            target: redacted(req.uri()),
            peer: req.remote_addr().to_string(),
        })
    }

    pub fn end(self, response: &Response) {
        let Line {
            started,
            method,
            target,
            peer,
        } = self;
        tracing::info!(
            target: TARGET,
            %method,
            %target,
            status = response.status().as_u16(),
            micros = started.elapsed().as_micros() as u64,
            %peer,
            "request"
        );
    }
}

/// The path and query with every key-like value replaced.
pub fn redacted(uri: &Uri) -> String {
    let path: Vec<&str> = uri
        .path()
        .split('/')
        .map(|segment| {
            if looks_like_key(segment) {
                REDACTED
            } else {
                segment
            }
        })
        .collect();
    let path = path.join("/");
    let Some(query) = uri.query() else {
        return path;
    };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| {
            let name = pair.split('=').next().unwrap_or("");
            let decoded: String = form_urlencoded::parse(name.as_bytes())
                .map(|(n, _)| n.into_owned())
                .collect();
            if names_a_key(&decoded) {
                format!("{name}={REDACTED}")
            } else {
                pair.to_owned()
            }
        })
        .collect();
    format!("{path}?{}", pairs.join("&"))
}

const REDACTED: &str = "[redacted]";

/// `api_key` under any spelling a client might try: case, `_`, `-` or nothing between.
fn names_a_key(name: &str) -> bool {
    let folded: String = name
        .chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect();
    matches!(folded.as_str(), "apikey" | "key" | "xapikey")
}

/// A key pasted into the path: ours start with `pc_`; any long run of letters and digits
/// with both in it is taken for one too (references are short).
fn looks_like_key(segment: &str) -> bool {
    let decoded: String = form_urlencoded::parse(segment.as_bytes())
        .map(|(n, _)| n.into_owned())
        .collect();
    let text = decoded.as_str();
    text.starts_with("pc_")
        || (text.len() >= 32
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            && text.bytes().any(|b| b.is_ascii_digit())
            && text.bytes().any(|b| b.is_ascii_alphabetic()))
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

    #[test]
    fn other_spellings_and_keys_in_the_path_are_redacted() {
        let uri = "/svc/pc_0123abcd/e/k/10219?API_KEY=s1&apikey=s2&api-key=s3&key=s4&Api%2DKey=s5&keys=kept&ktype=10219"
            .parse()
            .unwrap();
        let line = redacted(&uri);
        for secret in ["pc_0123abcd", "s1", "s2", "s3", "s4", "s5"] {
            assert!(
                !line.contains(&format!("={secret}")) && !line.contains(secret),
                "{line}"
            );
        }
        assert!(
            line.contains("keys=kept") && line.contains("/e/k/10219"),
            "{line}"
        );
        let long = "/svc/getCrossRefsOrArticle/3f9a0c1d2e4b5a6978c0d1e2f3a4b5c6d7e8f9a0";
        assert_eq!(
            redacted(&long.parse().unwrap()),
            "/svc/getCrossRefsOrArticle/[redacted]"
        );
        assert_eq!(
            redacted(&"/svc/getCrossRefsOrArticle/0986494958".parse().unwrap()),
            "/svc/getCrossRefsOrArticle/0986494958"
        );
    }
}
