//! Certificates for the HTTPS tests: private CAs and what they sign, as PEM files.

use std::path::{Path, PathBuf};

use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
use rustls::pki_types::pem::PemObject;

/// Valid from 2020 to 2099: for a certificate that is in force.
pub const NOW: (i32, i32) = (2020, 2099);

/// The certificates of the test: a private CA and what it signed, written as PEM files.
pub struct Pki {
    dir: PathBuf,
}

impl Pki {
    /// An empty one in `<dir>/pki`.
    pub fn new(dir: &Path) -> Pki {
        let pki = Pki {
            dir: dir.join("pki"),
        };
        std::fs::create_dir_all(&pki.dir).unwrap();
        pki
    }

    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// A CA, written as `<name>.pem`; its issuer for signing.
    pub fn ca(&self, name: &str) -> Issuer<'static, KeyPair> {
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let certificate = params.self_signed(&key).unwrap();
        std::fs::write(self.file(&format!("{name}.pem")), certificate.pem()).unwrap();
        Issuer::new(params, key)
    }

    /// A certificate for `names` signed by `issuer`, valid `from`..`until` (years), as
    /// `<name>.pem` and `<name>.key` (mode 0600).
    pub fn leaf(
        &self,
        name: &str,
        names: &[&str],
        issuer: &Issuer<'_, KeyPair>,
        (from, until): (i32, i32),
    ) {
        let key = KeyPair::generate().unwrap();
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let mut params = CertificateParams::new(names).unwrap();
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, name);
        params.not_before = rcgen::date_time_ymd(from, 1, 1);
        params.not_after = rcgen::date_time_ymd(until, 1, 1);
        let certificate = params.signed_by(&key, issuer).unwrap();
        std::fs::write(self.file(&format!("{name}.pem")), certificate.pem()).unwrap();
        let key_file = self.file(&format!("{name}.key"));
        std::fs::write(&key_file, key.serialize_pem()).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    }

    /// The certificate's SHA-256 fingerprint as `AB:CD:…` (`https.rs` checks the server's
    /// own against openssl's).
    pub fn fingerprint(&self, name: &str) -> String {
        use sha2::Digest;
        let pem = std::fs::read(self.file(&format!("{name}.pem"))).unwrap();
        let der = rustls::pki_types::CertificateDer::from_pem_slice(&pem).unwrap();
        let digest = sha2::Sha256::digest(der.as_ref());
        digest
            .iter()
            .map(|b| format!("{b:02X}"))
            .collect::<Vec<_>>()
            .join(":")
    }
}
