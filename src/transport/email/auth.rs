//! Who a mail is from, proven. A From header is only a claim: a mail counts only if its From
//! is a player's configured address AND it carries that player's email token (a word
//! `key:TOKEN` in the subject, or a plus address `relay+TOKEN@domain` it was sent to) AND,
//! where the player's configuration asks for it, a passing DKIM signature of the From
//! domain. Tokens are checked against Argon2id hashes; no token is stored or logged.

use std::time::Duration;

use super::message::Mail;
use crate::auth::Verifier;
use crate::config::{Player, Players};

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
    /// Not a verdict: the mail is read again later.
    #[error("the relay was too busy checking secrets")]
    Busy,
}

/// The player whose address `from` is, if any (and only one).
pub fn player_by_address<'a>(players: &'a Players, from: &str) -> Option<&'a Player> {
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

/// Checks the token words against the player's hash with the daemon's one verifier.
pub async fn token_matches(
    tokens: Vec<String>,
    hash: &str,
    verifier: &Verifier,
) -> Result<bool, AuthError> {
    verifier
        .verify_any(tokens, hash, VERIFY_WAIT)
        .await
        .map_err(|_| AuthError::Busy)
}

/// How long a mail waits for a free secret check before it is left for the next pass.
const VERIFY_WAIT: Duration = Duration::from_secs(60);

/// The DKIM checker: a DNS resolver asking `server` (UDP, then TCP for long answers), or the
/// system's (`/etc/resolv.conf`) when none is configured. Made once, so its cache serves
/// every mail.
pub fn authenticator(
    server: Option<std::net::SocketAddr>,
) -> Result<mail_auth::MessageAuthenticator, String> {
    use mail_auth::MessageAuthenticator;
    use mail_auth::hickory_resolver::config::{
        ConnectionConfig, NameServerConfig, ResolverConfig, ResolverOpts,
    };
    let Some(server) = server else {
        return MessageAuthenticator::new_system_conf().map_err(|e| e.to_string());
    };
    let mut udp = ConnectionConfig::udp();
    udp.port = server.port();
    let mut tcp = ConnectionConfig::tcp();
    tcp.port = server.port();
    let name_server = NameServerConfig::new(server.ip(), true, vec![udp, tcp]);
    let mut options = ResolverOpts::default();
    options.timeout = Duration::from_secs(5);
    MessageAuthenticator::new(
        ResolverConfig::from_name_servers(vec![name_server]),
        options,
    )
    .map_err(|e| e.to_string())
}

/// Whether `raw` carries a DKIM signature that passes and is made by the From address's
/// domain (or a parent of it: `d=example.org` signs for `mail.example.org`... and not the
/// reverse). A lookup that fails is a failure; so is a missing checker.
pub async fn dkim_passes(
    raw: &[u8],
    from: &str,
    authenticator: Option<&mail_auth::MessageAuthenticator>,
) -> bool {
    use mail_auth::AuthenticatedMessage;
    let Some(domain) = from.rsplit_once('@').map(|(_, d)| d.to_lowercase()) else {
        return false;
    };
    let Some(message) = AuthenticatedMessage::parse(raw) else {
        return false;
    };
    let Some(authenticator) = authenticator else {
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
    aligned(&outputs, &domain)
}

/// Whether one of the DKIM results passes with a signing domain `d=` that is the From domain
/// or a parent of it.
fn aligned(outputs: &[mail_auth::DkimOutput<'_>], from_domain: &str) -> bool {
    outputs.iter().any(|o| {
        o.result() == &mail_auth::DkimResult::Pass
            && o.signature().is_some_and(|s| {
                let d = s.d.to_lowercase();
                from_domain == d || from_domain.ends_with(&format!(".{d}"))
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::collections::HashMap;
    use std::sync::Mutex;

    use base64::Engine;
    use mail_auth::common::crypto::Ed25519Key;
    use mail_auth::common::headers::HeaderWriter;
    use mail_auth::common::parse::TxtRecordParser;
    use mail_auth::common::verify::DomainKey;
    use mail_auth::dkim::DkimSigner;
    use mail_auth::{AuthenticatedMessage, MessageAuthenticator, ResolverCache, Txt};

    /// DNS answers for the test: TXT records by name.
    struct Zone(Mutex<HashMap<Box<str>, Txt>>);

    impl ResolverCache<Box<str>, Txt> for Zone {
        fn get<Q>(&self, name: &Q) -> Option<Txt>
        where
            Box<str>: std::borrow::Borrow<Q>,
            Q: std::hash::Hash + Eq + ?Sized,
        {
            self.0.lock().unwrap().get(name).cloned()
        }
        fn remove<Q>(&self, name: &Q) -> Option<Txt>
        where
            Box<str>: std::borrow::Borrow<Q>,
            Q: std::hash::Hash + Eq + ?Sized,
        {
            self.0.lock().unwrap().remove(name)
        }
        fn insert(&self, key: Box<str>, value: Txt, _valid_until: std::time::Instant) {
            self.0.lock().unwrap().insert(key, value);
        }
    }

    /// Signs `message` for `d=example.org`, verifies it against a zone holding the key, and
    /// says whether it counts for `from_domain`.
    async fn check(message: &str, tamper: bool, from_domain: &str) -> bool {
        let pkcs8 = Ed25519Key::generate_pkcs8().unwrap();
        let key = Ed25519Key::from_pkcs8_der(&pkcs8).unwrap();
        let public = base64::engine::general_purpose::STANDARD.encode(key.public_key());
        let signature = DkimSigner::from_key(key)
            .domain("example.org")
            .selector("s1")
            .headers(["From", "To", "Subject"])
            .sign(message.as_bytes())
            .unwrap();
        let mut signed = format!("{}{message}", signature.to_header());
        if tamper {
            signed = signed.replace("12. Nf3", "12. Qh5");
        }
        let zone = Zone(Mutex::new(HashMap::new()));
        let record =
            DomainKey::parse(format!("v=DKIM1; k=ed25519; p={public}").as_bytes()).unwrap();
        zone.insert(
            "s1._domainkey.example.org.".into(),
            Txt::DomainKey(std::sync::Arc::new(record)),
            std::time::Instant::now() + std::time::Duration::from_secs(3600),
        );
        let parsed = AuthenticatedMessage::parse(signed.as_bytes()).unwrap();
        // The zone answers: no query leaves the machine.
        let authenticator = MessageAuthenticator::new_cloudflare().unwrap();
        let outputs = authenticator
            .verify_dkim(mail_auth::Parameters::new(&parsed).with_txt_cache(&zone))
            .await;
        aligned(&outputs, from_domain)
    }

    #[tokio::test]
    async fn dkim_passes_only_signed_unchanged_and_aligned() {
        let message = "From: alice@mail.example.org\r\nTo: relay@relay.example.net\r\nSubject: demo-1\r\n\r\n12. Nf3\r\n";
        assert!(check(message, false, "mail.example.org").await);
        assert!(check(message, false, "example.org").await);
        assert!(
            !check(message, true, "mail.example.org").await,
            "body changed"
        );
        assert!(
            !check(message, false, "evil.example").await,
            "another domain"
        );
        assert!(
            !check(message, false, "notexample.org").await,
            "not a parent"
        );
    }

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
