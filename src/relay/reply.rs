//! What the relay answers, typed: a [`Status`] (its wire code and meaning in one table) and a
//! text; and where a command came from, a [`Channel`].
//!
//! Transports decide what to do with a reply from its status ([`Status::is_final`]: whether
//! the relay settled the command, so a mail can be marked done or a link frame acknowledged),
//! never from a range of numbers.
//!
//! ```
//! use ccrelay::relay::{Reply, Status};
//! let reply = Reply::new(Status::Done, "accepted g1 1. 5254");
//! assert_eq!(reply.status.code(), 250);
//! assert!(reply.status.is_final() && reply.status.is_success());
//! assert!(!Status::NotRecorded.is_final());
//! ```

use std::fmt;

use crate::journal::Short;

use super::said::Said;

macro_rules! statuses {
    ($($(#[$doc:meta])* $variant:ident = $code:literal, $meaning:literal;)*) => {
        /// Every status a reply can carry.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Status {
            $($(#[$doc])* $variant,)*
        }

        impl Status {
            /// Every status, in the order of the table.
            pub const ALL: &'static [Status] = &[$(Status::$variant,)*];

            /// The code the line protocol writes (docs/protocol.md, Replies).
            pub const fn code(self) -> u16 {
                match self {
                    $(Status::$variant => $code,)*
                }
            }

            /// What the status means, for documentation and help.
            pub const fn meaning(self) -> &'static str {
                match self {
                    $(Status::$variant => $meaning,)*
                }
            }
        }
    };
}

statuses! {
    /// The server's greeting.
    Ready = 200, "greeting";
    /// The `HELP` text.
    Help = 214, "help text";
    /// The answer to `QUIT`; the connection closes.
    Bye = 221, "bye";
    /// A message handled before (a mail read again): not applied again.
    Seen = 208, "handled before";
    /// Logged in.
    LoggedIn = 230, "logged in";
    /// Sent on: the game's record is kept by the other node of a link, where the action went
    /// (it is on disk here as sent); a push says when it is in the record, or refused.
    Proposed = 202, "sent to the node that keeps the game's record";
    /// Done: the command was carried out (and is on disk, if it changed anything).
    Done = 250, "done";
    /// The command's words are wrong: unknown command, a missing or unexpected word, a bad
    /// value.
    BadCommand = 400, "malformed command";
    /// Not logged in yet, or (a mail) not authenticated.
    NotLoggedIn = 401, "not logged in";
    /// Not the sender's to do: not their game, not the admin.
    Forbidden = 403, "not allowed";
    /// No such game, player or event.
    NotFound = 404, "not found";
    /// The game's state refuses it: not your move, wrong move number, game over, ...
    Refused = 409, "refused by the game's state";
    /// Closing: the relay is shutting down, or the session timed out. Try again later.
    Closing = 421, "closing";
    /// The move cannot be read, is illegal or ambiguous; a mark is not a move mark; a
    /// conditional line cannot be read or played.
    BadMove = 422, "move refused";
    /// Too many logins or commands; slow down.
    TooMany = 429, "too many";
    /// Wrong player or secret.
    LoginRefused = 430, "login refused";
    /// The journal did not record it (or a line was too long): nothing changed. Try again.
    NotRecorded = 500, "not recorded";
}

impl Status {
    /// The command was carried out.
    pub fn is_success(self) -> bool {
        self.code() < 300
    }

    /// The relay settled the command, accepted or refused for good: asking again gets the
    /// same answer. `false` only when nothing was decided (shutting down, journal failure),
    /// so a transport must keep the message and try again later.
    pub fn is_final(self) -> bool {
        !matches!(self, Status::Closing | Status::NotRecorded)
    }

    /// The status a code stands for.
    pub fn from_code(code: u16) -> Option<Status> {
        Status::ALL.iter().copied().find(|s| s.code() == code)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.code())
    }
}

/// A reply: a status and text (lines after the first are details), and the short receipt
/// of the last journal entry the command wrote, if it wrote one (each transport writes it its
/// own way; the line protocol at the end of the reply's last line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub status: Status,
    pub text: String,
    pub receipt: Option<Short>,
    /// The reply ends with a word a script takes as it is (a new secret): no short receipt
    /// is written after it, though its entry is in the record like any other.
    pub ends_with_secret: bool,
    /// What the reply says, typed, for a front end that writes its own words in its reader's
    /// language (the web pages); the text is the line protocol's, in English.
    pub said: Option<Box<Said>>,
}

impl Reply {
    pub fn new(status: Status, text: impl Into<String>) -> Reply {
        Reply {
            status,
            text: text.into(),
            receipt: None,
            ends_with_secret: false,
            said: None,
        }
    }

    /// The reply, saying typed what its text says in English.
    pub fn saying(mut self, said: Said) -> Reply {
        self.said = Some(Box::new(said));
        self
    }

    /// A reply whose last word is a new secret (see [`Reply::ends_with_secret`]).
    pub fn with_secret(status: Status, text: impl Into<String>) -> Reply {
        Reply {
            ends_with_secret: true,
            ..Reply::new(status, text)
        }
    }

    /// The reply for a journal that failed: nothing was recorded.
    pub fn not_recorded(error: &dyn std::error::Error) -> Reply {
        Reply::new(Status::NotRecorded, format!("not recorded: {error}")).saying(Said::NotRecorded)
    }

    pub fn shutting_down() -> Reply {
        Reply::new(Status::Closing, "the relay is shutting down").saying(Said::ShuttingDown)
    }
}

/// Where a command came from: the transport that carried it, or the relay itself.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Channel {
    Tcp,
    Serial,
    Email,
    Link,
    Http,
    /// An APRS message heard on a radio port.
    Radio,
    /// The admin socket: the arbiter's `ccrelay admin` on the daemon's own machine.
    Admin,
    /// The configuration's games, started at start-up.
    Config,
    /// The correspondence clock: time-outs, reminders.
    Clock,
    /// A move played from a conditional line.
    Conditional,
    /// A knock-out's bracket: the games and lots that come due as its matches are decided.
    Bracket,
}

impl Channel {
    /// The name the journal records.
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Tcp => "tcp",
            Channel::Serial => "serial",
            Channel::Email => "email",
            Channel::Link => "link",
            Channel::Http => "http",
            Channel::Radio => "radio",
            Channel::Admin => "admin",
            Channel::Config => "config",
            Channel::Clock => "clock",
            Channel::Conditional => "conditional",
            Channel::Bracket => "bracket",
        }
    }
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_round_trip() {
        for status in Status::ALL {
            assert_eq!(Status::from_code(status.code()), Some(*status));
            assert!(!status.meaning().is_empty());
        }
        assert_eq!(Status::from_code(299), None);
    }

    /// The link took any 5xx and 421 as "not recorded", email only 421 and 500: one rule now.
    #[test]
    fn regression_transports_disagreed_on_what_is_final() {
        let not_final: Vec<u16> = Status::ALL
            .iter()
            .filter(|s| !s.is_final())
            .map(|s| s.code())
            .collect();
        assert_eq!(not_final, [421, 500]);
        assert!(Status::Refused.is_final() && !Status::Refused.is_success());
        assert!(Status::BadMove.is_final());
    }

    /// A move played from a conditional line is told as one when it is read back from the
    /// record: the record names its channel as the relay does.
    #[test]
    fn the_record_names_a_lines_channel_as_the_relay_does() {
        assert_eq!(
            Channel::Conditional.as_str(),
            crate::journal::notice::CONDITIONAL_CHANNEL
        );
    }
}
