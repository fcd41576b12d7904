//! Inbound mail by IMAP: TLS (or STARTTLS; plain only to a loopback server), IDLE when the
//! server offers it, polling when not, and a new connection with backoff when anything fails.
//!
//! Mail not yet handled is the mail without the keyword `$CcrelayDone`. Each is fetched with
//! `BODY.PEEK[]<0.N>` (at most `email.max_message_bytes`: a 10 MB attachment is never
//! downloaded, and nothing is marked \Seen by the fetch), handled, and only then flagged
//! `$CcrelayDone \Seen` and, if `processed_mailbox` is set, moved there. A crash in between
//! means the mail is fetched again, and recognised by its key. Every network wait has a
//! timeout.

use std::fmt::Debug;
use std::time::Duration;

use futures::StreamExt;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_util::sync::CancellationToken;

use super::inbound::{Inbound, Outcome};
use crate::backoff::{self, Backoff};
use crate::config::{ImapConfig, TlsMode};
use crate::transport::tls_client::tls_connector;

/// The keyword a handled mail gets.
pub const DONE: &str = "$CcrelayDone";
/// The longest any one IMAP exchange may take.
const EXCHANGE: Duration = Duration::from_secs(60);
/// IDLE is renewed at least this often (RFC 2177 asks for under 29 minutes).
const IDLE_MAX: Duration = Duration::from_secs(25 * 60);

pub trait Io: AsyncRead + AsyncWrite + Unpin + Send + Debug {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send + Debug> Io for T {}
type Stream = Box<dyn Io>;
type Session = async_imap::Session<Stream>;

#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    #[error("IMAP: {0}")]
    Imap(#[from] async_imap::error::Error),
    #[error("connection: {0}")]
    Io(#[from] std::io::Error),
    #[error("TLS setup: {0}")]
    Tls(String),
    #[error("timed out: {0}")]
    Timeout(&'static str),
    #[error("login refused: {0}")]
    Login(String),
    #[error("shutting down")]
    Shutdown,
}

async fn timed<T, E: Into<ImapError>>(
    what: &'static str,
    f: impl Future<Output = Result<T, E>>,
) -> Result<T, ImapError> {
    match tokio::time::timeout(EXCHANGE, f).await {
        Ok(r) => r.map_err(Into::into),
        Err(_) => Err(ImapError::Timeout(what)),
    }
}

async fn tls_wrap(config: &ImapConfig, tcp: TcpStream) -> Result<Stream, ImapError> {
    let connector = tls_connector(config.ca_file.as_deref()).map_err(ImapError::Tls)?;
    let name = rustls::pki_types::ServerName::try_from(config.server.clone())
        .map_err(|e| ImapError::Tls(e.to_string()))?;
    let tls = timed("TLS handshake", connector.connect(name, tcp)).await?;
    Ok(Box::new(tls))
}

/// Connects, logs in and selects the mailbox.
pub async fn connect(config: &ImapConfig) -> Result<Session, ImapError> {
    let tcp = timed(
        "connect",
        TcpStream::connect((config.server.as_str(), config.port)),
    )
    .await?;
    let client = match config.tls {
        TlsMode::Tls => {
            let mut client = async_imap::Client::new(tls_wrap(config, tcp).await?);
            timed("greeting", client.read_response()).await?;
            client
        }
        TlsMode::StartTls => {
            let mut plain = async_imap::Client::new(Box::new(tcp) as Stream);
            timed("greeting", plain.read_response()).await?;
            timed("STARTTLS", plain.run_command_and_check_ok("STARTTLS", None)).await?;
            let inner = plain.into_inner();
            // The boxed stream is a TcpStream: unwrap it by re-dialling is not possible, so TLS
            // goes over the boxed plain stream.
            let connector = tls_connector(config.ca_file.as_deref()).map_err(ImapError::Tls)?;
            let name = rustls::pki_types::ServerName::try_from(config.server.clone())
                .map_err(|e| ImapError::Tls(e.to_string()))?;
            let tls = timed("TLS handshake", connector.connect(name, inner)).await?;
            async_imap::Client::new(Box::new(tls) as Stream)
        }
        TlsMode::None => {
            let mut client = async_imap::Client::new(Box::new(tcp) as Stream);
            timed("greeting", client.read_response()).await?;
            client
        }
    };
    let mut session = match tokio::time::timeout(
        EXCHANGE,
        client.login(&config.user, &config.password.0),
    )
    .await
    {
        Ok(Ok(session)) => session,
        Ok(Err((e, _))) => return Err(ImapError::Login(e.to_string())),
        Err(_) => return Err(ImapError::Timeout("login")),
    };
    timed("SELECT", session.select(&config.mailbox)).await?;
    Ok(session)
}

/// Fetches and handles every mail not yet handled; false if a mail must wait (the relay is
/// stopping).
async fn drain(
    session: &mut Session,
    config: &ImapConfig,
    inbound: &Inbound,
    max_bytes: usize,
    shutdown: &CancellationToken,
) -> Result<bool, ImapError> {
    let mut uids: Vec<u32> = timed(
        "SEARCH",
        session.uid_search(format!("UNDELETED UNKEYWORD {DONE}")),
    )
    .await?
    .into_iter()
    .collect();
    uids.sort_unstable();
    for uid in uids {
        if shutdown.is_cancelled() {
            return Err(ImapError::Shutdown);
        }
        let query = format!("(UID RFC822.SIZE BODY.PEEK[]<0.{max_bytes}>)");
        let fetched = timed("FETCH", async {
            let stream = session.uid_fetch(uid.to_string(), &query).await?;
            let items: Vec<_> = stream.collect().await;
            Ok::<_, async_imap::error::Error>(items)
        })
        .await?;
        let mut found = None;
        for item in fetched {
            let fetch = item?;
            if fetch.uid == Some(uid) || found.is_none() {
                let body = fetch.body().unwrap_or_default().to_vec();
                let size = fetch.size.map_or(body.len(), |s| s as usize);
                found = Some((body, size));
            }
        }
        let Some((body, size)) = found else {
            continue;
        };
        let truncated = size > max_bytes || body.len() > max_bytes;
        let body = &body[..body.len().min(max_bytes)];
        match inbound.handle(body, truncated).await {
            Outcome::Done => {
                timed("STORE", async {
                    let stream = session
                        .uid_store(uid.to_string(), format!("+FLAGS.SILENT ({DONE} \\Seen)"))
                        .await?;
                    let _: Vec<_> = stream.collect().await;
                    Ok::<_, async_imap::error::Error>(())
                })
                .await?;
                if let Some(target) = &config.processed_mailbox {
                    timed("MOVE", session.uid_mv(uid.to_string(), target)).await?;
                }
            }
            Outcome::Retry(why) => {
                tracing::warn!(%why, uid, "mail left for later");
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// One connection's life: drain, then wait (IDLE or poll), until an error or shutdown.
async fn session_loop(
    mut session: Session,
    config: &ImapConfig,
    inbound: &Inbound,
    max_bytes: usize,
    poll: Duration,
    shutdown: &CancellationToken,
) -> Result<(), ImapError> {
    let idle = config.idle
        && timed("CAPABILITY", session.capabilities())
            .await?
            .has_str("IDLE");
    loop {
        let complete = drain(&mut session, config, inbound, max_bytes, shutdown).await?;
        if !complete || !idle {
            tokio::select! {
                () = tokio::time::sleep(poll) => {}
                () = shutdown.cancelled() => {
                    let _ = tokio::time::timeout(Duration::from_secs(5), session.logout()).await;
                    return Ok(());
                }
            }
            timed("NOOP", session.noop()).await?;
            continue;
        }
        let mut handle = session.idle();
        timed("IDLE", handle.init()).await?;
        {
            let (wait, _stop) = handle.wait_with_timeout(poll.min(IDLE_MAX));
            tokio::select! {
                r = wait => { r?; }
                () = shutdown.cancelled() => {}
            }
        }
        session = timed("DONE", handle.done()).await?;
        if shutdown.is_cancelled() {
            let _ = tokio::time::timeout(Duration::from_secs(5), session.logout()).await;
            return Ok(());
        }
    }
}

/// Reads the mailbox until shutdown, reconnecting with backoff (1 s doubling to 5 min).
pub async fn run(
    config: ImapConfig,
    inbound: Inbound,
    max_bytes: usize,
    poll: Duration,
    shutdown: CancellationToken,
) {
    let mut backoff = Backoff::new(Duration::from_secs(1), Duration::from_secs(300));
    loop {
        if shutdown.is_cancelled() {
            return;
        }
        let result = match connect(&config).await {
            Ok(session) => {
                tracing::info!(server = %config.server, mailbox = %config.mailbox, "IMAP connected");
                backoff.reset();
                session_loop(session, &config, &inbound, max_bytes, poll, &shutdown).await
            }
            Err(e) => Err(e),
        };
        match result {
            Ok(()) | Err(ImapError::Shutdown) => return,
            Err(e) => {
                let wait = backoff.next_delay();
                tracing::warn!(server = %config.server, error = %e, retry_in = ?wait, "IMAP failed; reconnecting");
                if backoff::sleep(wait, &shutdown).await.is_err() {
                    return;
                }
            }
        }
    }
}
