//! Plain HTTP/1.1 on real sockets: a request's bytes sent on a new connection (from another
//! loopback address if need be), and the whole response read and parsed.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// An HTTP response: status, headers (lower-case names), body.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// Sends raw bytes as one request on a new connection and reads the whole response.
pub fn raw(addr: SocketAddr, request: &[u8]) -> Response {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    stream.write_all(request).expect("write");
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    parse_response(&bytes)
}

/// A whole HTTP/1.1 response as read from the wire.
pub fn parse_response(bytes: &[u8]) -> Response {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Response {
        status,
        headers,
        body: body.to_owned(),
    }
}

/// GET `path` with extra header lines (each ending in `\r\n`).
pub fn get_with(addr: SocketAddr, path: &str, headers: &str) -> Response {
    raw(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{headers}Connection: close\r\n\r\n")
            .as_bytes(),
    )
}

/// GET `path`.
pub fn get(addr: SocketAddr, path: &str) -> Response {
    get_with(addr, path, "")
}

/// A connection to `addr` from the loopback address `source`.
pub fn connect_from(source: Ipv4Addr, addr: SocketAddr) -> TcpStream {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket
            .bind(SocketAddr::from((source, 0)))
            .expect("bind a loopback source");
        socket.connect(addr).await.expect("connect")
    });
    let stream = stream.into_std().expect("a std stream");
    stream.set_nonblocking(false).expect("blocking");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    stream
}

/// GET `path` from `source` with extra header lines; the whole response.
pub fn get_from(source: Ipv4Addr, addr: SocketAddr, path: &str, headers: &str) -> Response {
    let mut stream = connect_from(source, addr);
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{headers}Connection: close\r\n\r\n"
    )
    .expect("write");
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    parse_response(&bytes)
}
