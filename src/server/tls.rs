//! HTTPS on the listen addresses (`tls_cert`, `tls_key`): rustls, TLS 1.2 and 1.3 only
//! (rustls speaks nothing older), served by `tls_acceptor`. With `client_ca`, a client may
//! present a certificate that CA signed (followers do; browsers and SOAP clients need not). The files are checked at start, so a wrong path, a
//! key that does not fit the certificate or a key others may read stops `serve` naming the
//! file; afterwards they are read again on SIGHUP and when they change (a renewed
//! certificate), each new handshake taking the new pair while connections in flight go on.
//! A renewal that does not check out is logged and the pair in use kept.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use std::sync::Arc;

use futures_util::Stream;
use rustls::ServerConfig;
use rustls::server::WebPkiClientVerifier;

use crate::outside::tls::{Fingerprint, provider, read_certificates, read_key};

/// How often the files are looked at for a renewal.
const WATCH_EVERY: Duration = Duration::from_secs(2);

/// HSTS on every HTTPS answer: a year, as browsers expect of a site that stays on HTTPS.
pub const HSTS: &str = "max-age=31536000";

/// The provider with AES-128-GCM preferred: as safe as AES-256 for TLS, and the cheaper
/// per answer (clients such as OpenSSL's ask for AES-256 first).
fn server_provider() -> Arc<rustls::crypto::CryptoProvider> {
    use rustls::CipherSuite::*;
    let mut provider = rustls::crypto::aws_lc_rs::default_provider();
    provider.cipher_suites.sort_by_key(|s| {
        !matches!(
            s.suite(),
            TLS13_AES_128_GCM_SHA256
                | TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256
                | TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256
        )
    });
    Arc::new(provider)
}

/// The certificate chain and key files, and the CA of client certificates.
#[derive(Debug, Clone)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
    pub client_ca: Option<PathBuf>,
}

impl TlsFiles {
    /// Reads and checks the files: the configuration for the listeners.
    pub fn load(&self) -> Result<Arc<ServerConfig>, String> {
        let (cert, key) = (&self.cert, &self.key);
        let mode = std::fs::metadata(key)
            .map_err(|e| format!("tls_key {}: {e}", key.display()))?
            .permissions()
            .mode();
        if mode & 0o007 != 0 {
            return Err(format!(
                "tls_key {} may be read by others than its owner and group (mode {:o}): chmod o-rwx it",
                key.display(),
                mode & 0o777
            ));
        }
        let chain = read_certificates("tls_cert", cert)?;
        let private = read_key("tls_key", key)?;
        let builder = ServerConfig::builder_with_provider(server_provider())
            .with_protocol_versions(rustls::DEFAULT_VERSIONS)
            .map_err(|e| e.to_string())?;
        let builder = match &self.client_ca {
            None => builder.with_no_client_auth(),
            Some(ca) => {
                let mut roots = rustls::RootCertStore::empty();
                for certificate in read_certificates("client_ca", ca)? {
                    roots
                        .add(certificate)
                        .map_err(|e| format!("client_ca {}: {e}", ca.display()))?;
                }
                // A client without a certificate is served (the `sync` scope then refused);
                // one whose certificate the CA did not sign fails its handshake.
                let verifier =
                    WebPkiClientVerifier::builder_with_provider(roots.into(), provider())
                        .allow_unauthenticated()
                        .build()
                        .map_err(|e| format!("client_ca {}: {e}", ca.display()))?;
                builder.with_client_cert_verifier(verifier)
            }
        };
        let mut config = builder.with_single_cert(chain, private).map_err(|e| {
            format!(
                "tls_cert {} and tls_key {} do not make a pair: {e}",
                cert.display(),
                key.display()
            )
        })?;
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        config.ignore_client_order = true;
        Ok(Arc::new(config))
    }

    /// The SHA-256 fingerprint of the certificate (the chain's first), as clients pinning it
    /// and `openssl x509 -fingerprint -sha256` write it: `AB:CD:…`.
    pub fn fingerprint(&self) -> Result<Fingerprint, String> {
        let chain = read_certificates("tls_cert", &self.cert)?;
        Ok(Fingerprint::of(chain[0].as_ref()))
    }

    /// When either file last changed.
    fn stamp(&self) -> Option<(SystemTime, SystemTime)> {
        // A stat, which never blocks on what the path leads to.
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        Some((modified(&self.cert)?, modified(&self.key)?))
    }

    /// A new configuration each time a SIGHUP comes or the files change and check out. The
    /// files are read off the async threads (a FIFO or a huge file put in their place is
    /// refused by `read_setting_file`, never waited on).
    pub fn renewals(
        self,
        hangups: super::signals::Hangups,
    ) -> impl Stream<Item = Arc<ServerConfig>> + Send + Unpin + 'static {
        let stamp = self.stamp();
        Box::pin(futures_util::stream::unfold(
            (self, stamp, hangups),
            |(files, mut stamp, mut hangups)| async move {
                loop {
                    let why = tokio::select! {
                        _ = hangups.next() => "SIGHUP",
                        _ = tokio::time::sleep(WATCH_EVERY) => {
                            let now = files.stamp();
                            if now == stamp {
                                continue;
                            }
                            stamp = now;
                            "the files changed"
                        }
                    };
                    let reading = files.clone();
                    let loaded = tokio::task::spawn_blocking(move || reading.load())
                        .await
                        .unwrap_or_else(|e| Err(e.to_string()));
                    match loaded {
                        Ok(config) => {
                            tracing::info!(cert = %files.cert.display(), reason = why, "TLS certificate reloaded");
                            return Some((config, (files, stamp, hangups)));
                        }
                        Err(e) => {
                            tracing::warn!(error = %e, reason = why, "TLS certificate not reloaded; the one in use is kept");
                        }
                    }
                }
            },
        ))
    }
}
