//! HTTPS from the first start (`tls_self_signed`): a key and a certificate for the machine's
//! names and addresses, made once and kept in the store's directory (mode 0600), so that
//! keys never cross the LAN in clear even before a sysadmin brings a CA's certificate.
//! Clients trust it by its SHA-256 fingerprint, printed at start and by `partscat tls`.

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::Path;

use super::tls::TlsFiles;
use crate::catalogue::values::Date;
use crate::outside::files::create_private;

/// The files, in the store's directory.
pub const CERT_FILE: &str = "tls-self-signed.crt";
pub const KEY_FILE: &str = "tls-self-signed.key";
/// How long the certificate is valid: years, since it is trusted by its fingerprint.
const VALID_YEARS: i32 = 5;

/// The pair in `data_dir`.
pub fn files(data_dir: &Path, client_ca: Option<&Path>) -> TlsFiles {
    TlsFiles {
        cert: data_dir.join(CERT_FILE),
        key: data_dir.join(KEY_FILE),
        client_ca: client_ca.map(Path::to_owned),
    }
}

/// Makes the pair in `data_dir` unless it is there; `true` when it was made now.
pub fn ensure(
    data_dir: &Path,
    listen: &[SocketAddr],
    base_url: Option<&str>,
) -> Result<bool, String> {
    let (cert, key) = (data_dir.join(CERT_FILE), data_dir.join(KEY_FILE));
    if cert.exists() && key.exists() {
        return Ok(false);
    }
    let names = machine_names(listen, base_url);
    let failed = |e: &dyn std::fmt::Display| format!("the self-signed certificate: {e}");
    let mut params = rcgen::CertificateParams::new(names).map_err(|e| failed(&e))?;
    params.distinguished_name = rcgen::DistinguishedName::new();
    params.distinguished_name.push(
        rcgen::DnType::CommonName,
        hostname().unwrap_or("partscat".into()),
    );
    params
        .distinguished_name
        .push(rcgen::DnType::OrganizationName, "partscat appliance");
    let today = Date::today();
    let day = today.day.min(28);
    params.not_before = rcgen::date_time_ymd(today.year.into(), today.month, day);
    params.not_after = rcgen::date_time_ymd(i32::from(today.year) + VALID_YEARS, today.month, day);
    let pair = rcgen::KeyPair::generate().map_err(|e| failed(&e))?;
    let certificate = params.self_signed(&pair).map_err(|e| failed(&e))?;
    // The key first, then the certificate: a start that dies between them makes a new pair.
    for (path, text) in [(&key, pair.serialize_pem()), (&cert, certificate.pem())] {
        let _ = std::fs::remove_file(path);
        let mut file =
            create_private(path).map_err(|e| failed(&format!("{}: {e}", path.display())))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|e| failed(&format!("{}: {e}", path.display())))?;
    }
    Ok(true)
}

/// The names and addresses clients may reach this machine by: its host name, `localhost`,
/// the listen addresses (every interface's for an unspecified one) and `base_url`'s host.
fn machine_names(listen: &[SocketAddr], base_url: Option<&str>) -> Vec<String> {
    let mut names: Vec<String> = hostname().into_iter().collect();
    names.push("localhost".into());
    let mut addresses: Vec<IpAddr> = Vec::new();
    for address in listen {
        if address.ip().is_unspecified() {
            addresses.extend(interface_addresses());
        } else {
            addresses.push(address.ip());
        }
    }
    names.extend(addresses.iter().map(IpAddr::to_string));
    if let Some(host) = base_url.and_then(url_host) {
        names.push(host);
    }
    let mut seen = std::collections::HashSet::new();
    names.retain(|n| seen.insert(n.clone()));
    names
}

/// The host of `https://host[:port]/…`, without brackets.
fn url_host(url: &str) -> Option<String> {
    let rest = url.split("://").nth(1)?;
    let authority = rest.split('/').next()?;
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next()?,
        None => authority.split(':').next()?,
    };
    Some(host.to_owned()).filter(|h| !h.is_empty())
}

fn hostname() -> Option<String> {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname").ok()?;
    Some(name.trim().to_owned()).filter(|n| !n.is_empty())
}

/// Every address of the machine's interfaces.
fn interface_addresses() -> Vec<IpAddr> {
    let mut found = Vec::new();
    let mut list: *mut libc::ifaddrs = std::ptr::null_mut();
    // SAFETY: getifaddrs fills `list` with a linked list freed below by freeifaddrs; each
    // entry's address is read according to its family.
    unsafe {
        if libc::getifaddrs(&mut list) != 0 {
            return found;
        }
        let mut entry = list;
        while !entry.is_null() {
            let address = (*entry).ifa_addr;
            if !address.is_null() {
                match i32::from((*address).sa_family) {
                    libc::AF_INET => {
                        let v4 = &*(address as *const libc::sockaddr_in);
                        found.push(IpAddr::from(u32::from_be(v4.sin_addr.s_addr).to_be_bytes()));
                    }
                    libc::AF_INET6 => {
                        let v6 = &*(address as *const libc::sockaddr_in6);
                        let ip = std::net::Ipv6Addr::from(v6.sin6_addr.s6_addr);
                        // A link-local address needs its interface to be used: left out.
                        if ip.segments()[0] & 0xffc0 != 0xfe80 {
                            found.push(IpAddr::V6(ip));
                        }
                    }
                    _ => {}
                }
            }
            entry = (*entry).ifa_next;
        }
        libc::freeifaddrs(list);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_made_once_for_the_machine_and_kept_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let listen = ["0.0.0.0:8443".parse().unwrap()];
        assert!(ensure(dir.path(), &listen, Some("https://parts.example.lan:8443")).unwrap());
        let files = files(dir.path(), None);
        files.load().unwrap();
        let first = files.fingerprint().unwrap();
        for path in [&files.cert, &files.key] {
            let mode = std::fs::metadata(path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{}", path.display());
        }
        assert!(!ensure(dir.path(), &listen, None).unwrap());
        assert_eq!(files.fingerprint().unwrap(), first);
        let names = machine_names(&listen, Some("https://parts.example.lan:8443/x"));
        assert!(names.contains(&"127.0.0.1".to_owned()), "{names:?}");
        assert!(names.contains(&"localhost".to_owned()), "{names:?}");
        assert!(names.contains(&"parts.example.lan".to_owned()), "{names:?}");
    }
}
