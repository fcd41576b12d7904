//! How many of something (connections, live listeners) each client address holds at once, and
//! the place one more takes if its address is under the limit. An IPv4 address counts as
//! itself (an IPv4 address seen on an IPv6 socket too); an IPv6 address counts as its /64,
//! the block one client is usually given, so a client cannot escape the limit by taking a new
//! address from its own block.
//!
//! The table holds only addresses with something open, so it never outgrows what the server
//! holds at once (`http.max_connections`, `http.max_listeners`).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// The key an address is counted under: itself for IPv4, its /64 for IPv6.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => {
            let block = u128::from(v6) & (u128::MAX << 64);
            IpAddr::V6(block.into())
        }
    }
}

/// The counts by address.
#[derive(Clone, Default)]
pub struct PerAddress(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// A place taken: given back when dropped.
pub struct Place {
    table: PerAddress,
    key: IpAddr,
}

impl PerAddress {
    /// A place for `ip` if its address holds fewer than `limit`.
    pub fn take(&self, ip: IpAddr, limit: usize) -> Option<Place> {
        let key = address_key(ip);
        let mut table = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let held = table.entry(key).or_insert(0);
        if *held >= limit {
            if *held == 0 {
                table.remove(&key);
            }
            return None;
        }
        *held += 1;
        Some(Place {
            table: self.clone(),
            key,
        })
    }

    /// How many places `ip`'s address holds.
    pub fn held(&self, ip: IpAddr) -> usize {
        let table = self.0.lock().unwrap_or_else(|p| p.into_inner());
        table.get(&address_key(ip)).copied().unwrap_or(0)
    }

    /// How many addresses hold a place.
    pub fn addresses(&self) -> usize {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut table = self.table.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(held) = table.get_mut(&self.key) {
            *held = held.saturating_sub(1);
            if *held == 0 {
                table.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn an_address_takes_up_to_its_limit_and_gets_places_back() {
        let table = PerAddress::default();
        let a: Vec<Place> = (0..3)
            .filter_map(|_| table.take(ip("192.0.2.1"), 3))
            .collect();
        assert_eq!(a.len(), 3);
        assert!(table.take(ip("192.0.2.1"), 3).is_none());
        assert!(
            table.take(ip("::ffff:192.0.2.1"), 3).is_none(),
            "the same address over IPv6"
        );
        let other = table.take(ip("192.0.2.2"), 3);
        assert!(other.is_some(), "another address is not held back");
        drop(a);
        assert_eq!(table.held(ip("192.0.2.1")), 0);
        assert!(table.take(ip("192.0.2.1"), 3).is_some());
        drop(other);
        assert_eq!(
            table.addresses(),
            0,
            "no entry stays for an address with nothing open"
        );
    }

    #[test]
    fn ipv6_addresses_count_by_their_64() {
        let table = PerAddress::default();
        let _one = table.take(ip("2001:db8:1:2::1"), 2).unwrap();
        let _two = table.take(ip("2001:db8:1:2:ffff::9"), 2).unwrap();
        assert!(table.take(ip("2001:db8:1:2::abcd"), 2).is_none());
        assert!(
            table.take(ip("2001:db8:1:3::1"), 2).is_some(),
            "another /64"
        );
        // A limit of zero takes nothing and keeps nothing.
        assert!(table.take(ip("198.51.100.1"), 0).is_none());
        assert_eq!(table.held(ip("198.51.100.1")), 0);
    }
}
