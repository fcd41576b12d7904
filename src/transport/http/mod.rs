//! The HTTP server: one for every HTTP front end: XFCC for correspondence clients (`xfcc/`),
//! the web pages for spectators and the arbiter (`web/`), `/healthz` and `/metrics`.
//!
//! Bounded like the line protocol: at most `http.max_connections` connections are served at
//! once (more wait in the kernel's backlog), and at most `http.max_connections_per_address`
//! from one address (an IPv6 address's /64; `http.exempt_addresses` and
//! `http.trusted_proxies` aside), and, once half of `http.max_connections` are taken, a
//! quarter of that ([`fair_limit`]): so a handful of addresses holding slow request heads take
//! little more than half the connections, and a fresh address finds a place. A connection over
//! its address's limit is served from a small pool of its own ([`OVERFLOW`] connections,
//! [`OVERFLOW_PER_ADDRESS`] from one address, one request each, a short deadline) that answers
//! `/healthz` and says 503 to anything else, so one client can neither take every connection
//! nor keep the health check from being answered. Each request head and TLS handshake must
//! arrive within `http.header_timeout_secs` (which also closes an idle kept-alive connection),
//! a whole request within `http.request_timeout_secs` (a slow body gets 408), and a body over
//! `http.max_body_bytes` gets 413: at once, before any of it is read, when its
//! `Content-Length` says so. On shutdown the listener stops, each
//! connection finishes the request in hand and closes.
//!
//! A request from `http.trusted_proxies` is its client's ([`forwarded`]): [`PeerAddr`] is the
//! address the proxy's `X-Forwarded-For` or `Forwarded` names, for the login door, the live
//! listeners' limits and `/metrics`.
//!
//! Every response carries the security headers ([`secure_headers`]): a Content-Security-Policy
//! that lets a page run only the scripts and styles the server serves as files, never inline
//! ones (so text that slipped into a page could not run), forbids framing, and
//! `X-Content-Type-Options: nosniff`. `/metrics` is served only to `http.metrics_from`
//! (loopback unless configured) and to the arbiter logged in on the web.

pub mod forwarded;
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
use super::per_address::{PerAddress, fair_limit};
use crate::config::{AddressSet, HttpConfig};

/// The client a request came from, put in each request's extensions: the connection's peer,
/// or, from a trusted proxy, the client the proxy names (with port 0 when it names none).
#[derive(Copy, Clone, Debug)]
pub struct PeerAddr(pub SocketAddr);

/// The connection's own peer, kept beside [`PeerAddr`] (which a trusted proxy's header may
/// change): whether a wire is private takes both hops (`tcp::private_wire`).
#[derive(Copy, Clone, Debug)]
pub struct ConnectionPeer(pub SocketAddr);

/// Connections over their address's limit served at once (`/healthz` only), at most; one
/// more is closed at once.
pub const OVERFLOW: usize = 16;
/// Of those, from one address at most: a few addresses cannot fill the overflow either.
pub const OVERFLOW_PER_ADDRESS: usize = 2;
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
    let max_body = http.max_body_bytes;
    let trusted = Arc::new(http.trusted_proxies.clone());
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
        .layer(axum::middleware::from_fn(move |request, next| {
            declared_too_large(max_body, request, next)
        }))
        .layer(axum::middleware::from_fn(move |request, next| {
            name_the_client(trusted.clone(), request, next)
        }))
        .layer(axum::middleware::map_response(secure_headers)))
}

/// A request from a trusted proxy is its client's: [`PeerAddr`] becomes the address the
/// proxy names ([`forwarded::client`]); a request whose proxy names none readably gets 400.
async fn name_the_client(trusted: Arc<AddressSet>, mut request: Request, next: Next) -> Response {
    let Some(&PeerAddr(hop)) = request.extensions().get::<PeerAddr>() else {
        return next.run(request).await;
    };
    if !trusted.contains(hop.ip()) {
        return next.run(request).await;
    }
    match forwarded::client(request.headers(), &trusted) {
        Ok(None) => {}
        Ok(Some(client)) => {
            request
                .extensions_mut()
                .insert(PeerAddr(SocketAddr::new(client, 0)));
        }
        Err(e) => {
            tracing::warn!(proxy = %hop, error = %e, "request from a trusted proxy refused");
            return (StatusCode::BAD_REQUEST, format!("{e}\n")).into_response();
        }
    }
    next.run(request).await
}

/// A request whose `Content-Length` is over `max_body` gets 413 as soon as its head is read,
/// and the connection is closed: waiting for a body that will be refused anyway would hold the
/// connection until the request timeout. (A body without a length is cut at `max_body` as it
/// is read.)
async fn declared_too_large(max_body: usize, request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    match declared {
        Some(length) if length > max_body as u64 => (
            StatusCode::PAYLOAD_TOO_LARGE,
            [(header::CONNECTION, "close")],
            format!("a request body is at most {max_body} bytes (http.max_body_bytes)\n"),
        )
            .into_response(),
        _ => next.run(request).await,
    }
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
    let overflow_by_address = PerAddress::default();
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
        // A trusted proxy's connections carry many clients, counted by request where it
        // matters (the login door, live listeners).
        let unlimited =
            http.exempt_addresses.contains(addr.ip()) || http.trusted_proxies.contains(addr.ip());
        let place = if unlimited {
            Ok(None)
        } else {
            let in_use = http.max_connections - permits.available_permits();
            let limit = fair_limit(
                http.max_connections_per_address,
                in_use,
                http.max_connections,
            );
            per_address.take(addr.ip(), limit).map(Some).ok_or(())
        };
        let (tls, ctx2) = (tls.clone(), ctx.clone());
        let Ok(place) = place else {
            // Over its address's limit: the place in all goes back at once, and the
            // connection gets one request from the overflow pool, or is closed if that is full.
            drop(permit);
            metrics::counter!("ccrelay_http_over_address_limit_total").increment(1);
            let Some(overflow_place) = overflow_by_address.take(addr.ip(), OVERFLOW_PER_ADDRESS)
            else {
                drop(stream);
                continue;
            };
            let Ok(overflow_permit) = overflow_permits.clone().try_acquire_owned() else {
                drop(stream);
                continue;
            };
            let router = overflow.clone();
            ctx.tracker.spawn(async move {
                let _permit = overflow_permit;
                let _place = overflow_place;
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
        request.extensions_mut().insert(ConnectionPeer(addr));
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
