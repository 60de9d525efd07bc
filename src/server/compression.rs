//! Response compression (br, gzip) for large bodies when the client asks. Request bodies are
//! never decompressed: poem's `Compression` would, and a small compressed body could then
//! grow past every limit.

use poem::http::{HeaderValue, header};
use poem::web::{Compress, CompressionAlgo, CompressionLevel};
use poem::{Body, IntoResponse, Request, Response};

use super::streaming::Streamed;

/// Bodies smaller than this go out as they are: compressing them gains nothing.
const MIN_BYTES: usize = 1024;

/// The coding the client accepts that we prefer: br, then gzip; `q=0` refuses.
pub fn negotiate(req: &Request) -> Option<CompressionAlgo> {
    let mut best: Option<(u16, CompressionAlgo)> = None;
    for value in req.headers().get_all(header::ACCEPT_ENCODING) {
        let Ok(text) = value.to_str() else { continue };
        for item in text.split(',') {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or("").trim();
            let q = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            let weight = (q.clamp(0.0, 1.0) * 1000.0) as u16 * 2;
            let (algo, rank) = match coding.to_ascii_lowercase().as_str() {
                "br" => (CompressionAlgo::BR, 1),
                "gzip" | "x-gzip" => (CompressionAlgo::GZIP, 0),
                _ => continue,
            };
            if weight == 0 {
                continue;
            }
            if best.is_none_or(|(w, _)| weight + rank > w) {
                best = Some((weight + rank, algo));
            }
        }
    }
    best.map(|(_, a)| a)
}

fn compressible(resp: &Response) -> bool {
    if resp.headers().contains_key(header::CONTENT_ENCODING) {
        return false;
    }
    let kind = resp.content_type().unwrap_or("");
    [
        "json",
        "csv",
        "yaml",
        "xml",
        "html",
        "javascript",
        "css",
        "text/",
    ]
    .iter()
    .any(|k| kind.contains(k))
}

/// The answer, compressed with `algo` (`negotiate`'s) where it is worth it.
pub async fn compressed(
    algo: Option<CompressionAlgo>,
    mut resp: Response,
) -> poem::Result<Response> {
    let Some(algo) = algo.filter(|_| compressible(&resp)) else {
        return Ok(resp);
    };
    resp.headers_mut()
        .append(header::VARY, HeaderValue::from_static("accept-encoding"));
    if resp.extensions().get::<Streamed>().is_some() {
        return Ok(Compress::new(resp, algo)
            .with_quality(CompressionLevel::Fastest)
            .into_response());
    }
    // A body built in memory: measure it first.
    let bytes = resp.take_body().into_bytes().await?;
    let small = bytes.len() < MIN_BYTES;
    resp.set_body(Body::from_bytes(bytes));
    if small {
        return Ok(resp);
    }
    Ok(Compress::new(resp, algo)
        .with_quality(CompressionLevel::Fastest)
        .into_response())
}
