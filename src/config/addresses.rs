//! Lists of addresses and networks in the configuration (`http.metrics_from`,
//! `http.exempt_addresses`, the `trusted_proxies` of `[tcp]` and `[http]`), read and matched
//! one way.

use std::net::{IpAddr, Ipv6Addr};

use super::check::Checker;

/// Addresses and networks (`192.0.2.7`, `10.0.0.0/8`, `::1`, `2001:db8::/32`), as the
/// configuration lists them. An IPv4 address seen on an IPv6 socket (`::ffff:192.0.2.7`) is
/// matched as the IPv4 address it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AddressSet(Vec<(IpAddr, u8)>);

impl AddressSet {
    /// The loopback addresses, `127.0.0.1` and `::1`.
    pub fn loopback() -> AddressSet {
        AddressSet(vec![
            (IpAddr::from([127, 0, 0, 1]), 32),
            (IpAddr::from(Ipv6Addr::LOCALHOST), 128),
        ])
    }

    /// Whether `ip` is one of the set or in one of its networks.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|&(net, bits)| match (net, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(bits)).unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(bits)).unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        })
    }

    /// Reads `addr` or `addr/bits`.
    fn read(text: &str) -> Result<(IpAddr, u8), String> {
        let refuse = || format!("{text:?} is not an address or a network (\"10.0.0.0/8\")");
        let (addr, bits) = match text.trim().split_once('/') {
            Some((addr, bits)) => (addr, Some(bits)),
            None => (text.trim(), None),
        };
        let addr: IpAddr = addr.parse().map_err(|_| refuse())?;
        let addr = addr.to_canonical();
        let most = if addr.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            None => most,
            Some(b) => b
                .parse::<u8>()
                .ok()
                .filter(|b| *b <= most)
                .ok_or_else(refuse)?,
        };
        Ok((addr, bits))
    }
}

/// Checks a list of addresses under `key`; `default` when absent.
pub(super) fn addresses(
    c: &mut Checker,
    key: &str,
    raw: Option<Vec<String>>,
    default: AddressSet,
) -> AddressSet {
    let Some(raw) = raw else {
        return default;
    };
    let mut set = Vec::new();
    for (i, text) in raw.iter().enumerate() {
        match AddressSet::read(text) {
            Ok(net) => set.push(net),
            Err(e) => c.problem(format!("{key}[{i}]"), e),
        }
    }
    AddressSet(set)
}
