//! The addresses answers give for an article's media files: partscat's documents route,
//! `{base}/documents/{provider}/{docId}/{type}` beside `{base}/services/…Endpoint`, as TecDoc's
//! clients build it (`type` 0 the file, 1 its thumbnail), with `size` for a picture fitted
//! within so many pixels (`imageURL50` … `imageURL800`). An address an answer gives carries
//! `sig`, a signature of the appliance's over the provider, the number, the type and the size:
//! a browser fetches that one file without the provider's key (an `<img>` cannot send one),
//! and no other. What it may see is checked again when it is fetched.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use base64::Engine as _;
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

/// The bytes of the signature an address carries (of HMAC-SHA256's 32).
const SIGNATURE_BYTES: usize = 16;

/// What a path segment may not hold as it is.
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'/')
    .add(b'?')
    .add(b'#')
    .add(b'%')
    .add(b'"')
    .add(b'<')
    .add(b'>');

/// The thumbnail's size (`type` 1), in pixels of the longer side.
pub const THUMBNAIL_SIZE: u32 = 200;

/// Which form of a file an address names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// `type` 0: the file as it is.
    File,
    /// `type` 1: a picture's thumbnail.
    Thumbnail,
    /// `type` 0 with `size`: a picture fitted within so many pixels.
    Sized(u32),
}

/// One request's media addresses: where the documents route is reached and for whom. (Not
/// `Debug`: it holds the secret.)
#[derive(Clone)]
pub struct MediaLinks {
    /// `{base}/documents/{provider}`.
    prefix: String,
    provider: String,
    secret: [u8; 32],
}

fn mac(secret: &[u8; 32], provider: &str, doc_id: &str, kind: &str, size: &str) -> Hmac<Sha256> {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret).expect("any key length");
    for part in [provider, doc_id, kind, size] {
        mac.update(part.as_bytes());
        mac.update(b"\n");
    }
    mac
}

/// Whether `sig` is the signature of the address's parts as they were written (`size` empty
/// where it has none).
pub fn signed(
    secret: &[u8; 32],
    provider: &str,
    doc_id: &str,
    kind: &str,
    size: &str,
    sig: &str,
) -> bool {
    let Ok(bytes) = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(sig) else {
        return false;
    };
    bytes.len() == SIGNATURE_BYTES
        && mac(secret, provider, doc_id, kind, size)
            .verify_truncated_left(&bytes)
            .is_ok()
}

impl MediaLinks {
    /// The addresses of `provider`'s answers, with the endpoints' base (`{scheme}://{host}` and
    /// the endpoints' prefix, as the client reached them).
    pub fn new(base: &str, provider: &str, secret: &[u8; 32]) -> MediaLinks {
        MediaLinks {
            prefix: format!(
                "{base}/documents/{}",
                utf8_percent_encode(provider, SEGMENT)
            ),
            provider: provider.to_owned(),
            secret: *secret,
        }
    }

    /// What an answer's addresses depend on, for its cache key.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The address of file `doc_id` in `variant`.
    pub fn address(&self, doc_id: u64, variant: Variant) -> String {
        let doc = doc_id.to_string();
        let (kind, size) = match variant {
            Variant::File => ("0", String::new()),
            Variant::Thumbnail => ("1", String::new()),
            Variant::Sized(px) => ("0", px.to_string()),
        };
        let full = mac(&self.secret, &self.provider, &doc, kind, &size).finalize();
        let sig = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(&full.into_bytes()[..SIGNATURE_BYTES]);
        match size.as_str() {
            "" => format!("{}/{doc}/{kind}?sig={sig}", self.prefix),
            _ => format!("{}/{doc}/{kind}?size={size}&sig={sig}", self.prefix),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_signed_for_its_own_parts_only() {
        let secret = [7u8; 32];
        let links = MediaLinks::new("http://parts.lan/ws/3.0", "demo", &secret);
        let address = links.address(1_279_262_720, Variant::Sized(400));
        let (path, query) = address.split_once('?').unwrap();
        assert_eq!(path, "http://parts.lan/ws/3.0/documents/demo/1279262720/0");
        let sig = query.strip_prefix("size=400&sig=").unwrap();
        assert!(signed(&secret, "demo", "1279262720", "0", "400", sig));
        for (provider, doc, kind, size) in [
            ("other", "1279262720", "0", "400"),
            ("demo", "1279262721", "0", "400"),
            ("demo", "1279262720", "1", "400"),
            ("demo", "1279262720", "0", "800"),
            ("demo", "1279262720", "0", ""),
        ] {
            assert!(!signed(&secret, provider, doc, kind, size, sig));
        }
        assert!(!signed(&[8u8; 32], "demo", "1279262720", "0", "400", sig));
        assert!(!signed(
            &secret,
            "demo",
            "1279262720",
            "0",
            "400",
            "not base64!"
        ));
        let thumbnail = links.address(5, Variant::Thumbnail);
        assert!(thumbnail.starts_with("http://parts.lan/ws/3.0/documents/demo/5/1?sig="));
        let odd = MediaLinks::new("", "a b/c", &secret).address(5, Variant::File);
        assert!(odd.starts_with("/documents/a%20b%2Fc/5/0?sig="), "{odd}");
    }
}
