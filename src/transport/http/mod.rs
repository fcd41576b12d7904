//! The HTTP server: one for every HTTP front end: XFCC for correspondence clients (`xfcc/`),
//! the web pages for spectators and the arbiter (`web/`), `/healthz` and `/metrics`.
//!
//! Bounded like the line protocol: at most `http.max_connections` connections are served at
//! once (more wait in the kernel's backlog), each request head and TLS handshake must arrive
//! within `http.header_timeout_secs` (which also closes an idle kept-alive connection), a
//! whole request within `http.request_timeout_secs` (a slow body gets 408), and a body over
//! `http.max_body_bytes` gets 413 before it is read. On shutdown the listener stops, each
//! connection finishes the request in hand and closes.

pub mod web;
pub mod xfcc;

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tower::ServiceExt;

use super::session::Context;
use crate::config::HttpConfig;

/// The address a request came from, put in each request's extensions by the server.
#[derive(Copy, Clone, Debug)]
pub struct PeerAddr(pub SocketAddr);

/// Every route the daemon serves over HTTP, with the request timeout around them.
pub fn router(ctx: Arc<Context>, http: &HttpConfig) -> Router {
    let tls = http.tls.is_some();
    let timeout = http.request_timeout;
    Router::new()
        .route(
            "/healthz",
            axum::routing::get(healthz).with_state(ctx.clone()),
        )
        .route(
            "/metrics",
            axum::routing::get(metrics).with_state(ctx.clone()),
        )
        .merge(xfcc::routes(ctx.clone(), http.max_body_bytes, tls))
        .merge(
            web::routes(ctx, http).layer(axum::extract::DefaultBodyLimit::max(http.max_body_bytes)),
        )
        .fallback(web::fallback)
        .layer(axum::middleware::from_fn(move |request, next| {
            within(timeout, request, next)
        }))
}

/// How long `/healthz` waits for the journal to commit.
const HEALTH_WAIT: Duration = Duration::from_secs(5);

/// `/healthz`: 200 while the journal commits, 503 otherwise (the systemd watchdog's test).
async fn healthz(axum::extract::State(ctx): axum::extract::State<Arc<Context>>) -> Response {
    if ctx.mailbox.journal_commits(HEALTH_WAIT).await {
        (StatusCode::OK, "ok: the journal commits\n").into_response()
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable: the journal does not commit\n",
        )
            .into_response()
    }
}

/// `/metrics`: the relay's counters in Prometheus' text format, with the outbox's depth by
/// transport read from the record as it is scraped.
async fn metrics(axum::extract::State(ctx): axum::extract::State<Arc<Context>>) -> Response {
    match ctx.mailbox.outbox_depth().await {
        Ok(depth) => {
            for (transport, n) in depth {
                metrics::gauge!("ccrelay_outbox_waiting", "transport" => transport).set(n as f64);
            }
        }
        Err(e) => tracing::warn!(error = %e, "cannot read the outbox's depth"),
    }
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        crate::monitoring::render(),
    )
        .into_response()
}

/// A request that takes longer than `timeout` (a client sending its body slowly) gets 408.
async fn within(timeout: Duration, request: Request, next: Next) -> Response {
    match tokio::time::timeout(timeout, next.run(request)).await {
        Ok(response) => response,
        Err(_) => (StatusCode::REQUEST_TIMEOUT, "request timed out\n").into_response(),
    }
}

/// Binds the listener (before anything is announced as ready).
pub fn listen(http: &HttpConfig) -> io::Result<TcpListener> {
    let socket = if http.listen.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(http.listen)?;
    socket.listen(1024)
}

/// Serves `router` on `listener` until the daemon's shutdown.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    http: HttpConfig,
    tls: Option<tokio_rustls::TlsAcceptor>,
    ctx: Arc<Context>,
) {
    let tls = tls.map(Arc::new);
    let permits = Arc::new(Semaphore::new(http.max_connections));
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => return,
            },
            () = ctx.shutdown.cancelled() => return,
        };
        let (stream, addr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!(error = %e, "HTTP accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = ctx.shutdown.cancelled() => return,
        };
        let (router, tls, ctx2) = (router.clone(), tls.clone(), ctx.clone());
        let header_timeout = http.header_timeout;
        ctx.tracker.spawn(async move {
            let _permit = permit;
            if let Err(e) = connection(stream, addr, router, header_timeout, tls, ctx2).await {
                tracing::debug!(%addr, error = %e, "HTTP connection ended with an error");
            }
        });
    }
}

async fn connection(
    stream: TcpStream,
    addr: SocketAddr,
    router: Router,
    header_timeout: Duration,
    tls: Option<Arc<tokio_rustls::TlsAcceptor>>,
    ctx: Arc<Context>,
) -> io::Result<()> {
    stream.set_nodelay(true)?;
    match tls {
        None => serve_connection(TokioIo::new(stream), addr, router, header_timeout, &ctx).await,
        Some(acceptor) => match tokio::time::timeout(header_timeout, acceptor.accept(stream)).await
        {
            Ok(Ok(tls)) => {
                serve_connection(TokioIo::new(tls), addr, router, header_timeout, &ctx).await
            }
            Ok(Err(e)) => Err(e),
            Err(_) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "TLS handshake timed out",
            )),
        },
    }
}

async fn serve_connection<I>(
    io: I,
    addr: SocketAddr,
    router: Router,
    header_timeout: Duration,
    ctx: &Context,
) -> io::Result<()>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let service = hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
        request.extensions_mut().insert(PeerAddr(addr));
        router.clone().oneshot(request.map(Body::new))
    });
    let connection = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .keep_alive(true)
        .serve_connection(io, service);
    tokio::pin!(connection);
    tokio::select! {
        served = connection.as_mut() => served.map_err(io::Error::other),
        () = ctx.shutdown.cancelled() => {
            connection.as_mut().graceful_shutdown();
            connection.await.map_err(io::Error::other)
        }
    }
}
