//! The HTTP server: one for every HTTP front end: XFCC for correspondence clients (`xfcc/`),
//! the web pages for spectators and the arbiter (`web/`), `/healthz` and `/metrics`.
//!
//! Bounded like the line protocol: at most `http.max_connections` connections are served at
//! once (more wait in the kernel's backlog), and at most `http.max_connections_per_address`
//! from one address (an IPv6 address's /64; `http.exempt_addresses` aside): a connection over
//! its address's limit is served from a small pool of its own ([`OVERFLOW`] connections, one
//! request each, a short deadline) that answers `/healthz` and says 503 to anything else, so
//! one client can neither take every connection nor keep the health check from being
//! answered. Each request head and TLS handshake must arrive within
//! `http.header_timeout_secs` (which also closes an idle kept-alive connection), a whole
//! request within `http.request_timeout_secs` (a slow body gets 408), and a body over
//! `http.max_body_bytes` gets 413 before it is read. On shutdown the listener stops, each
//! connection finishes the request in hand and closes.
//!
//! Every response carries the security headers ([`secure_headers`]): a Content-Security-Policy
//! that lets a page run only the scripts and styles the server serves as files, never inline
//! ones (so text that slipped into a page could not run), forbids framing, and
//! `X-Content-Type-Options: nosniff`. `/metrics` is served only to `http.metrics_from`
//! (loopback unless configured) and to the arbiter logged in on the web.

pub mod per_address;
pub mod web;
pub mod xfcc;

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tower::ServiceExt;

use super::context::Context;
use crate::config::{AddressSet, HttpConfig};
use per_address::PerAddress;

/// The address a request came from, put in each request's extensions by the server.
#[derive(Copy, Clone, Debug)]
pub struct PeerAddr(pub SocketAddr);

/// Connections over their address's limit served at once (`/healthz` only), at most; one
/// more is closed at once.
pub const OVERFLOW: usize = 16;
/// How long a connection over its address's limit has to send its request head.
const OVERFLOW_HEADER_TIMEOUT: Duration = Duration::from_secs(2);

/// The Content-Security-Policy of every response: the pages' script and style are files of
/// this server (`/assets/`), never inline; the SVG board is markup; the live script fetches
/// and listens only here; nothing frames a page.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// Every route the daemon serves over HTTP, with the request timeout around them; an error
/// if the players' session store cannot be opened.
pub fn router(
    ctx: Arc<Context>,
    http: &HttpConfig,
) -> Result<Router, web::sessions::SessionsError> {
    let tls = http.tls.is_some();
    let timeout = http.request_timeout;
    let web = web::Web::new(ctx.clone(), http)?;
    let metrics_state = MetricsAccess {
        ctx: ctx.clone(),
        web: web.clone(),
        from: http.metrics_from.clone(),
    };
    Ok(Router::new()
        .route(
            "/healthz",
            axum::routing::get(healthz).with_state(ctx.clone()),
        )
        .route(
            "/metrics",
            axum::routing::get(metrics).with_state(metrics_state),
        )
        .merge(xfcc::routes(ctx.clone(), http.max_body_bytes, tls))
        .merge(web::routes(web).layer(axum::extract::DefaultBodyLimit::max(http.max_body_bytes)))
        .merge(web::assets())
        .fallback(web::fallback)
        .layer(axum::middleware::from_fn(move |request, next| {
            within(timeout, request, next)
        }))
        .layer(axum::middleware::map_response(secure_headers)))
}

/// What a connection over its address's limit is served: `/healthz`, and 503 for anything
/// else.
fn overflow_router(ctx: Arc<Context>) -> Router {
    Router::new()
        .route("/healthz", axum::routing::get(healthz).with_state(ctx))
        .fallback(|| async {
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, "10")],
                "too many connections from your address; try again later\n",
            )
        })
        .layer(axum::middleware::map_response(secure_headers))
}

/// The headers every response carries (see the module's documentation).
pub async fn secure_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // For browsers older than frame-ancestors.
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    response
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

/// Who may read `/metrics`.
#[derive(Clone)]
struct MetricsAccess {
    ctx: Arc<Context>,
    web: Arc<web::Web>,
    from: AddressSet,
}

/// `/metrics`: the relay's counters in Prometheus' text format, with the outbox's depth by
/// transport read from the record as it is scraped. Only for `http.metrics_from` and the
/// arbiter: the counters move with every move, private games' too, so a stranger watching
/// them would learn of games hidden from spectators.
async fn metrics(
    axum::extract::State(access): axum::extract::State<MetricsAccess>,
    peer: Option<axum::Extension<PeerAddr>>,
    headers: axum::http::HeaderMap,
) -> Response {
    let allowed =
        peer.is_some_and(|p| access.from.contains(p.0.0.ip())) || access.web.is_arbiter(&headers);
    if !allowed {
        return (
            StatusCode::FORBIDDEN,
            "/metrics is served to the addresses of http.metrics_from and to the arbiter\n",
        )
            .into_response();
    }
    let ctx = access.ctx;
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
    let overflow_permits = Arc::new(Semaphore::new(OVERFLOW));
    let overflow = overflow_router(ctx.clone());
    let per_address = PerAddress::default();
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
        let place = if http.exempt_addresses.contains(addr.ip()) {
            Ok(None)
        } else {
            per_address
                .take(addr.ip(), http.max_connections_per_address)
                .map(Some)
                .ok_or(())
        };
        let (tls, ctx2) = (tls.clone(), ctx.clone());
        let Ok(place) = place else {
            // Over its address's limit: the place in all goes back at once, and the
            // connection gets one request from the overflow pool, or is closed if that is full.
            drop(permit);
            metrics::counter!("ccrelay_http_over_address_limit_total").increment(1);
            let Ok(overflow_permit) = overflow_permits.clone().try_acquire_owned() else {
                drop(stream);
                continue;
            };
            let router = overflow.clone();
            ctx.tracker.spawn(async move {
                let _permit = overflow_permit;
                let served = Serving {
                    router,
                    header_timeout: OVERFLOW_HEADER_TIMEOUT,
                    keep_alive: false,
                };
                if let Err(e) = connection(stream, addr, served, tls, ctx2).await {
                    tracing::debug!(%addr, error = %e, "HTTP connection over its address's limit ended with an error");
                }
            });
            continue;
        };
        let served = Serving {
            router: router.clone(),
            header_timeout: http.header_timeout,
            keep_alive: true,
        };
        ctx.tracker.spawn(async move {
            let _permit = permit;
            let _place = place;
            if let Err(e) = connection(stream, addr, served, tls, ctx2).await {
                tracing::debug!(%addr, error = %e, "HTTP connection ended with an error");
            }
        });
    }
}

/// How one connection is served.
struct Serving {
    router: Router,
    header_timeout: Duration,
    keep_alive: bool,
}

async fn connection(
    stream: TcpStream,
    addr: SocketAddr,
    served: Serving,
    tls: Option<Arc<tokio_rustls::TlsAcceptor>>,
    ctx: Arc<Context>,
) -> io::Result<()> {
    stream.set_nodelay(true)?;
    match tls {
        None => serve_connection(TokioIo::new(stream), addr, served, &ctx).await,
        Some(acceptor) => {
            match tokio::time::timeout(served.header_timeout, acceptor.accept(stream)).await {
                Ok(Ok(tls)) => serve_connection(TokioIo::new(tls), addr, served, &ctx).await,
                Ok(Err(e)) => Err(e),
                Err(_) => Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "TLS handshake timed out",
                )),
            }
        }
    }
}

async fn serve_connection<I>(
    io: I,
    addr: SocketAddr,
    served: Serving,
    ctx: &Context,
) -> io::Result<()>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let Serving {
        router,
        header_timeout,
        keep_alive,
    } = served;
    let service = hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
        request.extensions_mut().insert(PeerAddr(addr));
        router.clone().oneshot(request.map(Body::new))
    });
    let connection = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .keep_alive(keep_alive)
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
