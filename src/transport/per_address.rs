//! How many of something (connections, connections not logged in yet, live listeners) each
//! client address holds at once, and the place one more takes if its address is under the
//! limit. An address is counted under its key from [`crate::limiter::address_key`]: an IPv4
//! address as itself (an IPv4 address seen on an IPv6 socket too), an IPv6 address as its /64,
//! the block one client is usually given, so a client cannot escape the limit by taking a new
//! address from its own block. The same table counts what a player holds, by the player's
//! name ([`PerAddress::take_key`]).
//!
//! A pool shared by every address also has [`fair_limit`]: past half the pool, an address
//! holding a quarter of its limit already gets no more, so a handful of addresses cannot take
//! the pool that everyone else needs.
//!
//! The table holds only keys with something open, so it never outgrows what the server holds
//! at once.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// The counts by key.
#[derive(Clone, Default)]
pub struct PerAddress(Arc<Mutex<HashMap<String, usize>>>);

/// A place taken: given back when dropped.
pub struct Place {
    table: PerAddress,
    key: String,
}

/// What one address may hold of a shared pool of `pool` places while `in_use` of them are
/// taken: its whole `limit` while at most half the pool is taken, then a quarter of it (at
/// least one). Four addresses at their limit then take half the pool (with the shipped
/// limits), and the other half goes a few places to an address (8 connections, enough for a
/// browser's parallel requests; 2 live pages), so a fresh address finds one unless a dozen
/// or more addresses hold theirs.
pub fn fair_limit(limit: usize, in_use: usize, pool: usize) -> usize {
    if in_use.saturating_mul(2) <= pool {
        limit
    } else {
        (limit / 4).max(1).min(limit)
    }
}

impl PerAddress {
    /// A place for `ip` if its address holds fewer than `limit`.
    pub fn take(&self, ip: IpAddr, limit: usize) -> Option<Place> {
        self.take_key(crate::limiter::address_key(ip), limit)
    }

    /// A place for `key` (a player, say) if it holds fewer than `limit`.
    pub fn take_key(&self, key: String, limit: usize) -> Option<Place> {
        let mut table = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let held = table.get(&key).copied().unwrap_or(0);
        if held >= limit {
            return None;
        }
        table.insert(key.clone(), held + 1);
        Some(Place {
            table: self.clone(),
            key,
        })
    }

    /// How many places `ip`'s address holds.
    pub fn held(&self, ip: IpAddr) -> usize {
        let table = self.0.lock().unwrap_or_else(|p| p.into_inner());
        table
            .get(&crate::limiter::address_key(ip))
            .copied()
            .unwrap_or(0)
    }

    /// How many keys hold a place.
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
        assert_eq!(table.addresses(), 1);
    }

    #[test]
    fn past_half_the_pool_an_address_gets_a_quarter_of_its_limit() {
        assert_eq!(fair_limit(32, 0, 256), 32);
        assert_eq!(fair_limit(32, 128, 256), 32);
        assert_eq!(fair_limit(32, 129, 256), 8);
        assert_eq!(fair_limit(8, 40, 64), 2);
        assert_eq!(fair_limit(3, 40, 64), 1, "never less than one");
        assert_eq!(fair_limit(0, 40, 64), 0, "never more than the limit");
        // Nine addresses each asking for 9 of a pool of 64 (8 an address): four take 32 and
        // the rest two each, far from the whole pool.
        let table = PerAddress::default();
        let mut taken = Vec::new();
        for n in 0..9u8 {
            for _ in 0..9 {
                let limit = fair_limit(8, taken.len(), 64);
                if let Some(place) = table.take(IpAddr::from([192, 0, 2, n]), limit) {
                    taken.push(place);
                }
            }
        }
        assert_eq!(taken.len(), 32 + 5 * 2);
        assert!(
            table
                .take(ip("198.51.100.1"), fair_limit(8, taken.len(), 64))
                .is_some(),
            "a fresh address finds a place"
        );
    }
}
