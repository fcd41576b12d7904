//! A port against a fake TNC on loopback: what it writes, what it hands up, and what it keeps
//! while the TNC is away.

use super::*;
use crate::config::{RadioConfig, Tnc};
use crate::transport::radio::kiss::Reader;
use tokio::net::{TcpListener, TcpStream};

fn config(addr: std::net::SocketAddr) -> RadioConfig {
    RadioConfig {
        id: "vhf".to_owned(),
        tnc: Tnc::Tcp(addr.to_string()),
        callsign: "N0CALL-1".to_owned(),
        path: vec!["WIDE1-1".to_owned()],
        txdelay: Some(Duration::from_millis(250)),
        persistence: Some(63),
        slot: None,
        budget_bytes_per_minute: 9000,
        queue_frames: 8,
        aprs: None,
    }
}

fn sign(s: &str) -> Callsign {
    s.parse().expect("callsign")
}

/// Reads KISS frames from the fake TNC's side until `n` have come.
async fn frames(stream: &mut TcpStream, reader: &mut Reader, n: usize) -> Vec<kiss::Frame> {
    let mut got = Vec::new();
    let mut buf = [0u8; 512];
    while got.len() < n {
        while let Some(f) = reader.next_frame() {
            got.push(f.expect("good KISS"));
        }
        if got.len() >= n {
            break;
        }
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf)).await;
        let n = read.expect("in time").expect("reads");
        assert!(n > 0, "closed");
        reader.push(&buf[..n]);
    }
    got
}

#[tokio::test]
async fn settings_then_frames_from_the_station_and_frames_heard_handed_up() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let shutdown = CancellationToken::new();
    let (port, handle) = Port::new(
        config(listener.local_addr().expect("addr")),
        shutdown.clone(),
    )
    .expect("port");
    tokio::spawn(port.run());
    let (mut tnc, _) = listener.accept().await.expect("accept");
    let mut reader = Reader::default();
    let settings = frames(&mut tnc, &mut reader, 2).await;
    assert_eq!(
        (settings[0].command, settings[0].data.clone()),
        (1, vec![25])
    );
    assert_eq!(
        (settings[1].command, settings[1].data.clone()),
        (2, vec![63])
    );

    handle
        .send(sign("N0CALL-2"), b"hello".to_vec())
        .expect("queued");
    let sent = frames(&mut tnc, &mut reader, 1).await;
    let ui = UiFrame::decode(&sent[0].data).expect("UI");
    assert_eq!(ui.source, sign("N0CALL-1"));
    assert_eq!(ui.destination, sign("N0CALL-2"));
    assert_eq!(ui.path[0].station, sign("WIDE1-1"));
    assert_eq!(ui.info, b"hello");

    let mut heard = handle.heard();
    let from_peer = UiFrame {
        source: sign("N0CALL-2"),
        destination: sign("N0CALL-1"),
        ..ui.clone()
    };
    let own_echo = ui.clone();
    for f in [&own_echo, &from_peer] {
        let bytes = kiss::encode(0, Command::Data, &f.encode().expect("encodes"));
        tnc.write_all(&bytes).await.expect("write");
    }
    let got = tokio::time::timeout(Duration::from_secs(5), heard.recv())
        .await
        .expect("in time")
        .expect("heard");
    assert_eq!(*got, from_peer);
    shutdown.cancel();
}

#[tokio::test]
async fn frames_queued_while_the_tnc_is_away_go_when_it_is_back() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    drop(listener);
    let shutdown = CancellationToken::new();
    let (port, handle) = Port::new(config(addr), shutdown.clone()).expect("port");
    tokio::spawn(port.run());
    for i in 0..8u8 {
        handle.send(sign("N0CALL-2"), vec![i]).expect("queued");
    }
    // The queue holds eight; the ninth is refused, not lost in silence.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(handle.send(sign("N0CALL-2"), vec![8]), Err(QueueFull));
    let listener = TcpListener::bind(addr).await.expect("bind again");
    let (mut tnc, _) = tokio::time::timeout(Duration::from_secs(10), listener.accept())
        .await
        .expect("reconnects")
        .expect("accept");
    let mut reader = Reader::default();
    let got = frames(&mut tnc, &mut reader, 2 + 8).await;
    let infos: Vec<Vec<u8>> = got[2..]
        .iter()
        .map(|f| UiFrame::decode(&f.data).expect("UI").info)
        .collect();
    assert_eq!(infos, (0..8u8).map(|i| vec![i]).collect::<Vec<_>>());
    shutdown.cancel();
}

#[tokio::test]
async fn the_budget_paces_a_backlog() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let mut cfg = config(listener.local_addr().expect("addr"));
    // 6000 bytes a minute: the bucket holds 1500, then 100 bytes a second.
    cfg.budget_bytes_per_minute = 6000;
    cfg.txdelay = None;
    let shutdown = CancellationToken::new();
    let (port, handle) = Port::new(cfg, shutdown.clone()).expect("port");
    tokio::spawn(port.run());
    let (mut tnc, _) = listener.accept().await.expect("accept");
    let mut reader = Reader::default();
    frames(&mut tnc, &mut reader, 1).await; // persistence
    // Each frame: 23 bytes of AX.25 + 200 of info, 4 of framing, 45 of assumed preamble: 272.
    for _ in 0..6 {
        handle.send(sign("N0CALL-2"), vec![0; 200]).expect("queued");
    }
    let started = Instant::now();
    frames(&mut tnc, &mut reader, 5).await;
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "the bucket's worth at once"
    );
    frames(&mut tnc, &mut reader, 1).await;
    assert!(
        started.elapsed() > Duration::from_secs(1),
        "the sixth waits for the budget"
    );
    shutdown.cancel();
}
