//! A request, as one value from the door to the handler: who sends it ([`Sender`]), the
//! command, its words for the record, the transport's idempotency key, a message riding with
//! it, and its age when it was made on another node. A transport makes it once, the relay's
//! queue carries it, and every handler reads it; nothing of a request is kept in the relay's
//! state between requests.

use std::ops::Deref;

use jiff::SignedDuration;

use crate::command::text::{self, Mended, TextKind};
use crate::command::{Command, bounded_text};

use super::reply::{Channel, Reply};
use super::said::Said;

/// Who sends a command.
#[derive(Clone, Debug)]
pub struct Sender {
    /// The player id, or `admin`.
    pub player: String,
    pub admin: bool,
    pub channel: Channel,
}

/// A command as a transport received it, with its sender (which it reads as, through
/// `Deref`).
#[derive(Clone, Debug)]
pub struct Request {
    pub sender: Sender,
    pub command: Command,
    /// The text as received, kept in the record (bounded: [`bounded_text`]): what the
    /// request's entries record.
    pub text: String,
    /// The transport's idempotency key for the message (an email's Message-ID, hashed): the
    /// journal entry the command writes records it in the same transaction (the first one
    /// committed keeps it), so a transport that sees the same message again after a crash finds
    /// it with [`Mailbox::seen`](crate::relay::Mailbox::seen).
    pub key: Option<String>,
    /// A message for the opponent, journaled and delivered after the command if it is carried
    /// out (a mail's other words around its move).
    pub message: Option<String>,
    /// How long ago the action was made, if on another node (a proposal arriving over a link,
    /// which says how long it waited there): it is recorded at this node's clock less that,
    /// though never before the game's last record entry.
    pub age: Option<SignedDuration>,
}

impl Request {
    /// A command without words of its own: recorded in its canonical form.
    pub fn new(sender: Sender, command: Command) -> Request {
        let text = command.to_string();
        Request::worded(sender, command, text)
    }

    /// A command and the text it was read from, recorded as it was written (bounded). The
    /// canonical form [`Request::new`] writes is not made, on the way of every move read.
    pub fn read_from(sender: Sender, command: Command, text: &str) -> Request {
        Request::worded(sender, command, bounded_text(text))
    }

    /// `command` recorded in the words `text` as they are (already bounded, or the relay's
    /// own), without a key, a message or an age.
    pub(super) fn worded(sender: Sender, command: Command, text: impl Into<String>) -> Request {
        Request {
            sender,
            command,
            text: text.into(),
            key: None,
            message: None,
            age: None,
        }
    }

    pub fn key(mut self, key: Option<String>) -> Request {
        self.key = key;
        self
    }

    pub fn message(mut self, message: Option<String>) -> Request {
        self.message = message;
        self
    }

    pub fn age(mut self, age: SignedDuration) -> Request {
        self.age = Some(age);
        self
    }

    /// The same sender asking `command` in the words `text` (a message sent with a move, a
    /// secret's change recorded without the secret): no key, no message, no age of its own.
    pub(super) fn saying(&self, command: Command, text: impl Into<String>) -> Request {
        Request::worded(self.sender.clone(), command, text)
    }
}

impl Deref for Request {
    type Target = Sender;

    fn deref(&self) -> &Sender {
        &self.sender
    }
}

/// A message sent alone from a front end whose box holds any text, ready for the relay.
#[derive(Clone, Debug)]
pub struct MessageAlone {
    pub request: Request,
    /// Whether mending changed the words: the front end says so with the reply
    /// ([`MessageAlone::told`]).
    pub mended: bool,
}

impl MessageAlone {
    /// The relay's reply to the message, saying that it was mended when it was.
    pub fn told(&self, reply: Reply) -> Reply {
        if self.mended && reply.status.is_success() {
            let text = format!("{}; {MENDED}", reply.text);
            return Reply::new(reply.status, text).saying(Said::MessageSent { mended: true });
        }
        reply
    }
}

/// What a front end whose box holds any text (XFCC's `myMessage`, a web page's message box)
/// sends when `sender`'s message goes alone: the text mended as a message riding with a move
/// is ([`text::mend`]), recorded with the words as received when mending changed them; `None`
/// when nothing readable is left of it.
pub fn mended_message(sender: Sender, game: &str, written: &str) -> Option<MessageAlone> {
    let mended = text::mend(written, TextKind::Message);
    if mended.text.is_empty() {
        return None;
    }
    let words = message_words(game, written, &mended);
    let command = Command::Message {
        game: game.to_owned(),
        text: mended.text,
    };
    Some(MessageAlone {
        request: Request::worded(sender, command, words),
        mended: mended.changed,
    })
}

/// The words a message's entry records: `MSG <game> <text>` as delivered, or, when mending
/// changed them, as received, escaped ([`text::escaped`]: a line break shows as `\n`) and
/// bounded, so the record shows what was written beside what was delivered (the entry's
/// detail).
pub(super) fn message_words(game: &str, written: &str, mended: &Mended) -> String {
    if mended.changed {
        bounded_text(&format!("MSG {game} {}", text::escaped(written.trim())))
    } else {
        format!("MSG {game} {}", mended.text)
    }
}

/// What a reply adds when a message was mended.
pub(super) const MENDED: &str = "the message was mended for its reader (line breaks shown as \" / \", \
     characters that hide or reorder text left out, cut at 500 characters)";
