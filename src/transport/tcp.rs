//! The TCP transport: the line protocol ([`super::session`]) over plain TCP or TLS, with a
//! semaphore before `accept` capping connections and a deadline on the TLS handshake.
//!
//! A connection counts against its client address until it logs in: at most
//! `limits.max_connections_per_address_before_login` at once from one address (an IPv6 /64);
//! one more is told `421` and closed at once, so silent connections from one address hold a
//! few of `limits.max_connections`, never all, and a `LOGIN` from elsewhere is greeted as
//! usual. A connection that does not log in within `limits.login_timeout_secs` is closed
//! (the session's login deadline), which gives its place back.
//!
//! Behind a proxy (`tcp.trusted_proxies`), the client is the one the proxy's PROXY protocol
//! header names ([`super::proxy_header`]): its address is the one counted, given to the login
//! door, and judged for the private-wire rule (see [`private_wire`]).

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use super::context::{Context, Peer};
use super::per_address::PerAddress;
use super::proxy_header::{self, Carried};
use super::session::LineSession;
use crate::config::TlsFiles;
use crate::relay::Channel;

/// The TLS acceptor for the configured certificate and key.
pub fn tls_acceptor(files: &TlsFiles) -> io::Result<tokio_rustls::TlsAcceptor> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let invalid = |what: &str, e: &dyn std::fmt::Display| {
        io::Error::new(io::ErrorKind::InvalidData, format!("{what}: {e}"))
    };
    let certs = CertificateDer::pem_file_iter(&files.cert)
        .map_err(|e| invalid(&files.cert.display().to_string(), &e))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| invalid(&files.cert.display().to_string(), &e))?;
    let key = PrivateKeyDer::from_pem_file(&files.key)
        .map_err(|e| invalid(&files.key.display().to_string(), &e))?;
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|e| invalid("TLS", &e))?
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .map_err(|e| invalid("TLS certificate", &e))?;
    Ok(tokio_rustls::TlsAcceptor::from(Arc::new(config)))
}

/// Accepts connections until shutdown.
pub async fn serve(
    listener: TcpListener,
    ctx: Arc<Context>,
    tls: Option<tokio_rustls::TlsAcceptor>,
) -> io::Result<()> {
    let tls = tls.map(Arc::new);
    let permits = Arc::new(Semaphore::new(ctx.config.limits.max_connections));
    let waiting = PerAddress::default();
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => permit.map_err(io::Error::other)?,
            () = ctx.shutdown.cancelled() => return Ok(()),
        };
        let (stream, addr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors and the like: wait a little rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = ctx.shutdown.cancelled() => return Ok(()),
        };
        let ctx2 = ctx.clone();
        let tls = tls.clone();
        let waiting = waiting.clone();
        ctx.tracker.spawn(async move {
            let _permit = permit;
            if let Err(e) = connection(stream, addr, ctx2, tls.as_deref(), waiting).await {
                tracing::debug!(%addr, error = %e, "connection ended with an error");
            }
        });
    }
}

async fn connection(
    mut stream: TcpStream,
    addr: SocketAddr,
    ctx: Arc<Context>,
    tls: Option<&tokio_rustls::TlsAcceptor>,
    waiting: PerAddress,
) -> io::Result<()> {
    stream.set_nodelay(true)?;
    let client = if ctx.config.tcp.trusted_proxies.contains(addr.ip()) {
        match proxy_header::read_within(&mut stream, proxy_header::TIMEOUT).await {
            Ok(Carried::Client(client)) => client,
            Ok(Carried::Proxy) => addr,
            Err(e) => {
                tracing::warn!(proxy = %addr, error = %e, "connection from a trusted proxy closed");
                return Ok(());
            }
        }
    } else {
        addr
    };
    let limit = ctx.config.limits.max_connections_per_address_before_login;
    let Some(place) = waiting.take(client.ip(), limit) else {
        metrics::counter!("ccrelay_tcp_over_address_limit_total").increment(1);
        if tls.is_none() {
            // Said if the socket takes it at once; a client that does not read learns it
            // from the close.
            let _ = stream.try_write(
                b"421 too many connections from your address waiting to log in; try again later\r\n",
            );
        }
        return Ok(());
    };
    let peer = Peer {
        key: crate::limiter::address_key(client.ip()),
        channel: Channel::Tcp,
        printed: None,
        private_wire: private_wire(tls.is_some(), addr, client),
    };
    match tls {
        None => {
            LineSession::new(OneBuffer(stream), peer, &ctx)
                .counted_until_login(place)
                .run()
                .await
        }
        Some(acceptor) => {
            let handshake =
                tokio::time::timeout(ctx.config.limits.login_timeout, acceptor.accept(stream));
            match handshake.await {
                Ok(Ok(tls)) => {
                    LineSession::new(tls, peer, &ctx)
                        .counted_until_login(place)
                        .run()
                        .await
                }
                Ok(Err(e)) => Err(e),
                Err(_) => Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "TLS handshake timed out",
                )),
            }
        }
    }
}

/// Whether no one else can read the wire to the client (the rule for `SECRET`): TLS to the
/// daemon, or a connection from this machine. Through a proxy (`addr` the proxy, `client` whom
/// its header names), both hops must be on this machine: a header can make a connection count
/// as from elsewhere, never as private, since the proxy's own hop from a client it names as
/// loopback may still cross a network in the clear. A player behind a proxy sets their secret
/// over TLS to the daemon (the proxy passing TLS through), or from the daemon's machine.
pub fn private_wire(tls: bool, addr: SocketAddr, client: SocketAddr) -> bool {
    tls || (addr.ip().to_canonical().is_loopback() && client.ip().to_canonical().is_loopback())
}

/// A plain TCP stream whose writes are `send(2)` of one buffer, never `writev(2)`. What a
/// session writes is one buffer anyway, and `writev` reaches the socket through the file
/// layer (the iovec copied in, the range checked, a modify notification), which a profile of
/// the daemon put at about a microsecond of system time a move, at two writes a move
/// (docs/performance.md). Through TLS, records are written as rustls gathers them.
struct OneBuffer(TcpStream);

impl AsyncRead for OneBuffer {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

/// Not `is_write_vectored`: a framed writer then flushes with `poll_write`.
impl AsyncWrite for OneBuffer {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> SocketAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_proxied_client_is_private_only_over_tls_or_with_both_hops_on_this_machine() {
        let local = at("127.0.0.1:40000");
        let remote = at("192.0.2.7:40000");
        assert!(private_wire(false, local, local), "this machine, directly");
        assert!(
            !private_wire(false, remote, remote),
            "elsewhere, in the clear"
        );
        assert!(private_wire(true, remote, remote), "elsewhere over TLS");
        // Through a proxy on this machine.
        assert!(!private_wire(false, local, remote), "a client elsewhere");
        assert!(private_wire(false, local, at("[::ffff:127.0.0.1]:9")));
        assert!(
            private_wire(true, local, remote),
            "TLS passed through to the daemon"
        );
        // A proxy elsewhere naming its own machine's client: the hop to us is in the clear.
        assert!(!private_wire(false, remote, local));
    }
}
