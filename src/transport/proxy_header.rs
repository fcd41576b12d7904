//! The PROXY protocol's header (HAProxy's, versions 1 and 2), which a proxy in front of the
//! line protocol (nginx's stream module with `proxy_protocol on`, HAProxy with `send-proxy` or
//! `send-proxy-v2`) sends before anything else to say whom it is carrying. Read only from
//! `tcp.trusted_proxies` ([`super::tcp`]): from anyone else it would be a client naming its own
//! address.
//!
//! Bounded: the header must come within [`TIMEOUT`], version 1 in at most 107 bytes (the
//! protocol's own bound), version 2 with at most [`V2_MAX_BODY`] bytes after its fixed 16.
//! Exactly the header is read, byte by byte where its end is not known ahead, so what follows
//! it (a TLS handshake, the first line) is left for the session.

use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};

/// How long a trusted proxy has to send the header after connecting (it sends it at once).
pub const TIMEOUT: Duration = Duration::from_secs(5);
/// Version 1's longest header, `\r\n` included (the protocol's specification).
const V1_MAX: usize = 107;
/// Version 2's first twelve bytes.
const V2_SIGNATURE: [u8; 12] = *b"\r\n\r\n\0\r\nQUIT\n";
/// The most bytes after version 2's fixed part: the addresses (36 for IPv6) and the
/// type-length-value fields a proxy may add (an ALPN, an authority, a unique id).
pub const V2_MAX_BODY: usize = 1024;

/// Whom the proxy says it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carried {
    /// A client at this address.
    Client(SocketAddr),
    /// Nobody else: the proxy's own connection (version 2's `LOCAL`, a health check) or a
    /// client it cannot name (`UNKNOWN`, a family other than TCP over IP). The connection's
    /// address is the proxy's own.
    Proxy,
}

/// Why a header was refused; the connection is then closed.
#[derive(Debug, thiserror::Error)]
pub enum HeaderError {
    #[error("no PROXY protocol header from a trusted proxy")]
    Missing,
    #[error("no PROXY protocol header within {0:?}")]
    TimedOut(Duration),
    #[error("a PROXY protocol header longer than {0} bytes")]
    TooLong(usize),
    #[error("a malformed PROXY protocol header: {0}")]
    Malformed(&'static str),
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Reads the header at the start of `stream` within `within`, and nothing after it.
pub async fn read_within<R: AsyncRead + Unpin>(
    stream: &mut R,
    within: Duration,
) -> Result<Carried, HeaderError> {
    match tokio::time::timeout(within, read(stream)).await {
        Ok(read) => read,
        Err(_) => Err(HeaderError::TimedOut(within)),
    }
}

/// Reads the header at the start of `stream`, and nothing after it.
pub async fn read<R: AsyncRead + Unpin>(stream: &mut R) -> Result<Carried, HeaderError> {
    // Version 1's shortest header (`PROXY UNKNOWN\r\n`) is longer than version 2's
    // signature, so these twelve bytes are the header's whichever it is.
    let mut start = [0u8; 12];
    stream.read_exact(&mut start).await?;
    if start == V2_SIGNATURE {
        return read_v2(stream).await;
    }
    if !start.starts_with(b"PROXY ") {
        return Err(HeaderError::Missing);
    }
    let mut line = start.to_vec();
    while !line.ends_with(b"\r\n") {
        if line.len() >= V1_MAX {
            return Err(HeaderError::TooLong(V1_MAX));
        }
        line.push(stream.read_u8().await?);
    }
    parse_v1(&line[..line.len() - 2])
}

/// `PROXY TCP4 192.0.2.7 198.51.100.1 56324 7878`, `PROXY TCP6 ...` or `PROXY UNKNOWN ...`
/// (without its `\r\n`).
fn parse_v1(line: &[u8]) -> Result<Carried, HeaderError> {
    let line = std::str::from_utf8(line)
        .ok()
        .filter(|l| l.is_ascii())
        .ok_or(HeaderError::Malformed("version 1 is ASCII"))?;
    let fields: Vec<&str> = line.split(' ').collect();
    match fields.get(1) {
        Some(&"UNKNOWN") => return Ok(Carried::Proxy),
        Some(&"TCP4" | &"TCP6") => {}
        _ => {
            return Err(HeaderError::Malformed(
                "version 1's protocol is TCP4, TCP6 or UNKNOWN",
            ));
        }
    }
    let [
        _,
        family,
        source,
        destination,
        source_port,
        destination_port,
    ] = fields[..]
    else {
        return Err(HeaderError::Malformed(
            "version 1 has two addresses and two ports",
        ));
    };
    let address = |text: &str| -> Option<IpAddr> {
        if family == "TCP4" {
            text.parse::<Ipv4Addr>().ok().map(IpAddr::V4)
        } else {
            text.parse::<Ipv6Addr>().ok().map(IpAddr::V6)
        }
    };
    let port = |text: &str| -> Option<u16> {
        text.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| text.parse().ok())
            .flatten()
    };
    match (
        address(source),
        address(destination),
        port(source_port),
        port(destination_port),
    ) {
        (Some(ip), Some(_), Some(port), Some(_)) => Ok(Carried::Client(SocketAddr::new(ip, port))),
        _ => Err(HeaderError::Malformed(
            "version 1's addresses or ports do not read",
        )),
    }
}

/// Version 2 after its signature: version and command, family, length, then that many bytes.
async fn read_v2<R: AsyncRead + Unpin>(stream: &mut R) -> Result<Carried, HeaderError> {
    let mut fixed = [0u8; 4];
    stream.read_exact(&mut fixed).await?;
    let [version_command, family, high, low] = fixed;
    if version_command >> 4 != 2 {
        return Err(HeaderError::Malformed("version 2's version is 2"));
    }
    let length = usize::from(u16::from_be_bytes([high, low]));
    if length > V2_MAX_BODY {
        return Err(HeaderError::TooLong(16 + V2_MAX_BODY));
    }
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).await?;
    match version_command & 0x0f {
        0 => return Ok(Carried::Proxy),
        1 => {}
        _ => {
            return Err(HeaderError::Malformed(
                "version 2's command is LOCAL or PROXY",
            ));
        }
    }
    let stream_transport = family & 0x0f == 1;
    match family >> 4 {
        1 if stream_transport => {
            let Some(addresses) = body.get(..12) else {
                return Err(HeaderError::Malformed("version 2's IPv4 addresses are cut"));
            };
            let ip = Ipv4Addr::new(addresses[0], addresses[1], addresses[2], addresses[3]);
            let port = u16::from_be_bytes([addresses[8], addresses[9]]);
            Ok(Carried::Client(SocketAddr::new(IpAddr::V4(ip), port)))
        }
        2 if stream_transport => {
            let Some(addresses) = body.get(..36) else {
                return Err(HeaderError::Malformed("version 2's IPv6 addresses are cut"));
            };
            let mut octets = [0u8; 16];
            octets.copy_from_slice(&addresses[..16]);
            let port = u16::from_be_bytes([addresses[32], addresses[33]]);
            Ok(Carried::Client(SocketAddr::new(
                IpAddr::V6(Ipv6Addr::from(octets)),
                port,
            )))
        }
        1 | 2 => Err(HeaderError::Malformed(
            "version 2 carries a datagram to a stream listener",
        )),
        // Unspecified, or a Unix socket: no client address to name.
        _ => Ok(Carried::Proxy),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `bytes` reads as, and what is left after the header.
    fn read_all(bytes: &[u8]) -> (Result<Carried, HeaderError>, Vec<u8>) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let mut rest = bytes;
        let carried = runtime.block_on(read(&mut rest));
        (carried, rest.to_vec())
    }

    fn client(text: &str) -> Carried {
        Carried::Client(text.parse().unwrap())
    }

    fn v2(command: u8, family: u8, body: &[u8]) -> Vec<u8> {
        let mut bytes = V2_SIGNATURE.to_vec();
        bytes.push(0x20 | command);
        bytes.push(family);
        bytes.extend_from_slice(&(body.len() as u16).to_be_bytes());
        bytes.extend_from_slice(body);
        bytes
    }

    #[test]
    fn version_1_names_the_client_and_leaves_the_first_line() {
        let (carried, rest) =
            read_all(b"PROXY TCP4 192.0.2.7 198.51.100.1 56324 7878\r\nLOGIN x y\n");
        assert_eq!(carried.unwrap(), client("192.0.2.7:56324"));
        assert_eq!(rest, b"LOGIN x y\n");
        let (carried, rest) = read_all(b"PROXY TCP6 2001:db8::7 2001:db8::1 4711 7878\r\n\x16\x03");
        assert_eq!(carried.unwrap(), client("[2001:db8::7]:4711"));
        assert_eq!(rest, b"\x16\x03", "a TLS handshake after it is left whole");
        let (carried, rest) = read_all(b"PROXY UNKNOWN\r\nHELP\n");
        assert_eq!(carried.unwrap(), Carried::Proxy);
        assert_eq!(rest, b"HELP\n");
        let longest = format!(
            "PROXY UNKNOWN {} {} 65535 65535\r\n",
            "ffff:".repeat(7) + "ffff",
            "ffff:".repeat(7) + "ffff"
        );
        assert_eq!(longest.len(), V1_MAX);
        assert_eq!(read_all(longest.as_bytes()).0.unwrap(), Carried::Proxy);
    }

    #[test]
    fn version_2_names_the_client_or_the_proxy_itself() {
        let mut ipv4 = vec![192, 0, 2, 7, 198, 51, 100, 1];
        ipv4.extend_from_slice(&56324u16.to_be_bytes());
        ipv4.extend_from_slice(&7878u16.to_be_bytes());
        let mut bytes = v2(1, 0x11, &ipv4);
        bytes.extend_from_slice(b"LOGIN");
        let (carried, rest) = read_all(&bytes);
        assert_eq!(carried.unwrap(), client("192.0.2.7:56324"));
        assert_eq!(rest, b"LOGIN");
        // With type-length-value fields after the addresses.
        let mut with_tlv = ipv4.clone();
        with_tlv.extend_from_slice(&[0x01, 0x00, 0x02, b'h', b'2']);
        assert_eq!(
            read_all(&v2(1, 0x11, &with_tlv)).0.unwrap(),
            client("192.0.2.7:56324")
        );
        let mut ipv6: Vec<u8> = "2001:db8::7".parse::<Ipv6Addr>().unwrap().octets().to_vec();
        ipv6.extend_from_slice(&Ipv6Addr::LOCALHOST.octets());
        ipv6.extend_from_slice(&4711u16.to_be_bytes());
        ipv6.extend_from_slice(&7878u16.to_be_bytes());
        assert_eq!(
            read_all(&v2(1, 0x21, &ipv6)).0.unwrap(),
            client("[2001:db8::7]:4711")
        );
        // LOCAL (a health check of the proxy's own), an unspecified family, a Unix socket.
        assert_eq!(read_all(&v2(0, 0x11, &ipv4)).0.unwrap(), Carried::Proxy);
        assert_eq!(read_all(&v2(1, 0x00, &[])).0.unwrap(), Carried::Proxy);
        assert_eq!(read_all(&v2(1, 0x31, &[0; 216])).0.unwrap(), Carried::Proxy);
    }

    #[test]
    fn anything_else_is_refused() {
        let refused = |bytes: &[u8]| read_all(bytes).0.unwrap_err().to_string();
        assert!(refused(b"LOGIN alice secret\n").contains("no PROXY"));
        assert!(refused(b"PROXY TCP4 192.0.2.7\r\n\r\n\r\n\r\n").contains("malformed"));
        assert!(refused(b"PROXY TCP4 2001:db8::7 192.0.2.1 1 2\r\n").contains("malformed"));
        assert!(refused(b"PROXY TCP4 192.0.2.7 192.0.2.1 +1 2\r\n").contains("malformed"));
        assert!(refused(b"PROXY TCP4 192.0.2.7 192.0.2.1 70000 2\r\n").contains("malformed"));
        assert!(refused(b"PROXY UDP4 192.0.2.7 192.0.2.1 1 2\r\n").contains("malformed"));
        assert!(refused(b"PROXY TCP4 192.0.2.7  192.0.2.1 1 2\r\n").contains("malformed"));
        assert!(refused(format!("PROXY {}\r\n", "x".repeat(200)).as_bytes()).contains("longer"));
        assert!(refused(b"PROXY TCP4 19\xff.0.2.7 192.0.2.1 1 2\r\n").contains("ASCII"));
        // Cut short: the stream ends inside the header.
        let cut = read_all(b"PROXY TCP4 192.0.2.7").0;
        assert!(
            matches!(&cut, Err(HeaderError::Io(e)) if e.kind() == io::ErrorKind::UnexpectedEof),
            "{cut:?}"
        );
        assert!(refused(&v2(1, 0x11, &[192, 0, 2, 7])).contains("cut"));
        assert!(refused(&v2(1, 0x12, &[0; 12])).contains("datagram"));
        assert!(refused(&v2(2, 0x11, &[0; 12])).contains("command"));
        let mut bad_version = v2(1, 0x11, &[0; 12]);
        bad_version[12] = 0x11;
        assert!(refused(&bad_version).contains("version"));
        let mut too_long = V2_SIGNATURE.to_vec();
        too_long.extend_from_slice(&[0x21, 0x11, 0xff, 0xff]);
        assert!(refused(&too_long).contains("longer"));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// Whatever a proxy sends, the reader ends without a panic and never reads past the
        /// header's bound; a header read leaves what follows it.
        #[test]
        fn any_bytes_are_read_within_the_bound(
            kind in 0u8..3,
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..1200),
        ) {
            let mut input = match kind {
                0 => b"PROXY ".to_vec(),
                1 => V2_SIGNATURE.to_vec(),
                _ => Vec::new(),
            };
            input.extend_from_slice(&bytes);
            let (carried, rest) = read_all(&input);
            let consumed = input.len() - rest.len();
            proptest::prop_assert!(consumed <= 16 + V2_MAX_BODY);
            if carried.is_ok() && kind == 0 {
                proptest::prop_assert!(consumed <= V1_MAX);
                proptest::prop_assert!(input[..consumed].ends_with(b"\r\n"));
            }
        }
    }

    #[test]
    fn a_proxy_that_says_nothing_is_timed_out() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .start_paused(true)
            .build()
            .unwrap();
        let (mut near, _far) = tokio::io::duplex(64);
        let carried = runtime.block_on(read_within(&mut near, TIMEOUT));
        assert!(
            matches!(carried, Err(HeaderError::TimedOut(_))),
            "{carried:?}"
        );
    }
}
