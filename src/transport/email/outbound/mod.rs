//! The relay's mail: what it looks like, and the tasks that send it.
//!
//! Two queues feed SMTP, both durable. The journal's outbox holds what the relay tells a
//! player about a game (the opponent's move, a draw offer, the result): one task per email
//! player reads it, mails each message and acknowledges it only after the SMTP server accepted
//! it. The reply spool holds the answers to players' mails. A server that is down delays mail,
//! with exponential backoff up to `email.retry_max_secs`, and never drops it.
//!
//! Message-IDs are made from the outbox id (or the inbound mail's key), so a mail sent again
//! after a crash is the same mail to the receiving client, and every mail about a game
//! references one root id, `<ccrelay.game.ID@domain>`, so clients thread a game together.
//! Replying to any of them names the game.

use std::sync::Arc;
use std::time::Duration;

use lettre::Message;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox as MailAddress, MessageBuilder};
use tokio_util::sync::CancellationToken;

use super::message::Mail;
use super::smtp::Smtp;
use super::spool::Spool;
use crate::backoff::{self, Backoff};
use crate::catalog::{Key, Tongue};
use crate::command::Command;
use crate::config::{EmailConfig, valid_id};
use crate::notation::Lang;
use crate::relay::undelivered::{DeadLetter, Shelf};
use crate::relay::{
    Channel, Mailbox, Message as OutboxMessage, Relay, Reply, Request, Sender, ShortReceipt, Status,
};
use sha2::{Digest, Sha256};

/// A mail ready to send.
pub struct Outgoing {
    pub id: String,
    pub to: String,
    pub bytes: Vec<u8>,
}

/// The game a relay Message-ID names: `<ccrelay.TAG.GAME@domain>` with TAG `game`, `o<id>` or
/// `r<hex>`, on the relay's own domain.
pub fn game_of_message_id(id: &str, domain: &str) -> Option<String> {
    let id = id.trim().trim_start_matches('<').trim_end_matches('>');
    let (local, dom) = id.rsplit_once('@')?;
    if !dom.eq_ignore_ascii_case(domain) {
        return None;
    }
    let rest = local.strip_prefix("ccrelay.")?;
    let (tag, game) = rest.split_once('.')?;
    let tag_ok = tag == "game"
        || tag
            .strip_prefix('o')
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        || tag
            .strip_prefix('r')
            .is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()));
    (tag_ok && valid_id(game)).then(|| game.to_owned())
}

pub(super) fn root_id(game: &str, domain: &str) -> String {
    format!("<ccrelay.game.{game}@{domain}>")
}

pub(super) fn builder(
    email: &EmailConfig,
    to: &str,
    subject: &str,
) -> Result<MessageBuilder, String> {
    let from: MailAddress = format!("ccrelay <{}>", email.address)
        .parse()
        .map_err(|e| format!("relay address: {e}"))?;
    let to: MailAddress = to.parse().map_err(|e| format!("address {to:?}: {e}"))?;
    Ok(Message::builder().from(from).to(to).subject(subject))
}

/// Every mail the relay sends is made by a program: `Auto-Submitted` tells autoresponders not
/// to answer it (RFC 3834).
fn finish(builder: MessageBuilder, id: String, to: &str, body: String) -> Result<Outgoing, String> {
    let message = builder
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            "auto-generated".to_owned(),
        ))
        .message_id(Some(id.clone()))
        .header(ContentType::TEXT_PLAIN)
        .body(body)
        .map_err(|e| e.to_string())?;
    Ok(Outgoing {
        id,
        to: to.to_owned(),
        bytes: message.formatted(),
    })
}

/// How to answer, below every mail, in the reader's language (the catalog's `mail-footer`).
fn footer(tongue: Tongue) -> String {
    format!("\n-- \n{}\n", wrap(&tongue.word(Key::MailFooter), 72))
}

fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out
}

/// The short receipt of the entry a mail reports, on a line of its own: what the player keeps
/// (a saved mail is a receipts file for `ccrelay journal verify --receipt`).
fn receipt_line(receipt: &ShortReceipt) -> String {
    format!(
        "receipt: {receipt} (RECEIPT {} gives it signed)\n",
        receipt.seq
    )
}

/// The answer to a player's mail: the relay's reply (acknowledgement or precise error), what
/// was read of the mail, threaded under it and under the game. The reply's line is the
/// protocol's; the words around it are in `tongue`, the player's.
pub fn reply_mail(
    email: &EmailConfig,
    tongue: Tongue,
    to: &str,
    mail: &Mail,
    key: &str,
    game: Option<&str>,
    reply: &Reply,
) -> Result<Outgoing, String> {
    // The key names the mail answered; the time makes each answer its own message (a mail
    // seen twice is answered twice). A retry resends the spooled bytes, so the id is stable.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let hash = format!("{}{nanos:x}", key.strip_prefix("email:").unwrap_or(key));
    let first = reply.text.lines().next().unwrap_or("");
    let (id, subject) = match game {
        Some(g) if valid_id(g) => (
            format!("<ccrelay.r{hash}.{g}@{}>", email.domain),
            format!("[ccrelay] {g}: {first}"),
        ),
        _ => (
            format!("<ccrelay.r{hash}@{}>", email.domain),
            format!("[ccrelay] {first}"),
        ),
    };
    let subject: String = subject.chars().take(200).collect();
    let mut b = builder(email, to, &subject)?;
    let mut references = Vec::new();
    if !mail.message_id.is_empty() {
        let theirs = format!("<{}>", mail.message_id);
        b = b.in_reply_to(theirs.clone());
        references.push(theirs);
    }
    if let Some(g) = game.filter(|g| valid_id(g)) {
        references.insert(0, root_id(g, &email.domain));
    }
    if !references.is_empty() {
        // One header with every id (the builder's `references` keeps only one).
        b = b.raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("References"),
            references.join(" "),
        ));
    }
    let status = if reply.status.is_success() {
        "OK"
    } else {
        "REFUSED"
    };
    let mut body = format!("{status} ({}): {}\n", reply.status.code(), reply.text);
    if let Some(receipt) = &reply.receipt {
        body.push_str(&receipt_line(receipt));
    }
    if !mail.text.is_empty() {
        body.push('\n');
        body.push_str(&tongue.word(Key::MailYouSaid));
        body.push('\n');
        for line in mail.text.lines().take(20) {
            body.push_str("> ");
            body.push_str(line);
            body.push('\n');
        }
    }
    if mail.truncated {
        body.push('\n');
        body.push_str(&tongue.word(Key::MailTruncated));
        body.push('\n');
    }
    body.push_str(&footer(tongue));
    finish(b, id, to, body)
}

/// An item from the outbox, rendered for its reader, mailed: its line (the move in the
/// player's notation and in ICCF numeric, its number, who played it), then `view` (for a move,
/// the game as it stood after that move: diagram, moves, whose move, clocks), and how to
/// answer.
pub struct PushMail<'a> {
    pub item: &'a OutboxMessage,
    /// The item on one line, as the protocol writes it.
    pub line: &'a str,
    /// The same without its game, for the subject.
    pub summary: &'a str,
    pub view: Option<&'a str>,
    /// The reader's language: the summary leads the body in any but English.
    pub tongue: Tongue,
    /// The clocks the item carries in the reader's language, said below the protocol's line
    /// for a reader of any but English (the line says them in English).
    pub clocks: Option<&'a str>,
}

pub fn push_mail(email: &EmailConfig, to: &str, push: &PushMail<'_>) -> Result<Outgoing, String> {
    let item = push.item;
    let game = &item.game;
    let line = push.line.replace(['\r', '\n'], " ");
    let summary = push.summary.replace(['\r', '\n'], " ");
    // An item of no game (a welcome, an event's start) is a thread of its own.
    if game.is_empty() {
        let subject: String = format!("[ccrelay] {summary}").chars().take(200).collect();
        let id = format!("<ccrelay.o{}@{}>", item.id, email.domain);
        let b = builder(email, to, &subject)?;
        let mut body = format!("{line}\n\n");
        if let Some(view) = push.view {
            body.push_str(view);
            body.push('\n');
        }
        body.push_str(&receipt_line(&item.receipt));
        body.push_str(&footer(push.tongue));
        return finish(b, id, to, body);
    }
    let subject: String = format!("[ccrelay] {game}: {summary}")
        .chars()
        .take(200)
        .collect();
    let id = format!("<ccrelay.o{}.{game}@{}>", item.id, email.domain);
    let root = root_id(game, &email.domain);
    let b = builder(email, to, &subject)?
        .in_reply_to(root.clone())
        .references(root);
    // A reader of another language reads what happened in it first; the protocol line follows.
    let mut body = if push.tongue != Tongue::En {
        let mut body = format!("{summary}\n{line}\n");
        if let Some(clocks) = push.clocks {
            body.push_str(&clocks.replace(['\r', '\n'], " "));
            body.push('\n');
        }
        body.push_str(&format!("\ngame: {game}\n"));
        body
    } else {
        format!("{line}\n\ngame: {game}\n")
    };
    body.push_str(&receipt_line(&item.receipt));
    if let Some(view) = push.view {
        body.push('\n');
        body.push_str(view);
        body.push('\n');
    }
    body.push_str(&footer(push.tongue));
    finish(b, id, to, body)
}

/// What the delivery tasks share.
#[derive(Clone)]
pub struct Outbound {
    pub email: Arc<EmailConfig>,
    pub smtp: Smtp,
    pub relay: Relay,
    pub mailbox: Mailbox,
    pub spool: Spool,
    pub shutdown: CancellationToken,
}

/// What became of a mail handed to SMTP.
pub(super) enum Sent {
    Accepted,
    /// Refused for good (55x), with the server's answer: park it, go on.
    Refused(String),
    /// Shutting down first.
    Stopping,
}

/// The Subject line of a mail the relay made, for the dead letters' list.
pub(super) fn subject_of(bytes: &[u8]) -> String {
    let head = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(bytes, |end| &bytes[..end]);
    String::from_utf8_lossy(head)
        .lines()
        .find_map(|l| l.strip_prefix("Subject: ").map(str::to_owned))
        .unwrap_or_default()
}

pub(super) fn now_rfc3339() -> String {
    jiff::Timestamp::now()
        .round(jiff::Unit::Second)
        .map_or_else(|_| jiff::Timestamp::now().to_string(), |t| t.to_string())
}

/// Messages read from the outbox at a time.
pub(super) const PAGE: usize = 16;
const FIRST_RETRY: Duration = Duration::from_secs(1);

impl Outbound {
    /// Sends one mail until the server takes it or refuses it for good. Refusals for now
    /// (no connection, 4xx, a timeout, the relay's own login refused) are retried with backoff.
    pub(super) async fn send_until_accepted(&self, out: &Outgoing) -> Sent {
        let mut backoff = Backoff::new(FIRST_RETRY, self.email.retry_max);
        loop {
            let attempt = tokio::select! {
                r = self.smtp.send(&out.to, &out.bytes) => r,
                () = self.shutdown.cancelled() => return Sent::Stopping,
            };
            match attempt {
                Ok(()) => {
                    tracing::info!(id = %out.id, "mail sent");
                    return Sent::Accepted;
                }
                Err(e) if e.is_permanent() => {
                    tracing::warn!(id = %out.id, to = %out.to, error = %e, "mail refused for good; parked as a dead letter");
                    return Sent::Refused(e.to_string());
                }
                Err(e) => {
                    let wait = backoff.next_delay();
                    tracing::warn!(id = %out.id, error = %e, retry_in = ?wait, "mail not sent; will retry");
                    if backoff::sleep(wait, &self.shutdown).await.is_err() {
                        return Sent::Stopping;
                    }
                }
            }
        }
    }

    /// Parks a refused mail; false if it could not be stored (then it is not acknowledged,
    /// and is tried again later).
    pub(super) async fn park(&self, letter: DeadLetter) -> bool {
        let id = letter.id.clone();
        match self.mailbox.park(letter).await {
            Ok(()) => {
                metrics::counter!("ccrelay_mail_dead_letters_total").increment(1);
                true
            }
            Err(e) => {
                tracing::error!(%id, error = %e, "cannot park a dead letter; will try again");
                false
            }
        }
    }

    /// Mails `player`'s outbox to `to`, forever: each message acknowledged once sent.
    pub async fn deliver_outbox(self, player: String, to: String, lang: Option<Lang>) {
        let tongue = Tongue::of(lang);
        let mut rows = self.rows(&player);
        while let Some(item) = rows.next().await {
            let handled = self
                .mail_outbox_row(&player, &to, lang, tongue, &item)
                .await;
            if !rows.settle(item.id, handled).await {
                return;
            }
        }
    }

    /// Mails one row of `player`'s outbox to `to`.
    async fn mail_outbox_row(
        &self,
        player: &str,
        to: &str,
        lang: Option<Lang>,
        tongue: Tongue,
        item: &OutboxMessage,
    ) -> Handled {
        // A move is shown as of that move; a welcome or an event's start with what it
        // tells; anything else with the game as it is.
        let view = match self.mailbox.as_of(item).await {
            Some(view) => Some(view),
            None => {
                match crate::relay::summary::mail_details(&item.notice, &self.email.address, lang) {
                    Some(details) => Some(details),
                    None if item.game.is_empty() => None,
                    None => self.show(player, &item.game).await,
                }
            }
        };
        let (line, summary) = (self.mailbox.render(item), self.mailbox.summary(item));
        let clocks = (tongue != Tongue::En)
            .then(|| crate::relay::summary::mail_clocks(&item.notice, lang))
            .flatten();
        let push = PushMail {
            item,
            line: &line,
            summary: &summary,
            view: view.as_deref(),
            tongue,
            clocks: clocks.as_deref(),
        };
        let mail = match push_mail(&self.email, to, &push) {
            Ok(mail) => mail,
            Err(e) => {
                // Never dropped: it stays in the outbox, and later messages wait
                // behind it, until the configuration is fixed.
                tracing::error!(%player, id = item.id, error = %e, "cannot build a mail; will retry");
                return Handled::Stuck;
            }
        };
        // A mail holding a secret (a welcome) is parked without it: the letter says a
        // welcome failed, and once the outbox row is acknowledged the secret is nowhere
        // (the journal deletes with `secure_delete`).
        let secret = item.notice.holds_secret();
        let what = secret.then(|| {
            format!(
                "{} (its secret not kept: PLAYER SECRET {player} draws a new one)",
                subject_of(&mail.bytes)
            )
        });
        self.send_or_park(item, player, mail, what, !secret).await
    }

    /// The game as `player` sees it, for the mail; none if the relay cannot say.
    async fn show(&self, player: &str, game: &str) -> Option<String> {
        let sender = Sender {
            player: player.to_owned(),
            admin: false,
            channel: Channel::Email,
        };
        let reply = self
            .relay
            .call(Request::new(
                sender,
                Command::Show {
                    game: game.to_owned(),
                },
            ))
            .await;
        (reply.status == Status::Done).then_some(reply.text)
    }

    /// Sends the reply spool, forever.
    pub async fn deliver_spool(self) {
        let wake = self.spool.wake();
        loop {
            if self.shutdown.is_cancelled() {
                return;
            }
            let waiting = match self.spool.waiting(PAGE).await {
                Ok(w) => w,
                Err(e) => {
                    tracing::error!(error = %e, "cannot read the reply spool");
                    Vec::new()
                }
            };
            let retries = match self.mailbox.dead_to_retry(PAGE).await {
                Ok(r) => r,
                Err(e) => {
                    tracing::error!(error = %e, "cannot read the dead letters to send again");
                    Vec::new()
                }
            };
            let idle = waiting.is_empty() && retries.is_empty();
            for spooled in waiting {
                let out = Outgoing {
                    id: spooled.id.clone(),
                    to: spooled.to.clone(),
                    bytes: spooled.bytes.clone(),
                };
                match self.send_until_accepted(&out).await {
                    Sent::Accepted => {}
                    Sent::Stopping => return,
                    Sent::Refused(error) => {
                        let hash = Sha256::digest(spooled.id.as_bytes());
                        let letter = DeadLetter {
                            id: format!("r{}", hex::encode(&hash[..6])),
                            shelf: Shelf::Parked,
                            player: String::new(),
                            to: spooled.to.clone(),
                            game: String::new(),
                            what: subject_of(&out.bytes),
                            error,
                            parked_at: now_rfc3339(),
                            bytes: out.bytes,
                        };
                        if !self.park(letter).await {
                            continue;
                        }
                    }
                }
                if let Err(e) = self.spool.remove(&spooled).await {
                    tracing::error!(error = %e, "cannot remove a sent reply");
                }
            }
            // Dead letters the admin asked to send again: sent, or parked again.
            for mut letter in retries {
                let out = Outgoing {
                    id: letter.id.clone(),
                    to: letter.to.clone(),
                    bytes: std::mem::take(&mut letter.bytes),
                };
                match self.send_until_accepted(&out).await {
                    Sent::Accepted => {
                        if let Err(e) = self.mailbox.dead_sent(&letter.id).await {
                            tracing::error!(id = %letter.id, error = %e, "cannot forget a dead letter sent again");
                        }
                    }
                    Sent::Stopping => return,
                    Sent::Refused(error) => {
                        letter.error = error;
                        letter.parked_at = now_rfc3339();
                        letter.bytes = out.bytes;
                        self.park(letter).await;
                    }
                }
            }
            if idle && self.pause_or_wake(&wake).await {
                return;
            }
        }
    }

    /// Sleeps; true if shutting down.
    pub(super) async fn pause(&self, d: Duration) -> bool {
        backoff::sleep(d, &self.shutdown).await.is_err()
    }

    async fn pause_or_wake(&self, wake: &tokio::sync::Notify) -> bool {
        tokio::select! {
            () = wake.notified() => false,
            () = tokio::time::sleep(self.email.poll_interval) => false,
            () = self.shutdown.cancelled() => true,
        }
    }
}

mod queue;

pub(super) use queue::Handled;

#[cfg(test)]
mod tests;
