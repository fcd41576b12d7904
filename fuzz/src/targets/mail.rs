//! A mail message: raw bytes to what ccrelay reads from it (headers, text, the command, the
//! tokens, the game, the idempotency key), and the DKIM reader's parse (no DNS).

use ccrelay::command::Command;
use ccrelay::command::text::{self as one_check, TextKind};
use ccrelay::transport::email::{auth, inbound, message};

use super::text;

/// No panic anywhere from raw bytes to the command; what is read is bounded and lower-cased
/// where promised; a command found in a mail renders as a line that reads back to itself.
pub fn mail(data: &[u8]) {
    if let Ok(mail) = message::parse(data, false) {
        assert_eq!(mail.from, mail.from.to_lowercase());
        for r in &mail.recipients {
            assert_eq!(r, &r.to_lowercase());
        }
        body(&mail.text);
        let _ = message::subject_words(&mail.subject);
        let tokens = auth::tokens(&mail, "relay+x@example.org");
        assert!(tokens.len() <= 4, "at most four token checks per mail");
        let key = inbound::key(&mail, data);
        assert!(key.starts_with("email:") && key.len() == 6 + 32);
        let _ = inbound::game_of(&mail, "example.org");
    }
    // The same bytes as a mail's text, without MIME: the body reader alone.
    let raw = text(data);
    body(&message::own_words(&raw));
    let _ = message::subject_words(&raw);
    // The DKIM verifier's parse (verification itself needs DNS).
    let _ = mail_auth::AuthenticatedMessage::parse(data);
}

/// The command in a mail's text, rendered and read back; its texts and the message made of
/// the words around it pass the one text check.
fn body(text: &str) {
    if let Ok(found) = ccrelay::command::letter::read(text, "g1") {
        assert_eq!(found.command.check_texts(), Ok(()), "{text:?}");
        if let Some(said) = &found.message {
            assert_eq!(
                one_check::check(said, TextKind::Message),
                Ok(()),
                "the words around the command of {text:?}: {said:?}"
            );
        }
        let rendered = found.command.to_string();
        assert_eq!(
            Command::parse(&rendered).as_ref(),
            Ok(&found.command),
            "the command of {text:?} rendered as {rendered:?}"
        );
    }
}
