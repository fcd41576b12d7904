//! A command as a transport received it ([`Said`]): the command, its words for the record,
//! the transport's idempotency key, a message riding with it, and its age when it was made on
//! another node.

use crate::command::{Command, bounded_text};

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
