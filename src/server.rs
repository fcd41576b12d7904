//! The daemon: journal, relay and transports started together, stopped together.
//!
//! One [`CancellationToken`] is the shutdown signal every task selects on; a [`TaskTracker`]
//! waits for the connections. On shutdown the listeners stop accepting, sessions say `421` and
//! close, replies waiting for a commit get it, the admin socket's file is removed, and the
//! journal is flushed before `run` returns (its lock held until then, so a daemon starting
//! next cannot have bound a socket of its own there yet).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::auth::Verifier;
use crate::config::Config;
use crate::journal::{Hub, Journal, JournalError};
use crate::relay::{Mailbox, Relay};
use crate::transport::context;
use crate::transport::{admin, http, tcp, terminal};

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServerError {
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error(
        "stopped after a journal commit failed or the relay task died (see the log); nothing unrecorded was acknowledged"
    )]
    Failed,
    #[error(transparent)]
    WebSessions(#[from] crate::transport::http::web::sessions::SessionsError),
    #[error("{what}: {source}")]
    Io {
        what: String,
        source: std::io::Error,
    },
}

/// How long shutdown waits for sessions to finish what they started.
const DRAIN: Duration = Duration::from_secs(10);
/// Queued journal operations and relay requests before senders wait.
const QUEUE: usize = 8192;

/// The accept queue: deep enough for a crowd connecting at once (the kernel caps it at
/// `net.core.somaxconn`). A full queue drops handshakes the client believes complete.
const BACKLOG: u32 = 1024;

fn listen(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// Where the daemon listens, once it does.
#[derive(Clone, Debug)]
pub struct Listening {
    /// The line protocol.
    pub tcp: SocketAddr,
    /// The HTTP server (XFCC), if configured.
    pub http: Option<SocketAddr>,
    /// The admin socket (`ccrelay admin`), in the data directory.
    pub admin: PathBuf,
}

/// Runs until `shutdown` is cancelled; calls `ready` with the listening addresses once every
/// game is replayed and connections are accepted.
pub async fn run(
    config: Config,
    shutdown: CancellationToken,
    ready: impl FnOnce(Listening),
) -> Result<(), ServerError> {
    crate::monitoring::install();
    prepare_process(&config)?;
    let config = Arc::new(config);
    let hub = Arc::new(Hub::default());
    // Cancelled if the journal cannot commit or the relay dies: then the daemon stops.
    let failed = CancellationToken::new();
    let (journal, replayed) = Journal::open_keyed(
        &config.data_dir,
        config.journal.signing_key.as_deref(),
        hub.clone(),
        QUEUE,
        failed.clone(),
    )?;
    stop_on(failed.clone(), shutdown.clone());
    tracing::info!(
        entries = replayed.entries,
        games = replayed.games.len(),
        "journal replayed"
    );
    let relay = Relay::spawn(&config, journal.clone(), replayed, QUEUE, failed.clone()).await?;
    // After the journal's lock is taken: no other daemon can be listening on these sockets.
    let listeners = Listeners::bind(&config)?;
    let tracker = TaskTracker::new();
    let mailbox = Mailbox::new(journal.clone(), hub, &config, relay.roster().clone());
    let watched = mailbox.clone();
    // One secret checker for the whole daemon: one limit, one pool of Argon2 memory.
    let verifier = Arc::new(Verifier::new(Verifier::DEFAULT_LIMIT));
    crate::transport::email::start(
        config.clone(),
        relay.clone(),
        mailbox.clone(),
        shutdown.clone(),
        &tracker,
        verifier.clone(),
    )
    .map_err(|e| io_error("email transport")(std::io::Error::other(e)))?;
    let tls = match &config.tcp.tls {
        Some(files) => Some(tcp::tls_acceptor(files).map_err(io_error("TLS"))?),
        None => None,
    };
    let radios = crate::transport::radio::port::spawn_all(&config.radio, &shutdown, &tracker);
    crate::transport::link::spawn_all(
        &config,
        &radios,
        relay.clone(),
        mailbox.clone(),
        shutdown.clone(),
        &tracker,
    );
    crate::transport::bridge::account::spawn_all(&config, &relay, &mailbox, &shutdown, &tracker);
    let ctx = Arc::new(context::Context::new(
        config.clone(),
        relay,
        mailbox,
        shutdown.clone(),
        tracker.clone(),
        verifier,
    ));
    let Listeners {
        tcp: listener,
        admin: admin_listener,
        http: http_listener,
    } = listeners;
    let addr = listener
        .local_addr()
        .map_err(io_error("listening address"))?;
    tracing::info!(%addr, tls = config.tcp.tls.is_some(), "listening");
    let admin_path = admin_listener.path().to_owned();
    tracing::info!(path = %admin_path.display(), "admin socket listening");
    crate::transport::radio::station::spawn_all(&ctx, &config.radio, &radios);
    tracker.spawn(ctx.clone().forget_changed_secrets());
    tracker.spawn(admin::serve(admin_listener, ctx.clone()));
    for line in &config.terminals {
        tracker.spawn(terminal::serve_line(line.clone(), ctx.clone()));
    }
    let http_addr = match (&config.http, http_listener) {
        (Some(settings), Some(listener)) => Some(serve_http(listener, settings, &ctx, &tracker)?),
        _ => None,
    };
    watchdog(watched, shutdown.clone());
    ready(Listening {
        tcp: addr,
        http: http_addr,
        admin: admin_path,
    });
    let served = tcp::serve(listener, ctx, tls).await;
    stop(&journal, &tracker, &failed).await?;
    served.map_err(io_error("accepting connections"))
}

/// What the process needs before anything opens: enough open files for the configured
/// connections (a warning if the hard limit is lower), and a data directory nobody else
/// reads, whatever umask the daemon was started under (private games, messages, keys and
/// mail live there).
fn prepare_process(config: &Config) -> Result<(), ServerError> {
    let open_files = crate::open_files::raise();
    tracing::info!(
        before = open_files.before,
        now = open_files.soft,
        hard = open_files.hard,
        "open-file limit"
    );
    // A descriptor per connection allowed, and some for the journal, mail and links.
    let wanted = (config.limits.max_connections
        + config.http.as_ref().map_or(0, |h| h.max_connections)
        + admin::MAX_CONNECTIONS
        + 64) as u64;
    if let Err(why) = open_files.check(
        wanted,
        "the configured connections",
        "lower max_connections in [limits] and [http]",
    ) {
        tracing::warn!("{why}");
    }
    let umask = crate::private_files::restrict_umask();
    crate::private_files::keep_private(&config.data_dir).map_err(io_error(format!(
        "cannot make {} private (0700)",
        config.data_dir.display()
    )))?;
    tracing::debug!(umask_before = format!("{umask:03o}"), "umask 077");
    Ok(())
}

/// Stops the daemon (`shutdown`) when the journal cannot commit or the relay dies (`failed`).
fn stop_on(failed: CancellationToken, shutdown: CancellationToken) {
    tokio::spawn(async move {
        tokio::select! {
            () = failed.cancelled() => shutdown.cancel(),
            () = shutdown.cancelled() => {}
        }
    });
}

/// The sockets the daemon listens on, bound before anything is served so that a port in use
/// stops the start with its reason.
struct Listeners {
    tcp: TcpListener,
    admin: admin::AdminListener,
    http: Option<TcpListener>,
}

impl Listeners {
    fn bind(config: &Config) -> Result<Listeners, ServerError> {
        let tcp = listen(config.tcp.listen)
            .map_err(io_error(format!("cannot listen on {}", config.tcp.listen)))?;
        let admin = admin::bind(&config.data_dir).map_err(io_error(format!(
            "cannot listen on the admin socket {}",
            admin::socket_path(&config.data_dir).display()
        )))?;
        let http = match &config.http {
            Some(http) => Some(
                http::listen(http)
                    .map_err(io_error(format!("cannot listen on {} (http)", http.listen)))?,
            ),
            None => None,
        };
        Ok(Listeners { tcp, admin, http })
    }
}

/// Serves the web pages and XFCC on `listener`; its address.
fn serve_http(
    listener: TcpListener,
    settings: &crate::config::HttpConfig,
    ctx: &Arc<context::Context>,
    tracker: &TaskTracker,
) -> Result<SocketAddr, ServerError> {
    let http_addr = listener
        .local_addr()
        .map_err(io_error("HTTP listening address"))?;
    let tls = match &settings.tls {
        Some(files) => Some(tcp::tls_acceptor(files).map_err(io_error("HTTP TLS"))?),
        None => None,
    };
    let router = http::router(ctx.clone(), settings)?;
    tracing::info!(addr = %http_addr, tls = tls.is_some(), "HTTP listening");
    tracker.spawn(http::serve(
        listener,
        router,
        settings.clone(),
        tls,
        ctx.clone(),
    ));
    Ok(http_addr)
}

/// After the TCP listener stops: the sessions finish (within [`DRAIN`]), the journal is
/// flushed, and a snapshot written so that the next start replays only what comes after it.
async fn stop(
    journal: &Journal,
    tracker: &TaskTracker,
    failed: &CancellationToken,
) -> Result<(), ServerError> {
    tracker.close();
    if tokio::time::timeout(DRAIN, tracker.wait()).await.is_err() {
        tracing::warn!("some sessions did not finish in time");
    }
    if failed.is_cancelled() {
        return Err(ServerError::Failed);
    }
    journal.flush().await?;
    if let Err(e) = journal.snapshot().await {
        tracing::warn!(error = %e, "journal snapshot not written at stop");
    }
    if let Err(e) = journal.empty_log().await {
        tracing::warn!(error = %e, "journal log not emptied at stop");
    }
    tracing::info!("stopped");
    Ok(())
}

/// An I/O error as the daemon reports it: what it could not do, and why.
fn io_error(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> ServerError {
    let what = what.into();
    move |source| ServerError::Io { what, source }
}

/// Under systemd with `WatchdogSec`, tells systemd the daemon is alive, but only while the
/// journal still commits: a daemon that cannot record moves should be restarted.
fn watchdog(mailbox: Mailbox, shutdown: CancellationToken) {
    let Some(interval) = sd_notify::watchdog_enabled() else {
        return;
    };
    let period = interval / 2;
    tokio::spawn(async move {
        loop {
            tokio::select! {
                () = tokio::time::sleep(period) => {
                    if mailbox.journal_commits(period).await {
                        let _ = sd_notify::notify(&[sd_notify::NotifyState::Watchdog]);
                    }
                }
                () = shutdown.cancelled() => return,
            }
        }
    });
}
