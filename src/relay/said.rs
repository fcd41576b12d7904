//! A command as a transport received it ([`Said`]): the command, its words for the record,
//! the transport's idempotency key, a message riding with it, and its age when it was made on
//! another node.

use crate::command::text::{self, Mended, TextKind};
use crate::command::{Command, bounded_text};

use super::Reply;

/// A command as a transport received it.
#[derive(Clone, Debug)]
pub struct Said {
    pub command: Command,
    /// The text as received, kept in the record (bounded).
    pub text: String,
    /// The transport's idempotency key for the message (an email's Message-ID, hashed): the
    /// journal entry the command writes records it in the same transaction, so a transport that
    /// sees the same message again after a crash finds it with
    /// [`Mailbox::seen`](crate::relay::Mailbox::seen).
    pub key: Option<String>,
    /// A message for the opponent, journaled and delivered after the command if it is carried
    /// out (a mail's other words around its move).
    pub message: Option<String>,
    /// How long ago the action was made, if on another node (a proposal arriving over a link,
    /// which says how long it waited there): it is recorded at this node's clock less that,
    /// though never before the game's last record entry.
    pub age: Option<jiff::SignedDuration>,
}

impl Said {
    /// A command without words of its own: recorded in its canonical form.
    pub fn new(command: Command) -> Said {
        let text = command.to_string();
        Said {
            command,
            text,
            key: None,
            message: None,
            age: None,
        }
    }

    /// A command and the text it was read from, recorded as it was written (bounded). The
    /// canonical form [`Said::new`] writes is not made, on the way of every move read.
    pub fn read_from(command: Command, text: &str) -> Said {
        Said {
            command,
            text: bounded_text(text),
            key: None,
            message: None,
            age: None,
        }
    }

    pub fn key(mut self, key: Option<String>) -> Said {
        self.key = key;
        self
    }

    pub fn message(mut self, message: Option<String>) -> Said {
        self.message = message;
        self
    }

    pub fn age(mut self, age: jiff::SignedDuration) -> Said {
        self.age = Some(age);
        self
    }
}

/// A message sent alone from a front end whose box holds any text, ready for the relay.
#[derive(Clone, Debug)]
pub struct MessageAlone {
    pub said: Said,
    /// Whether mending changed the words: the front end says so with the reply
    /// ([`MessageAlone::told`]).
    pub mended: bool,
}

impl MessageAlone {
    /// The relay's reply to the message, saying that it was mended when it was.
    pub fn told(&self, reply: Reply) -> Reply {
        if self.mended && reply.status.is_success() {
            let text = format!("{}; {MENDED}", reply.text);
            return Reply::new(reply.status, text);
        }
        reply
    }
}

/// What a front end whose box holds any text (XFCC's `myMessage`, a web page's message box)
/// sends when a message goes alone: the text mended as a message riding with a move is
/// ([`text::mend`]), recorded with the words as received when mending changed them; `None`
/// when nothing readable is left of it.
pub fn mended_message(game: &str, written: &str) -> Option<MessageAlone> {
    let mended = text::mend(written, TextKind::Message);
    if mended.text.is_empty() {
        return None;
    }
    let said = message_said(game, written, &mended);
    let command = Command::Message {
        game: game.to_owned(),
        text: mended.text,
    };
    Some(MessageAlone {
        said: Said {
            text: said,
            ..Said::new(command)
        },
        mended: mended.changed,
    })
}

/// The words a message's entry records: `MSG <game> <text>` as delivered, or, when mending
/// changed them, as received, escaped ([`text::escaped`]: a line break shows as `\n`) and
/// bounded, so the record shows what was written beside what was delivered (the entry's
/// detail).
pub(super) fn message_said(game: &str, written: &str, mended: &Mended) -> String {
    if mended.changed {
        bounded_text(&format!("MSG {game} {}", text::escaped(written.trim())))
    } else {
        format!("MSG {game} {}", mended.text)
    }
}

/// What a reply adds when a message was mended.
pub(super) const MENDED: &str = "the message was mended for its reader (line breaks shown as \" / \", \
     characters that hide or reorder text left out, cut at 500 characters)";
