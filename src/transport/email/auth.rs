//! Who a mail is from, proven. A From header is only a claim: a mail counts only if its From
//! is a player's configured address AND it carries that player's email token (a word
//! `key:TOKEN` in the subject, or a plus address `relay+TOKEN@domain` it was sent to) AND,
//! where the player's configuration asks for it, a passing DKIM signature of the From
//! domain. Tokens are checked against Argon2id hashes; no token is stored or logged.

use std::collections::BTreeMap;
use std::sync::Arc;

use tokio::sync::Semaphore;

use super::message::Mail;
use crate::config::Player;

/// Why a mail does not count.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    #[error("the sender {0:?} is not a player's address")]
    UnknownSender(String),
    #[error(
        "the mail carries no token: put \"key:YOUR-TOKEN\" in the subject or write to the relay's plus address"
    )]
    NoToken,
    #[error("the token is wrong")]
    WrongToken,
    #[error("no passing DKIM signature of {0}, and this player's mail must carry one")]
    Dkim(String),
}

/// The player whose address `from` is, if any (and only one).
pub fn player_by_address<'a>(
    players: &'a BTreeMap<String, Player>,
    from: &str,
) -> Option<&'a Player> {
    if from.is_empty() {
        return None;
    }
    let mut matching = players
        .values()
        .filter(|p| p.email.as_ref().is_some_and(|e| e.address == from));
    let first = matching.next()?;
    matching.next().is_none().then_some(first)
}

/// The token words a mail carries: `key:TOKEN` in the subject, and the `+TOKEN` of every
/// recipient address on the relay's own local part and domain.
pub fn tokens(mail: &Mail, relay_address: &str) -> Vec<String> {
    let mut out: Vec<String> = mail
        .subject
        .split_whitespace()
        .filter_map(|w| {
            let lower = w.to_lowercase();
            lower
                .starts_with("key:")
                .then(|| w[4..].trim_matches(|c: char| matches!(c, ',' | ';' | ')' | ']')))
        })
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect();
    if let Some((local, domain)) = relay_address.to_lowercase().rsplit_once('@') {
        for r in &mail.recipients {
            if let Some((rl, rd)) = r.rsplit_once('@')
                && rd == domain
                && let Some(token) = rl.strip_prefix(&format!("{local}+"))
                && !token.is_empty()
            {
                out.push(token.to_owned());
            }
        }
    }
    // Bounded: each check costs an Argon2id hash.
    out.truncate(4);
    out
}

/// Checks the token words against the player's hash, off the async threads, a few at once.
pub async fn token_matches(tokens: Vec<String>, hash: String, limit: Arc<Semaphore>) -> bool {
    let Ok(permit) = limit.acquire_owned().await else {
        return false;
    };
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        tokens.iter().any(|t| crate::auth::verify_secret(t, &hash))
    })
    .await
    .unwrap_or(false)
}

/// Whether `raw` carries a DKIM signature that passes and is made by the From address's
/// domain (or a parent of it: `d=example.org` signs for `mail.example.org`... and not the
/// reverse). DNS is the system resolver's; a lookup that fails is a failure.
pub async fn dkim_passes(raw: &[u8], from: &str) -> bool {
    use mail_auth::{AuthenticatedMessage, DkimResult, MessageAuthenticator};
    let Some(domain) = from.rsplit_once('@').map(|(_, d)| d.to_lowercase()) else {
        return false;
    };
    let Some(message) = AuthenticatedMessage::parse(raw) else {
        return false;
    };
    let Ok(authenticator) = MessageAuthenticator::new_system_conf() else {
        return false;
    };
    let outputs = match tokio::time::timeout(
        std::time::Duration::from_secs(30),
        authenticator.verify_dkim(&message),
    )
    .await
    {
        Ok(outputs) => outputs,
        Err(_) => return false,
    };
    outputs.iter().any(|o| {
        o.result() == &DkimResult::Pass
            && o.signature().is_some_and(|s| {
                let d = s.d.to_lowercase();
                domain == d || domain.ends_with(&format!(".{d}"))
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_from_subject_and_plus_address() {
        let mail = Mail {
            subject: "Re: g1 key:s3cret".into(),
            recipients: vec![
                "relay+t0k@example.org".into(),
                "other+x@example.org".into(),
                "relay+y@elsewhere.org".into(),
            ],
            ..Mail::default()
        };
        assert_eq!(tokens(&mail, "relay@example.org"), vec!["s3cret", "t0k"]);
    }
}
