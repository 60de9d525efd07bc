//! HTTPS on the listen addresses (`tls_cert`, `tls_key`): rustls through poem, TLS 1.2 and
//! 1.3 only (rustls speaks nothing older). The files are checked at start, so a wrong path, a
//! key that does not fit the certificate or a key others may read stops `serve` naming the
//! file; afterwards they are read again on SIGHUP and when they change (a renewed
//! certificate), each new handshake taking the new pair while connections in flight go on.
//! A renewal that does not check out is logged and the pair in use kept.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use futures_util::Stream;
use poem::listener::{RustlsCertificate, RustlsConfig};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// How often the files are looked at for a renewal.
const WATCH_EVERY: Duration = Duration::from_secs(2);

/// HSTS on every HTTPS answer: a year, as browsers expect of a site that stays on HTTPS.
pub const HSTS: &str = "max-age=31536000";

/// The certificate chain and key files.
#[derive(Debug, Clone)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
}

impl TlsFiles {
    /// Reads and checks both files: the configuration for the listeners.
    pub fn load(&self) -> Result<RustlsConfig, String> {
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
        let cert_pem =
            std::fs::read(cert).map_err(|e| format!("tls_cert {}: {e}", cert.display()))?;
        let key_pem = std::fs::read(key).map_err(|e| format!("tls_key {}: {e}", key.display()))?;
        let chain = CertificateDer::pem_slice_iter(&cert_pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("tls_cert {}: not a PEM certificate ({e})", cert.display()))?;
        if chain.is_empty() {
            return Err(format!(
                "tls_cert {} holds no PEM certificate",
                cert.display()
            ));
        }
        let private = PrivateKeyDer::from_pem_slice(&key_pem)
            .map_err(|e| format!("tls_key {}: not a PEM private key ({e})", key.display()))?;
        rustls::ServerConfig::builder()
            .with_no_client_auth()
            .with_single_cert(chain, private)
            .map_err(|e| {
                format!(
                    "tls_cert {} and tls_key {} do not make a pair: {e}",
                    cert.display(),
                    key.display()
                )
            })?;
        Ok(RustlsConfig::new().fallback(RustlsCertificate::new().cert(cert_pem).key(key_pem)))
    }

    /// The SHA-256 fingerprint of the certificate (the chain's first), as clients pinning it
    /// and `openssl x509 -fingerprint -sha256` write it: `AB:CD:…`.
    pub fn fingerprint(&self) -> Result<String, String> {
        use sha2::Digest;
        let pem = std::fs::read(&self.cert)
            .map_err(|e| format!("tls_cert {}: {e}", self.cert.display()))?;
        let first = CertificateDer::pem_slice_iter(&pem)
            .next()
            .ok_or_else(|| format!("tls_cert {} holds no PEM certificate", self.cert.display()))?
            .map_err(|e| {
                format!(
                    "tls_cert {}: not a PEM certificate ({e})",
                    self.cert.display()
                )
            })?;
        let digest = sha2::Sha256::digest(first.as_ref());
        Ok(digest
            .iter()
            .map(|b| format!("{b:02X}"))
            .collect::<Vec<_>>()
            .join(":"))
    }

    /// When either file last changed.
    fn stamp(&self) -> Option<(SystemTime, SystemTime)> {
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        Some((modified(&self.cert)?, modified(&self.key)?))
    }

    /// `first`, then a new configuration each time a SIGHUP comes or the files change and
    /// check out.
    pub fn configs(
        self,
        first: RustlsConfig,
    ) -> std::io::Result<impl Stream<Item = RustlsConfig> + Send + Unpin + 'static> {
        let hangup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())?;
        let stamp = self.stamp();
        let state = (self, Some(first), stamp, hangup);
        Ok(Box::pin(futures_util::stream::unfold(
            state,
            |(files, first, mut stamp, mut hangup)| async move {
                if let Some(first) = first {
                    return Some((first, (files, None, stamp, hangup)));
                }
                loop {
                    let why = tokio::select! {
                        _ = hangup.recv() => "SIGHUP",
                        _ = tokio::time::sleep(WATCH_EVERY) => {
                            let now = files.stamp();
                            if now == stamp {
                                continue;
                            }
                            stamp = now;
                            "the files changed"
                        }
                    };
                    match files.load() {
                        Ok(config) => {
                            tracing::info!(cert = %files.cert.display(), reason = why, "TLS certificate reloaded");
                            return Some((config, (files, None, stamp, hangup)));
                        }
                        Err(e) => {
                            tracing::warn!(error = %e, reason = why, "TLS certificate not reloaded; the one in use is kept");
                        }
                    }
                }
            },
        )))
    }
}
