//! The client behind a trusted reverse proxy (`http.trusted_proxies`): the address its
//! `X-Forwarded-For` or `Forwarded` (RFC 7239) header names.
//!
//! Each proxy on the way appends the address it got the request from, so the list reads from
//! the client on the left to the last proxy on the right, and everything left of what our own
//! proxy appended is the client's to write. The client is therefore the **rightmost** address
//! that is not itself a trusted proxy (every one trusted: the leftmost); what lies left of it
//! is never read. A rightmost entry that is no address (`unknown`, an obfuscated name, junk)
//! means the proxy did not say, and the request is refused rather than counted as the proxy.
//!
//! A proxy writes one of the two headers and passes the other through as the client sent it,
//! so when both are present they must name the same client, else the request is refused: a
//! client cannot pick its address by adding the header its proxy does not write. Without
//! either header the request is the proxy's own (a health check from its machine).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use axum::http::HeaderMap;

use crate::config::AddressSet;

/// Why a trusted proxy's request names no client.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unnamed {
    #[error("{0} names no client address")]
    Unreadable(&'static str),
    #[error("X-Forwarded-For and Forwarded name different clients")]
    Disagree,
}

/// The client a trusted proxy's request names; `None` when it names none (the proxy's own
/// request).
pub fn client(headers: &HeaderMap, trusted: &AddressSet) -> Result<Option<IpAddr>, Unnamed> {
    let by_x = joined(headers, "x-forwarded-for")
        .map(|list| {
            let hops: Vec<Option<IpAddr>> = list.split(',').map(node).collect();
            rightmost_untrusted(&hops, trusted).ok_or(Unnamed::Unreadable("X-Forwarded-For"))
        })
        .transpose()?;
    let by_rfc = joined(headers, "forwarded")
        .map(|list| {
            let hops: Vec<Option<IpAddr>> = elements(&list).into_iter().map(for_of).collect();
            rightmost_untrusted(&hops, trusted).ok_or(Unnamed::Unreadable("Forwarded"))
        })
        .transpose()?;
    match (by_x, by_rfc) {
        (Some(x), Some(rfc)) if x.to_canonical() != rfc.to_canonical() => Err(Unnamed::Disagree),
        (x, rfc) => Ok(x.or(rfc).map(|ip| ip.to_canonical())),
    }
}

/// Every value of header `name`, joined with commas as one list (a proxy may add its own
/// line); `None` without any.
fn joined(headers: &HeaderMap, name: &str) -> Option<String> {
    let values: Vec<&str> = headers
        .get_all(name)
        .iter()
        .map(|v| v.to_str().unwrap_or("\u{0}"))
        .collect();
    (!values.is_empty()).then(|| values.join(","))
}

/// The client: walking from the right, the first address not a trusted proxy; every one
/// trusted, the leftmost. `None` when the walk meets an entry that is no address first.
fn rightmost_untrusted(hops: &[Option<IpAddr>], trusted: &AddressSet) -> Option<IpAddr> {
    for hop in hops.iter().rev() {
        let ip = (*hop)?;
        if !trusted.contains(ip) {
            return Some(ip);
        }
    }
    *hops.first()?
}

/// One node as the headers write it: `192.0.2.7`, `192.0.2.7:4711`, `2001:db8::7`,
/// `[2001:db8::7]`, `[2001:db8::7]:4711`, with spaces or RFC 7239's quotes around it.
fn node(text: &str) -> Option<IpAddr> {
    let text = text.trim();
    let text = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text);
    if let Some(bracketed) = text.strip_prefix('[') {
        let (inside, after) = bracketed.split_once(']')?;
        let port_ok = after.is_empty()
            || after
                .strip_prefix(':')
                .is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        return port_ok.then(|| inside.parse::<Ipv6Addr>().ok().map(IpAddr::V6))?;
    }
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(ip);
    }
    let (host, port) = text.split_once(':')?;
    (!port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()))
        .then(|| host.parse::<Ipv4Addr>().ok().map(IpAddr::V4))?
}

/// `Forwarded`'s elements: split at commas outside quoted strings.
fn elements(list: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, c) in list.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ',' if !quoted => {
                parts.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&list[start..]);
    parts
}

/// The `for=` node of one `Forwarded` element (`for=192.0.2.7;proto=https;by=...`).
fn for_of(element: &str) -> Option<IpAddr> {
    element
        .split(';')
        .filter_map(|pair| pair.split_once('='))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("for"))
        .and_then(|(_, value)| node(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trusted() -> AddressSet {
        let config = crate::config::Config::from_toml(
            "[http]\nlisten = \"127.0.0.1:1\"\ntrusted_proxies = [\"127.0.0.1\", \"10.0.0.0/8\"]\n",
            std::path::Path::new("."),
        )
        .unwrap();
        config.http.unwrap().trusted_proxies
    }

    fn with(pairs: &[(&str, &str)]) -> Result<Option<IpAddr>, Unnamed> {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                value.parse().unwrap(),
            );
        }
        client(&headers, &trusted())
    }

    fn ip(text: &str) -> Option<IpAddr> {
        Some(text.parse().unwrap())
    }

    #[test]
    fn the_client_is_the_rightmost_address_not_a_trusted_proxy() {
        assert_eq!(with(&[]), Ok(None), "the proxy's own request");
        assert_eq!(
            with(&[("x-forwarded-for", "192.0.2.7")]),
            Ok(ip("192.0.2.7"))
        );
        // What the client wrote itself, left of what the proxy appended, is never read.
        assert_eq!(
            with(&[("x-forwarded-for", "127.0.0.1, 198.51.100.9, 192.0.2.7")]),
            Ok(ip("192.0.2.7"))
        );
        assert_eq!(
            with(&[("x-forwarded-for", "junk, 192.0.2.7, 10.1.2.3")]),
            Ok(ip("192.0.2.7")),
            "through a second trusted proxy"
        );
        assert_eq!(
            with(&[
                ("x-forwarded-for", "192.0.2.7"),
                ("x-forwarded-for", "10.1.2.3")
            ]),
            Ok(ip("192.0.2.7")),
            "the header on two lines"
        );
        assert_eq!(
            with(&[("x-forwarded-for", "127.0.0.1, 10.9.9.9")]),
            Ok(ip("127.0.0.1")),
            "every one trusted: the leftmost"
        );
        assert_eq!(
            with(&[("x-forwarded-for", "192.0.2.7:4711")]),
            Ok(ip("192.0.2.7"))
        );
        assert_eq!(
            with(&[("x-forwarded-for", "[2001:db8::7]:4711")]),
            Ok(ip("2001:db8::7"))
        );
        assert_eq!(
            with(&[("x-forwarded-for", "::ffff:192.0.2.7")]),
            Ok(ip("192.0.2.7"))
        );
        assert_eq!(
            with(&[(
                "forwarded",
                "for=127.0.0.1, for=\"[2001:db8:cafe::17]:4711\";proto=https, for=10.0.0.5;by=10.0.0.6"
            )]),
            Ok(ip("2001:db8:cafe::17"))
        );
        assert_eq!(
            with(&[("forwarded", "proto=http;FOR=192.0.2.60;by=203.0.113.43")]),
            Ok(ip("192.0.2.60"))
        );
        assert_eq!(
            with(&[("forwarded", "for=\"a, b\";x=\"q\\\"\", for=192.0.2.60")]),
            Ok(ip("192.0.2.60")),
            "commas and quotes inside a quoted string"
        );
    }

    #[test]
    fn a_proxy_that_does_not_say_or_two_headers_that_disagree_are_refused() {
        for bad in [
            "unknown",
            "_hidden",
            "",
            "192.0.2.7, nonsense",
            "192.0.2.7:",
            "[::1",
            "1.2.3.4:x",
        ] {
            assert_eq!(
                with(&[("x-forwarded-for", bad)]),
                Err(Unnamed::Unreadable("X-Forwarded-For")),
                "{bad:?}"
            );
        }
        for bad in ["for=unknown", "for=_hidden", "proto=https", "192.0.2.7"] {
            assert_eq!(
                with(&[("forwarded", bad)]),
                Err(Unnamed::Unreadable("Forwarded")),
                "{bad:?}"
            );
        }
        // The proxy writes X-Forwarded-For; the client adds a Forwarded of its choice.
        assert_eq!(
            with(&[
                ("x-forwarded-for", "192.0.2.7"),
                ("forwarded", "for=198.51.100.1")
            ]),
            Err(Unnamed::Disagree)
        );
        assert_eq!(
            with(&[
                ("x-forwarded-for", "192.0.2.7"),
                ("forwarded", "for=127.0.0.1")
            ]),
            Err(Unnamed::Disagree),
            "nor can it claim to be the proxy"
        );
        assert_eq!(
            with(&[
                ("x-forwarded-for", "192.0.2.7"),
                ("forwarded", "for=192.0.2.7")
            ]),
            Ok(ip("192.0.2.7")),
            "both saying the same"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// Whatever the headers hold, the reader ends without a panic, and a client it names
        /// is an address written in the header it came from.
        #[test]
        fn any_header_is_read_without_a_panic(
            x in "[0-9a-fA-F:.,\\[\\] \"=;_a-z]{0,80}",
            rfc in "[0-9a-fA-F:.,\\[\\] \"=;_a-z]{0,80}",
        ) {
            let mut headers = HeaderMap::new();
            if let Ok(value) = x.parse() {
                headers.append("x-forwarded-for", value);
            }
            if let Ok(value) = rfc.parse() {
                headers.append("forwarded", value);
            }
            if let Ok(Some(ip)) = client(&headers, &trusted()) {
                let written = format!("{x} {rfc}");
                let v4_written = ip.is_ipv4() && written.contains(&ip.to_string());
                proptest::prop_assert!(v4_written || ip.is_ipv6(), "{ip} from {written:?}");
            }
        }
    }
}
