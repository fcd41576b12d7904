//! One inbound mail, handled: read, authenticated, turned into a relay command, answered.
//! Shared by the IMAP and Maildir sources, which only fetch mail and mark it processed when
//! [`Inbound::handle`] says so.
//!
//! Exactly once: every mail has an idempotency key (its Message-ID hashed, or its bytes hashed
//! if it has none) that the journal records in the same transaction as the entry the mail
//! causes. A source marks a mail processed only after the entry is committed and the reply
//! spooled; a mail fetched again after a crash in between is found by its key and changes
//! nothing. A mail the relay could not answer (shutting down) is left unmarked and read again.

use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::auth::{self, AuthError};
use super::message::{self, Mail};
use super::outbound::{self, Outgoing};
use super::spool::Spool;
use crate::auth::Verifier;
use crate::catalog::Tongue;
use crate::command::letter::{self, Letter, LetterError};
use crate::command::text::Logged;
use crate::config::{Config, Player, valid_id};
use crate::limiter::{KeyedLimiter, Throttle};
use crate::relay::{
    Channel, Done, Handled, Mailbox, Rejected, Relay, Reply, Request, Sender, Status,
};

/// What a source does with a mail after [`Inbound::handle`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Handled (applied, refused, or recognised as seen before): mark it processed.
    Done,
    /// Not handled (the relay or the journal is stopping): leave it to be read again.
    Retry(String),
}

/// The channel name journal entries from mail carry.
pub const CHANNEL: Channel = Channel::Email;

#[derive(Clone)]
pub struct Inbound {
    config: Arc<Config>,
    relay: Relay,
    mailbox: Mailbox,
    spool: Spool,
    verifier: Arc<Verifier>,
    budget: Arc<RejectionBudget>,
    /// The DKIM checker (its DNS resolver and cache); none if it could not be made, and then
    /// no DKIM signature passes.
    dkim: Option<Arc<mail_auth::MessageAuthenticator>>,
}

/// How much refused mail the journal records: so many per claimed sender and so many in all
/// per hour. Beyond that a refused mail is counted (`ccrelay_mail_rejected_unjournaled_total`)
/// and noted in the log at most once a minute, not journaled and not answered: a flood of bad
/// mail grows neither the record, nor the log, nor anyone's mailbox without end.
pub struct RejectionBudget {
    per_sender: KeyedLimiter,
    all: KeyedLimiter,
    note: Throttle,
}

/// Claimed senders whose refused mail is counted at once; a flood of more distinct senders
/// within the hour is not journaled (the table never grows past this).
const MAX_SENDERS: usize = 4096;
const HOUR: std::time::Duration = std::time::Duration::from_secs(3600);

impl RejectionBudget {
    pub fn new(per_sender_per_hour: u32, per_hour: u32) -> RejectionBudget {
        RejectionBudget {
            per_sender: KeyedLimiter::new(per_sender_per_hour, HOUR, MAX_SENDERS),
            all: KeyedLimiter::new(per_hour, HOUR, 1),
            note: Throttle::new(std::time::Duration::from_secs(60)),
        }
    }

    /// Whether a refused mail claimed to be from `sender` may be journaled; counts and notes
    /// it if not.
    pub fn allow(&self, sender: &str) -> bool {
        let sender: String = sender.to_lowercase().chars().take(64).collect();
        let over = if !self.per_sender.attempt(&sender) {
            "sender"
        } else if !self.all.attempt("") {
            "all"
        } else {
            return true;
        };
        metrics::counter!("ccrelay_mail_rejected_unjournaled_total", "bound" => over).increment(1);
        if let Some(held) = self.note.pass() {
            tracing::warn!(
                sender = %Logged(&sender),
                bound = over,
                more_since_last_note = held,
                "refused mail over the journal's bound: counted, not journaled, not answered"
            );
        }
        false
    }
}

/// What became of a refused mail.
enum Journaled {
    /// Recorded in the journal.
    Yes,
    /// Over the bound: counted only.
    Counted,
}

/// The idempotency key of a mail: its Message-ID, or its bytes if it has none, hashed.
pub fn key(mail: &Mail, raw: &[u8]) -> String {
    let mut h = Sha256::new();
    if mail.message_id.is_empty() {
        h.update(b"bytes:");
        h.update(raw);
    } else {
        h.update(b"message-id:");
        h.update(mail.message_id.as_bytes());
    }
    format!("email:{}", hex::encode(&h.finalize()[..16]))
}

/// The game a mail is about: the relay's Message-ID it replies to (the relay's `domain`),
/// else the subject's first word if it is an id.
pub fn game_of(mail: &Mail, domain: &str) -> Option<String> {
    for reference in mail.references.iter().rev() {
        if let Some(game) = outbound::game_of_message_id(reference, domain) {
            return Some(game);
        }
    }
    message::subject_words(&mail.subject)
        .into_iter()
        .next()
        .filter(|w| valid_id(w))
}

impl Inbound {
    pub fn new(
        config: Arc<Config>,
        relay: Relay,
        mailbox: Mailbox,
        spool: Spool,
        verifier: Arc<Verifier>,
    ) -> Inbound {
        let email = config.email.as_ref();
        let budget = RejectionBudget::new(
            email.map_or(20, |e| e.rejected_per_sender_per_hour),
            email.map_or(200, |e| e.rejected_per_hour),
        );
        let dkim = match auth::authenticator(email.and_then(|e| e.dns_resolver)) {
            Ok(a) => Some(Arc::new(a)),
            Err(e) => {
                tracing::error!(error = %e, "no DNS resolver for DKIM: signed mail will be refused");
                None
            }
        };
        Inbound {
            config,
            relay,
            mailbox,
            spool,
            verifier,
            budget: Arc::new(budget),
            dkim,
        }
    }

    fn email(&self) -> &crate::config::EmailConfig {
        self.config
            .email
            .as_ref()
            .expect("the email transport runs only with an [email] section")
    }

    /// Handles one mail: `raw` is what was read of it, `truncated` whether there was more.
    pub async fn handle(&self, raw: &[u8], truncated: bool) -> Outcome {
        let mail = match message::parse(raw, truncated) {
            Ok(mail) => mail,
            Err(e) => {
                let key = format!("email:{}", hex::encode(&Sha256::digest(raw)[..16]));
                return self
                    .journal_rejection("", "unknown", "", &e.to_string(), key)
                    .await
                    .map_or_else(|retry| retry, |_| Outcome::Done);
            }
        };
        let key = key(&mail, raw);
        let game = self.game_of(&mail);
        // Seen before: applied (or refused) already; a crash came before it was marked, or it
        // is a replay. Either way it changes nothing now.
        let seen = match self.mailbox.seen(&key).await {
            Ok(seen) => seen,
            Err(e) => return Outcome::Retry(format!("journal: {e}")),
        };
        // A From header is a claim; what proves it comes next.
        let players = self.relay.roster().snapshot();
        let Some(player) = auth::player_by_address(&players, &mail.from) else {
            if seen.is_some() {
                return Outcome::Done;
            }
            return self.refuse_stranger(&mail, game.as_deref(), key).await;
        };
        if let Err(e) = self.authenticate(player, &mail, raw).await {
            if e == AuthError::Busy {
                return Outcome::Retry(e.to_string());
            }
            if seen.is_some() {
                return Outcome::Done;
            }
            return self
                .refuse_unproven(player, &mail, game.as_deref(), key, e)
                .await;
        }
        if let Some(seen) = seen {
            return self.answer_seen(player, &mail, &key, &seen).await;
        }
        let Some(game) = game else {
            return self.refuse_without_game(player, &mail, key).await;
        };
        match letter::read(&mail.text, &game) {
            Ok(letter) => self.apply(player, &mail, key, &game, letter).await,
            Err(e) => self.refuse_unreadable(player, &mail, &game, key, e).await,
        }
    }

    /// A mail from an address no player has: journaled (within the budget), never answered
    /// (whoever wrote the From header is not who gets mail).
    async fn refuse_stranger(&self, mail: &Mail, game: Option<&str>, key: String) -> Outcome {
        let reason = AuthError::UnknownSender(mail.from.clone()).to_string();
        let claimed = if mail.from.is_empty() {
            "unknown".to_owned()
        } else {
            mail.from.chars().take(64).collect()
        };
        self.journal_rejection(game.unwrap_or(""), &claimed, &mail.subject, &reason, key)
            .await
            .map_or_else(|retry| retry, |_| Outcome::Done)
    }

    /// A mail in a player's name that does not prove it is theirs: journaled, and the player
    /// told at their configured address.
    async fn refuse_unproven(
        &self,
        player: &Player,
        mail: &Mail,
        game: Option<&str>,
        key: String,
        e: AuthError,
    ) -> Outcome {
        let journaled = self
            .journal_rejection(
                game.unwrap_or(""),
                &player.id,
                &mail.subject,
                &e.to_string(),
                key.clone(),
            )
            .await;
        match journaled {
            // To the configured address only, never to whoever wrote the From header; and
            // only while refusals are journaled, so a forged flood is no mail flood.
            Ok(Journaled::Yes) => {
                let text = format!(
                    "A mail claiming to come from you was refused and changed nothing: {e}."
                );
                let reply = Reply::new(Status::NotLoggedIn, text);
                self.answer(player, mail, &key, game, &reply).await
            }
            Ok(Journaled::Counted) => Outcome::Done,
            Err(retry) => retry,
        }
    }

    /// A mail handled before: answered with what was done then, applied not again.
    async fn answer_seen(
        &self,
        player: &Player,
        mail: &Mail,
        key: &str,
        seen: &Handled,
    ) -> Outcome {
        tracing::info!(player = %player.id, seq = seen.seq, "mail seen before; not applied again");
        let what = match &seen.done {
            Done::Move { text, iccf } => format!("the move {text} ({iccf})"),
            Done::Refused { reason } => format!("refused: {reason}"),
            Done::Other { what } => what.clone(),
        };
        let text = format!(
            "this mail was handled before (journal entry {}, game {}): {what}; it is not applied again",
            seen.seq, seen.game
        );
        let reply = Reply::new(Status::Seen, text);
        self.answer(player, mail, key, Some(&seen.game), &reply)
            .await
    }

    /// A player's mail that names no game, in its subject or by the mail it answers.
    async fn refuse_without_game(&self, player: &Player, mail: &Mail, key: String) -> Outcome {
        let reason = "which game? Put the game id first in the subject (e.g. \"demo-1\"), or reply to the relay's last mail about the game";
        if let Err(retry) = self
            .journal_rejection("", &player.id, &mail.subject, reason, key.clone())
            .await
        {
            return retry;
        }
        let reply = Reply::new(Status::BadCommand, reason);
        self.answer(player, mail, &key, None, &reply).await
    }

    /// A player's mail about `game` whose text holds no command the letter's reader takes.
    async fn refuse_unreadable(
        &self,
        player: &Player,
        mail: &Mail,
        game: &str,
        key: String,
        e: LetterError,
    ) -> Outcome {
        let mut reason = e.to_string();
        if mail.truncated && mail.text.is_empty() {
            reason.push_str(
                " (the mail was too long to read whole; put the move first, in plain text)",
            );
        }
        if let Err(retry) = self
            .journal_rejection(
                game,
                &player.id,
                &first_line(&mail.text),
                &reason,
                key.clone(),
            )
            .await
        {
            return retry;
        }
        let reply = Reply::new(Status::BadMove, reason);
        self.answer(player, mail, &key, Some(game), &reply).await
    }

    /// A player's letter, read: to the relay under the mail's key, and its reply answered.
    async fn apply(
        &self,
        player: &Player,
        mail: &Mail,
        key: String,
        game: &str,
        letter: Letter,
    ) -> Outcome {
        let sender = Sender {
            player: player.id.clone(),
            admin: false,
            channel: CHANNEL,
        };
        let request = Request::read_from(sender, letter.command, &letter.line)
            .key(Some(key.clone()))
            .message(letter.message);
        let reply = self.relay.call(request).await;
        // Nothing was decided (shutting down, not recorded): read the mail again later.
        if !reply.status.is_final() {
            return Outcome::Retry(reply.text);
        }
        tracing::info!(player = %player.id, game = %Logged(game), status = %reply.status, "mail handled");
        self.answer(player, mail, &key, Some(game), &reply).await
    }

    async fn authenticate(
        &self,
        player: &Player,
        mail: &Mail,
        raw: &[u8],
    ) -> Result<(), AuthError> {
        let Some(email) = &player.email else {
            return Err(AuthError::UnknownSender(mail.from.clone()));
        };
        let tokens = auth::tokens(mail, &self.email().address);
        if tokens.is_empty() {
            return Err(AuthError::NoToken);
        }
        if !auth::token_matches(tokens, &email.token_hash, &self.verifier).await? {
            return Err(AuthError::WrongToken);
        }
        if email.dkim && !auth::dkim_passes(raw, &mail.from, self.dkim.as_deref()).await {
            let domain = mail.from.rsplit_once('@').map_or("", |(_, d)| d).to_owned();
            return Err(AuthError::Dkim(domain));
        }
        Ok(())
    }

    fn game_of(&self, mail: &Mail) -> Option<String> {
        game_of(mail, &self.email().domain)
    }

    /// Journals a refused mail, within [`RejectionBudget`]; `Err` with the outcome to return
    /// when the journal could not record it (the mail is read again later).
    async fn journal_rejection(
        &self,
        game: &str,
        player: &str,
        text: &str,
        reason: &str,
        key: String,
    ) -> Result<Journaled, Outcome> {
        // One log line per refusal journaled; beyond the bound, one note a minute.
        if !self.budget.allow(player) {
            return Ok(Journaled::Counted);
        }
        tracing::warn!(sender = %Logged(player), reason = %Logged(reason), "mail refused");
        // A subject may hold a token (right or wrong): it never reaches the journal.
        let text: String = text
            .split_whitespace()
            .map(|w| {
                if w.to_lowercase().starts_with("key:") {
                    "key:***"
                } else {
                    w
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .take(200)
            .collect();
        let rejected = Rejected {
            game,
            player,
            channel: CHANNEL,
            text: &text,
            reason,
        };
        match self.mailbox.reject(rejected, Some(key)).await {
            Ok(()) => Ok(Journaled::Yes),
            Err(e) => Err(Outcome::Retry(format!("journal: {e}"))),
        }
    }

    /// Spools the reply to the player's configured address; the mail is done once it is
    /// spooled (on disk).
    async fn answer(
        &self,
        player: &Player,
        mail: &Mail,
        key: &str,
        game: Option<&str>,
        reply: &Reply,
    ) -> Outcome {
        let Some(to) = player.email.as_ref().map(|e| e.address.clone()) else {
            return Outcome::Done;
        };
        if mail.automatic {
            tracing::info!(player = %player.id, "automatic mail (Auto-Submitted/Precedence) not answered");
            return Outcome::Done;
        }
        let outgoing = outbound::reply_mail(
            self.email(),
            Tongue::of(player.lang),
            &to,
            mail,
            key,
            game,
            reply,
        );
        match outgoing {
            Ok(Outgoing { id, to, bytes }) => match self.spool.put(&id, &to, &bytes).await {
                Ok(()) => Outcome::Done,
                Err(e) => Outcome::Retry(format!("reply spool: {e}")),
            },
            Err(e) => {
                tracing::error!(error = %e, "cannot build a reply mail");
                Outcome::Done
            }
        }
    }
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_journaled_within_the_bounds_per_sender_and_in_all() {
        let budget = RejectionBudget::new(2, 5);
        // One sender: two, then counted only (case does not make a new sender).
        assert!(budget.allow("mallory@evil.test"));
        assert!(budget.allow("Mallory@Evil.test"));
        assert!(!budget.allow("mallory@evil.test"));
        // Others share what is left of the bound in all.
        assert!(budget.allow("a@evil.test"));
        assert!(budget.allow("b@evil.test"));
        assert!(budget.allow("c@evil.test"));
        assert!(!budget.allow("d@evil.test"), "the bound in all");
        assert!(!budget.allow("e@evil.test"));
    }
}
