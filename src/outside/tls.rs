//! Whom an outgoing HTTPS connection trusts: the system's roots, a private CA (`ca_file`), or
//! one certificate pinned by its SHA-256 fingerprint (`pin_sha256`, for an appliance with a
//! self-signed certificate); and the certificate this side presents, where the other asks for
//! one (a follower to an upstream with `client_ca`). A certificate that fails is refused by
//! rustls, and `refusal` says why in words a sysadmin acts on.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, SignatureScheme};

/// The certificate checks of one kind of outgoing connection.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trust {
    /// A PEM file of the CA certificates trusted instead of the system's.
    pub ca_file: Option<PathBuf>,
    /// The SHA-256 fingerprint of the one certificate trusted, whoever signed it.
    pub pin_sha256: Option<Fingerprint>,
    /// The certificate chain and key presented to a server that asks for one.
    pub client_cert: Option<PathBuf>,
    pub client_key: Option<PathBuf>,
}

/// A certificate's SHA-256 digest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingerprint(pub [u8; 32]);

impl Fingerprint {
    /// `AB:CD:…` (as `openssl x509 -fingerprint -sha256` writes it) or 64 hex digits.
    pub fn parse(text: &str) -> Result<Fingerprint, String> {
        let hex: String = text
            .trim()
            .trim_start_matches("sha256//")
            .chars()
            .filter(|c| *c != ':')
            .collect();
        let mut digest = [0u8; 32];
        hex::decode_to_slice(&hex, &mut digest).map_err(|_| {
            format!(
                "'{text}' is not a SHA-256 fingerprint (64 hex digits, colons allowed: AB:CD:…)"
            )
        })?;
        Ok(Fingerprint(digest))
    }

    pub fn of(certificate: &[u8]) -> Fingerprint {
        use sha2::Digest;
        Fingerprint(sha2::Sha256::digest(certificate).into())
    }
}

impl std::fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|b| format!("{b:02X}")).collect();
        f.write_str(&parts.join(":"))
    }
}

/// The one crypto provider of the appliance, on the listeners and the clients alike.
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::aws_lc_rs::default_provider())
}

/// Every certificate of a PEM file, naming the setting that gave it where it fails.
pub fn read_certificates(
    setting: &str,
    path: &Path,
) -> Result<Vec<CertificateDer<'static>>, String> {
    let pem = super::files::read_setting_file(path)
        .map_err(|e| format!("{setting} {}: {e}", path.display()))?;
    let certificates = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{setting} {}: not a PEM certificate ({e})", path.display()))?;
    if certificates.is_empty() {
        return Err(format!(
            "{setting} {} holds no PEM certificate",
            path.display()
        ));
    }
    Ok(certificates)
}

/// The private key of a PEM file.
pub fn read_key(setting: &str, path: &Path) -> Result<PrivateKeyDer<'static>, String> {
    let pem = super::files::read_setting_file(path)
        .map_err(|e| format!("{setting} {}: {e}", path.display()))?;
    PrivateKeyDer::from_pem_slice(&pem)
        .map_err(|e| format!("{setting} {}: not a PEM private key ({e})", path.display()))
}

impl Trust {
    /// The rustls client configuration for these checks; `section` names the settings in
    /// errors (`sync`, `media`, `publish`).
    pub fn client_config(&self, section: &str) -> Result<rustls::ClientConfig, String> {
        let provider = provider();
        let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?;
        let builder = match (&self.pin_sha256, &self.ca_file) {
            (Some(pin), _) => builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(Pinned {
                    pin: *pin,
                    provider,
                })),
            (None, Some(ca)) => {
                let mut roots = rustls::RootCertStore::empty();
                for certificate in read_certificates(&format!("{section} ca_file"), ca)? {
                    roots
                        .add(certificate)
                        .map_err(|e| format!("{section} ca_file {}: {e}", ca.display()))?;
                }
                builder.with_root_certificates(roots)
            }
            (None, None) => builder.with_root_certificates(system_roots()),
        };
        match (&self.client_cert, &self.client_key) {
            (Some(cert), Some(key)) => builder
                .with_client_auth_cert(
                    read_certificates(&format!("{section} client_cert"), cert)?,
                    read_key(&format!("{section} client_key"), key)?,
                )
                .map_err(|e| {
                    format!(
                        "{section} client_cert {} and client_key {} do not make a pair: {e}",
                        cert.display(),
                        key.display()
                    )
                }),
            (None, None) => Ok(builder.with_no_client_auth()),
            _ => Err(format!(
                "{section} client_cert and client_key go together: set both or neither"
            )),
        }
    }
}

/// The system's CA certificates (Debian's `/etc/ssl/certs`); those that do not parse are
/// skipped, as every TLS client on the machine does.
fn system_roots() -> rustls::RootCertStore {
    let mut roots = rustls::RootCertStore::empty();
    let found = rustls_native_certs::load_native_certs();
    for error in &found.errors {
        tracing::warn!(%error, "a system CA certificate could not be read");
    }
    roots.add_parsable_certificates(found.certs);
    roots
}

/// Trusts one certificate by its fingerprint: a pin replaces the chain to a CA (a self-signed
/// appliance has none), while the handshake is still checked against the certificate's key.
#[derive(Debug)]
struct Pinned {
    pin: Fingerprint,
    provider: Arc<CryptoProvider>,
}

/// The error a pinned certificate that does not match gives, kept apart for `refusal`.
#[derive(Debug)]
struct PinMismatch(Fingerprint);

impl std::fmt::Display for PinMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "its certificate's SHA-256 fingerprint is {}", self.0)
    }
}

impl std::error::Error for PinMismatch {}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let seen = Fingerprint::of(end_entity.as_ref());
        if seen == self.pin {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::InvalidCertificate(CertificateError::Other(
                rustls::OtherError(Arc::new(PinMismatch(seen))),
            )))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// Why a connection's TLS failed, in words, if it did: the certificate expired, is for
/// another name, was signed by an issuer not trusted here, does not match the pin; or the
/// server asked for a client certificate this side lacks.
pub fn refusal(error: &(dyn std::error::Error + 'static)) -> Option<String> {
    rustls_error(error).map(describe)
}

/// The rustls error among `error`'s causes, looking inside I/O errors too (whose `source`
/// skips the error they carry).
fn rustls_error<'a>(error: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    if let Some(tls) = error.downcast_ref::<rustls::Error>() {
        return Some(tls);
    }
    if let Some(inner) = error
        .downcast_ref::<std::io::Error>()
        .and_then(|io| io.get_ref())
    {
        let inner: &(dyn std::error::Error + 'static) = inner;
        if let Some(tls) = rustls_error(inner) {
            return Some(tls);
        }
    }
    rustls_error(error.source()?)
}

fn describe(error: &rustls::Error) -> String {
    let date = |t: &UnixTime| crate::catalogue::values::utc_timestamp(t.as_secs());
    let why = match error {
        rustls::Error::InvalidCertificate(c) => match c {
            CertificateError::Expired => "it has expired".to_owned(),
            CertificateError::ExpiredContext { not_after, .. } => {
                format!("it has expired (on {})", date(not_after))
            }
            CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                "it is not valid yet".to_owned()
            }
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
                "it is for another name than the one this appliance connects to".to_owned()
            }
            CertificateError::UnknownIssuer => {
                "its issuer is not trusted here (set ca_file to the private CA that signed it, or pin_sha256 to its fingerprint)".to_owned()
            }
            CertificateError::Other(other) => match other.0.downcast_ref::<PinMismatch>() {
                Some(seen) => format!("{seen}, not the one pinned (pin_sha256)"),
                None => other.to_string(),
            },
            other => format!("{other:?}"),
        },
        rustls::Error::AlertReceived(rustls::AlertDescription::CertificateRequired)
        | rustls::Error::AlertReceived(rustls::AlertDescription::BadCertificate)
        | rustls::Error::AlertReceived(rustls::AlertDescription::UnknownCA) => {
            return "the server refused this appliance's client certificate or its lack of one (client_cert, client_key)".to_owned();
        }
        other => return format!("TLS failed: {other}"),
    };
    format!("its certificate was refused: {why}")
}
