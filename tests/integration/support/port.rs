//! Ports for servers the tests start that cannot bind port 0 themselves (Direwolf, NSD, a
//! README's example daemon): taken below the kernel's ephemeral range.
//!
//! A port bound and released from the ephemeral range (port 0) is free only for an instant:
//! with the whole suite running, another test's outgoing connection or `bind(0)` can take it
//! before the server binds it, and a server such as Direwolf then carries on without its
//! KISS port. The kernel never hands out a port below `ip_local_port_range` for port 0 or for
//! an outgoing connection, so a port from below it, checked free for TCP and UDP, and never
//! given twice in one run, stays free until the server takes it.

use std::sync::atomic::{AtomicU32, Ordering};

/// The ports handed out: from 20000 up to below 32768 (Linux's default ephemeral range
/// starts there), from an offset by process so that two runs at once rarely meet.
const FIRST: u32 = 20_000;
const END: u32 = 32_768;

static NEXT: AtomicU32 = AtomicU32::new(0);

/// A loopback port free for both TCP and UDP that no other caller in this run is given.
pub fn free() -> u16 {
    let span = END - FIRST;
    let offset = std::process::id().wrapping_mul(7919) % span;
    for _ in 0..span {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let port = (FIRST + (offset + n) % span) as u16;
        let tcp = std::net::TcpListener::bind(("127.0.0.1", port));
        let udp = std::net::UdpSocket::bind(("127.0.0.1", port));
        if tcp.is_ok() && udp.is_ok() {
            return port;
        }
    }
    panic!("no free loopback port between {FIRST} and {END}");
}

#[test]
fn no_port_is_given_twice_and_each_is_below_the_ephemeral_range() {
    let ports: Vec<u16> = (0..50).map(|_| free()).collect();
    let mut unique = ports.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), ports.len(), "{ports:?}");
    assert!(ports.iter().all(|&p| (FIRST..END).contains(&u32::from(p))));
}
