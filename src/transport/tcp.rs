//! The TCP transport: the line protocol ([`super::session`]) over plain TCP or TLS, with a
//! semaphore before `accept` capping connections and a deadline on the TLS handshake.

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
use super::session::Session;
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
        ctx.tracker.spawn(async move {
            let _permit = permit;
            if let Err(e) = connection(stream, addr, ctx2, tls.as_deref()).await {
                tracing::debug!(%addr, error = %e, "connection ended with an error");
            }
        });
    }
}

async fn connection(
    stream: TcpStream,
    addr: SocketAddr,
    ctx: Arc<Context>,
    tls: Option<&tokio_rustls::TlsAcceptor>,
) -> io::Result<()> {
    stream.set_nodelay(true)?;
    let peer = Peer {
        key: crate::limiter::address_key(addr.ip()),
        channel: Channel::Tcp,
        printed: None,
        private_wire: tls.is_some() || addr.ip().is_loopback(),
    };
    match tls {
        None => Session::new(OneBuffer(stream), peer, &ctx).run().await,
        Some(acceptor) => {
            let handshake =
                tokio::time::timeout(ctx.config.limits.login_timeout, acceptor.accept(stream));
            match handshake.await {
                Ok(Ok(tls)) => Session::new(tls, peer, &ctx).run().await,
                Ok(Err(e)) => Err(e),
                Err(_) => Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "TLS handshake timed out",
                )),
            }
        }
    }
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
