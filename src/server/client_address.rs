//! Which address a request comes from: the TCP peer, or, only when the peer is a configured
//! trusted proxy, the client that proxy names in `Forwarded` or `X-Forwarded-For`. From any
//! other peer those headers are ignored: a client cannot claim another address. (poem's
//! `RealIp` believes the headers from anyone, so it must not feed admission.)

use std::net::{IpAddr, SocketAddr};

use ipnet::IpNet;
use poem::http::HeaderMap;

/// The client's address, with IPv4-mapped IPv6 (`::ffff:a.b.c.d`, from a dual-stack
/// listener) as the IPv4 address it is. `to_canonical`, not `to_ipv4`: the latter would
/// turn `::1` into `0.0.0.1`.
pub fn client_ip(
    peer: Option<SocketAddr>,
    headers: &HeaderMap,
    trusted_proxies: &[IpNet],
) -> Option<IpAddr> {
    let peer = peer?.ip().to_canonical();
    let trusted = |ip: &IpAddr| trusted_proxies.iter().any(|n| n.contains(ip));
    if !trusted(&peer) {
        return Some(peer);
    }
    let chain = forwarded_chain(headers).unwrap_or_default();
    // The nearest hop that is not one of our proxies is the client; a chain of nothing but
    // proxies (or one that cannot be read) leaves the peer itself.
    Some(
        chain
            .into_iter()
            .rev()
            .find(|ip| !trusted(ip))
            .unwrap_or(peer),
    )
}

/// Whether a request comes straight from this machine: a loopback peer that relays for
/// nobody (a proxy on this host would be loopback too, so any forwarding header disqualifies).
pub fn direct_from_loopback(peer: Option<SocketAddr>, headers: &HeaderMap) -> bool {
    let relayed = ["forwarded", "x-forwarded-for", "x-real-ip"]
        .iter()
        .any(|name| headers.contains_key(*name));
    !relayed && peer.is_some_and(|p| p.ip().to_canonical().is_loopback())
}

/// The addresses the proxies recorded, nearest last; `None` if a hop cannot be read.
fn forwarded_chain(headers: &HeaderMap) -> Option<Vec<IpAddr>> {
    let forwarded: Vec<&str> = headers
        .get_all("forwarded")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    if !forwarded.is_empty() {
        let mut chain = Vec::new();
        for element in forwarded.iter().flat_map(|h| h.split(',')) {
            let value = element.split(';').find_map(|pair| {
                let (k, v) = pair.split_once('=')?;
                k.trim().eq_ignore_ascii_case("for").then(|| v.trim())
            })?;
            chain.push(parse_node(value.trim_matches('"'))?);
        }
        return Some(chain);
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|h| h.split(','))
        .map(|hop| parse_node(hop.trim()))
        .collect()
}

/// `192.0.2.1`, `192.0.2.1:4711`, `[2001:db8::1]`, `[2001:db8::1]:4711` or `2001:db8::1`.
fn parse_node(text: &str) -> Option<IpAddr> {
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(ip.to_canonical());
    }
    if let Ok(sa) = text.parse::<SocketAddr>() {
        return Some(sa.ip().to_canonical());
    }
    text.strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .and_then(|t| t.parse::<IpAddr>().ok())
        .map(|ip| ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Request {
        peer: SocketAddr,
        headers: HeaderMap,
    }

    fn request(peer: &str, headers: &[(&str, &str)]) -> Request {
        let mut map = HeaderMap::new();
        for (k, v) in headers {
            let name: poem::http::HeaderName = k.parse().unwrap();
            map.append(name, v.parse().unwrap());
        }
        Request {
            peer: peer.parse().unwrap(),
            headers: map,
        }
    }

    fn client_ip(req: &Request, proxies: &[IpNet]) -> Option<IpAddr> {
        super::client_ip(Some(req.peer), &req.headers, proxies)
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn headers_from_an_untrusted_peer_change_nothing() {
        let spoof = [
            ("x-forwarded-for", "127.0.0.1"),
            ("forwarded", "for=127.0.0.1"),
            ("x-real-ip", "127.0.0.1"),
        ];
        let req = request("192.0.2.7:5000", &spoof);
        assert_eq!(client_ip(&req, &[]), Some(ip("192.0.2.7")));
        let proxies = ["10.0.0.0/8".parse().unwrap()];
        assert_eq!(client_ip(&req, &proxies), Some(ip("192.0.2.7")));
    }

    #[test]
    fn a_trusted_proxy_names_the_client() {
        let proxies = ["10.0.0.0/8".parse().unwrap()];
        let xff = request(
            "10.0.0.2:5000",
            &[("x-forwarded-for", "192.0.2.9, 10.0.0.3")],
        );
        assert_eq!(client_ip(&xff, &proxies), Some(ip("192.0.2.9")));
        let fwd = request(
            "10.0.0.2:5000",
            &[(
                "forwarded",
                "for=\"[2001:db8::1]:4711\";proto=https, for=10.0.0.3",
            )],
        );
        assert_eq!(client_ip(&fwd, &proxies), Some(ip("2001:db8::1")));
        // A client's own forged hop left of the real one is not believed.
        let forged = request(
            "10.0.0.2:5000",
            &[("x-forwarded-for", "127.0.0.1, 192.0.2.9")],
        );
        assert_eq!(client_ip(&forged, &proxies), Some(ip("192.0.2.9")));
        let garbage = request("10.0.0.2:5000", &[("x-forwarded-for", "nonsense")]);
        assert_eq!(client_ip(&garbage, &proxies), Some(ip("10.0.0.2")));
    }

    #[test]
    fn mapped_ipv4_is_ipv4_and_loopback_v6_stays_v6() {
        let mapped = request("[::ffff:127.0.0.2]:5000", &[]);
        assert_eq!(client_ip(&mapped, &[]), Some(ip("127.0.0.2")));
        let v6 = request("[::1]:5000", &[]);
        assert_eq!(client_ip(&v6, &[]), Some(ip("::1")));
    }
}
