//! The daemon's memory under a login flood, as an attacker would try it: hundreds of wrong
//! logins from different addresses at different names, each a full-cost (19 MiB) Argon2id
//! check (an unknown name is checked against a full-cost dummy hash). The daemon's
//! one verifier runs a few checks at once in a fixed pool of buffers, so the peak stays
//! bounded whatever the number of attempts.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::support::daemon::Daemon;
use crate::support::process::memory_kb;

/// Source addresses the flood comes from: 127.0.0.2 to 127.0.0.250, so the per-address login
/// limit never stops it (each address tries once).
const SOURCES: std::ops::RangeInclusive<u8> = 2..=250;
/// Kilobytes in a megabyte, as `/proc` counts.
const MB: u64 = 1000;

/// One wrong login from `source`: the reply's code.
async fn wrong_login(source: Ipv4Addr, daemon: SocketAddr, n: u8) -> Result<u16, String> {
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
    socket
        .bind(SocketAddr::from((source, 0)))
        .map_err(|e| format!("bind {source}: {e}"))?;
    let stream = socket
        .connect(daemon)
        .await
        .map_err(|e| format!("connect from {source}: {e}"))?;
    let (rd, mut wr) = stream.into_split();
    let mut rd = BufReader::new(rd);
    let mut line = String::new();
    rd.read_line(&mut line).await.map_err(|e| e.to_string())?;
    if !line.starts_with("200 ") {
        return Err(format!("greeting {line:?}"));
    }
    // A different name from each address: a guesser at one player is stopped by the limit
    // per player after a few tries, one spraying names is not, so every attempt is checked.
    wr.write_all(format!("LOGIN guest{n} wrong-secret-{n}\r\n").as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    line.clear();
    rd.read_line(&mut line).await.map_err(|e| e.to_string())?;
    line.get(..3)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("reply {line:?}"))
}

#[test]
fn a_login_flood_from_many_addresses_keeps_the_peak_under_200_mb() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    // Full-cost hashes, as a real club's configuration holds (the other tests use cheap ones).
    let hash = |s: &str| ccrelay::auth::hash_secret(s).expect("hash");
    std::fs::write(
        &config,
        format!(
            "data_dir = {:?}\n[tcp]\nlisten = \"127.0.0.1:0\"\n[admin]\nsecret_hash = {:?}\n\
             [[players]]\nid = \"alice\"\nsecret_hash = {:?}\nnotation = \"san\"\n",
            dir.path().join("data").display().to_string(),
            hash("admin-secret"),
            hash("alice-secret"),
        ),
    )
    .expect("config");
    let daemon = Daemon::start_logging(&config, "error");
    let pid = daemon.child.id();
    let (_, before) = memory_kb(pid);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let addr = daemon.addr;
    let started = Instant::now();
    let (codes, samples) = runtime.block_on(async move {
        let mut attempts = tokio::task::JoinSet::new();
        for i in SOURCES {
            attempts.spawn(tokio::time::timeout(
                Duration::from_secs(120),
                wrong_login(Ipv4Addr::new(127, 0, 0, i), addr, i),
            ));
        }
        let mut codes = Vec::new();
        let mut samples = Vec::new();
        let mut tick = tokio::time::interval(Duration::from_millis(50));
        while !attempts.is_empty() {
            tokio::select! {
                joined = attempts.join_next() => {
                    let code = joined.expect("a task").expect("no panic");
                    codes.push(code.unwrap_or_else(|_| Err("no answer in 120 s".into())));
                }
                _ = tick.tick() => samples.push(memory_kb(pid).1),
            }
        }
        (codes, samples)
    });
    let took = started.elapsed();
    // Let the last checks' threads settle, then look again: memory must have come back.
    std::thread::sleep(Duration::from_millis(500));
    let (peak, after) = memory_kb(pid);
    let during = samples.iter().copied().max().unwrap_or(0);
    let refused = codes.iter().filter(|c| matches!(c, Ok(430))).count();
    let busy = codes.iter().filter(|c| matches!(c, Ok(429))).count();
    eprintln!(
        "login flood: {} attempts ({refused} checked, {busy} busy) in {took:.1?}; resident before {} MB, highest sampled {} MB, \
         after {} MB; peak (VmHWM) {} MB",
        codes.len(),
        before / MB,
        during / MB,
        after / MB,
        peak / MB
    );

    let failed: Vec<&String> = codes.iter().filter_map(|c| c.as_ref().err()).collect();
    assert!(failed.is_empty(), "attempts that got no reply: {failed:?}");
    assert_eq!(refused + busy, SOURCES.count(), "{codes:?}");
    // Many more checks than buffers must really have run, or the flood proves nothing. (On a
    // loaded machine some attempts wait past the verifier's 10 s and are told it is busy.)
    assert!(
        refused >= 64,
        "only {refused} checked, {busy} told the verifier was busy"
    );
    assert!(
        peak < 200 * MB,
        "peak resident {} MB under a login flood",
        peak / MB
    );
    assert!(
        after < 200 * MB,
        "resident after the flood {} MB",
        after / MB
    );
}
