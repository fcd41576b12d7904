//! Moves by email (docs/email.md): one more transport beside TCP.
//!
//! In: IMAP with IDLE ([`imap`]) and/or a Maildir ([`maildir`]) hand each mail's bytes
//! (bounded) to [`inbound::Inbound`], which reads it ([`message`]), authenticates it
//! ([`auth`]), sends its command to the relay with an idempotency key, and spools the reply.
//! Out: [`outbound`] mails each email player's outbox and the reply spool ([`spool`]) by SMTP
//! ([`smtp`]), acknowledging only what the server accepted. [`notify`] mails the players who
//! play elsewhere and asked for a mail when it is their move (`NOTIFY`).
//!
//! Every task runs under the daemon's shutdown token and task tracker.

pub mod auth;
pub mod imap;
pub mod inbound;
pub mod maildir;
pub mod message;
pub mod notify;
pub mod outbound;
pub mod smtp;
pub mod spool;

use std::collections::HashMap;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::auth::Verifier;
use crate::config::{Config, Reach, TlsMode};
use crate::notation::Lang;
use crate::relay::{Mailbox, Relay};

/// One delivery task per player reached by mail: those of the roster at start, and those
/// registered or changed while the relay runs (a changed address or language restarts the
/// player's task; a player no longer reached by mail has theirs stopped).
async fn deliver_to_every_player(out: outbound::Outbound, tracker: TaskTracker) {
    let roster = out.relay.roster().clone();
    let mut changes = roster.changes();
    let mut running: HashMap<String, ((String, Option<Lang>), CancellationToken)> = HashMap::new();
    let refresh = |ids: Vec<String>, running: &mut HashMap<_, _>| {
        let players = roster.snapshot();
        for id in ids {
            let wanted = players
                .get(&id)
                .filter(|p| p.reach == Reach::Email)
                .and_then(|p| {
                    let address = p.email.as_ref()?.address.clone();
                    Some((address, p.lang))
                });
            let current: Option<&((String, Option<Lang>), CancellationToken)> = running.get(&id);
            if current.map(|(how, _)| how) == wanted.as_ref() {
                continue;
            }
            if let Some((_, stop)) = running.remove(&id) {
                stop.cancel();
            }
            if let Some((address, lang)) = wanted {
                let stop = out.shutdown.child_token();
                let mut task = out.clone();
                task.shutdown = stop.clone();
                tracker.spawn(task.deliver_outbox(id.clone(), address.clone(), lang));
                running.insert(id, ((address, lang), stop));
            }
        }
    };
    refresh(roster.snapshot().keys().cloned().collect(), &mut running);
    loop {
        tokio::select! {
            change = changes.recv() => match change {
                Ok(id) => refresh(vec![id], &mut running),
                // Fell behind: look at everyone again.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    refresh(roster.snapshot().keys().cloned().collect(), &mut running);
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            },
            () = out.shutdown.cancelled() => return,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum EmailError {
    #[error(transparent)]
    Smtp(#[from] smtp::SmtpError),
    #[error("reply spool {0}: {1}")]
    Spool(String, std::io::Error),
    #[error("IMAP TLS: {0}")]
    Tls(String),
    #[error("the unsubscribe links' key: {0}")]
    Key(std::io::Error),
}

/// Starts the email transport's tasks, if the configuration has an `[email]` section.
pub fn start(
    config: Arc<Config>,
    relay: Relay,
    mailbox: Mailbox,
    shutdown: CancellationToken,
    tracker: &TaskTracker,
    verifier: Arc<Verifier>,
) -> Result<(), EmailError> {
    let Some(email) = config.email.clone() else {
        return Ok(());
    };
    let smtp = smtp::Smtp::new(&email.smtp, &email.address)?;
    if let Some(imap) = &email.imap
        && imap.tls != TlsMode::None
    {
        // Fail at start, not at the first connection, on an unreadable CA file.
        crate::transport::tls_client::tls_connector(imap.ca_file.as_deref())
            .map_err(EmailError::Tls)?;
    }
    let spool_dir = config.data_dir.join("email-replies");
    let spool = spool::Spool::open(spool_dir.clone())
        .map_err(|e| EmailError::Spool(spool_dir.display().to_string(), e))?;
    let email = Arc::new(email);
    let out = outbound::Outbound {
        email: email.clone(),
        smtp,
        relay: relay.clone(),
        mailbox: mailbox.clone(),
        spool: spool.clone(),
        shutdown: shutdown.clone(),
    };
    tracker.spawn(out.clone().deliver_spool());
    tracker.spawn(deliver_to_every_player(out.clone(), tracker.clone()));
    // The mails when it is a player's move link to the pages: only with their public address.
    match config.http.as_ref().and_then(|h| h.public_url.clone()) {
        Some(public_url) => {
            let key = crate::transport::unsubscribe::UnsubscribeKey::open(&config.data_dir)
                .map_err(EmailError::Key)?;
            let notices = notify::Notices {
                out: out.clone(),
                key: Arc::new(key),
                public_url,
            };
            tracker.spawn(notify::notify_every_player(notices, tracker.clone()));
        }
        None => tracing::debug!("no [http] public_url: no mail when it is a player's move"),
    }
    let inbound = inbound::Inbound::new(config.clone(), relay, mailbox, spool, verifier);
    if let Some(imap) = email.imap.clone() {
        tracker.spawn(imap::run(
            imap,
            inbound.clone(),
            email.max_message_bytes,
            email.poll_interval,
            shutdown.clone(),
        ));
    }
    if let Some(dir) = email.maildir.clone() {
        tracker.spawn(maildir::run(
            dir,
            inbound,
            email.max_message_bytes,
            email.poll_interval,
            shutdown,
        ));
    }
    tracing::info!(address = %email.address, "email transport started");
    Ok(())
}
