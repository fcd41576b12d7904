//! What a player or the admin can say, typed, and the one grammar that reads it from words.
//!
//! Every front end shares this: the line protocol and the serial terminal read whole lines
//! ([`Command::parse`]), a mail body reads its lines with the game known from the subject
//! ([`Command::parse_in`], [`MoveLine::parse`]), and the XFCC and web front ends build commands
//! directly. Transports keep only their own words (`LOGIN`, `ACK`, `QUIT`) and framing.
//!
//! Pure code: a command is checked here for its form (a date is a date, a result a result, a
//! mark a mark); whether the game allows it is the relay's and the game's business.
//!
//! ```
//! use ccrelay::command::{Command, MoveLine};
//! use ccrelay::notation::number::MoveNumber;
//!
//! let command = Command::parse("move demo-1 12. Nf3 (=) REPEAT 11... Nc6").unwrap();
//! let Command::Move { game, line } = &command else { panic!() };
//! assert_eq!(game, "demo-1");
//! assert_eq!(line.number, Some(MoveNumber { number: 12, black: false }));
//! assert!(line.marks.draw_offer);
//! assert_eq!(line.repeat.as_deref(), Some("Nc6"));
//! // Rendered back, it reads the same.
//! assert_eq!(Command::parse(&command.to_string()).unwrap(), command);
//! // A mail body: the game comes from the subject.
//! assert!(matches!(Command::parse_in("CLAIM fifty", "demo-1"), Ok(Command::Claim { .. })));
//! assert!(MoveLine::parse("12... Nf6").is_ok());
//! ```

mod grammar;
pub mod letter;
mod notify;
mod registry;
mod render;
mod tokens;

/// The one text check lives below every layer (`crate::text`), so the configuration uses it
/// too; the command layer offers it under its own name, where the commands' texts are read.
pub use crate::text;

use jiff::SignedDuration;
use jiff::Timestamp;
use jiff::civil::Date;

use crate::game::{Claim, Kind};
use crate::notation::number::MoveNumber;
use crate::notation::result::Score;
use crate::notation::written::Marks;

pub use grammar::{MAX_TEXT_BYTES, bounded_text};
pub use notify::Notify;
pub use registry::{DEVIATION_RANGE, EVENT_KEYS, MIN_SECRET_CHARS, RATING_RANGE};
pub use text::{MAX_MESSAGE_CHARS, TextError, TextKind};

/// A move as a player writes it in a command: `[number] move [marks...] [REPEAT move]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveLine {
    pub number: Option<MoveNumber>,
    /// The move itself, one word in any notation (marks glued to it stay on it).
    pub text: String,
    /// Marks written apart from the move (`e.p.`, `(=)`, `+`).
    pub marks: Marks,
    /// The opponent's last move, repeated as ICCF custom has it.
    pub repeat: Option<String>,
}

/// A move with the number written before it, if any (a conditional line, a claim's move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumberedMove {
    pub number: Option<MoveNumber>,
    pub text: String,
}

/// What the admin does with the dead letters (`DEAD`, `DEAD RETRY id`, `DEAD DROP id`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeadAction {
    List,
    Retry(String),
    Drop(String),
}

/// The admin's setting of the manual clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ClockSetting {
    /// `+40d`, `+6h`, `+30m`.
    Advance(SignedDuration),
    /// An RFC 3339 time.
    At(Timestamp),
}

/// What the admin does with a player (`PLAYER ADD|SET|SECRET <id> ...`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlayerAction {
    /// Register a new player; the reply ends with their new secret.
    Add,
    /// Change a registered player's details.
    Set,
    /// Give the player a new secret (the old one stops working); the reply ends with it.
    Secret,
}

/// A player's details as the admin writes them; each absent one is left as it is (or, for a
/// new player, its default). Values are checked by the relay, as the configuration's are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerFields {
    pub name: Option<String>,
    /// `iccf`, `san`, `lan`, `uci`, `figurine`.
    pub notation: Option<String>,
    pub lang: Option<String>,
    /// `tcp`, `email`, `xfcc` or `radio`.
    pub reach: Option<String>,
    pub email: Option<String>,
    /// The callsign of a player by APRS message (`CALLSIGN N0CALL-7`, with `REACH radio`).
    pub callsign: Option<String>,
    /// Their radio's message width, 45 to 67 (`APRSWIDTH 45` for older radios).
    pub aprs_width: Option<String>,
    /// A starting rating the arbiter gives (`PLAYER SET p RATING 1850 RD 120 <reason>`), for
    /// a player who comes with one from another federation (docs/ratings.md).
    pub rating: Option<RatingSeed>,
}

/// A rating, its deviation and why the arbiter gives them, as `PLAYER SET ... RATING` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingSeed {
    pub rating: u32,
    pub deviation: u32,
    pub reason: String,
}

/// What the admin does with an event (`EVENT NEW|ENTER|DRAW|START|WITHDRAW|SHOW <id> ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventAction {
    /// Make an event paired by `system`, with the configuration's event keys
    /// ([`EVENT_KEYS`]: `name`, `time_control`, ...) as written.
    New {
        system: crate::event::System,
        keys: Vec<(String, String)>,
    },
    /// Enter players in order (their numbers, or a team's boards); `overriding`: the
    /// arbiter's reason for entering them although a loss on time bars them
    /// (`OVERRIDE <reason>`).
    Enter {
        team: Option<String>,
        players: Vec<String>,
        overriding: Option<String>,
    },
    /// Draw the entrants' numbers by lot.
    Draw,
    /// Number the entrants by rating, highest first, equal ratings by lot
    /// (`EVENT SEED <id> BY rating`).
    Seed,
    /// Start every game.
    Start,
    /// Withdraw a player: their unfinished games are lost.
    Withdraw { player: String, reason: String },
    /// The entrants, the pairings by round and the standings.
    Show,
}

/// Everything a player or the admin can ask of the relay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The sender's games.
    Games,
    /// One game: diagram, moves, whose turn.
    Show {
        game: String,
    },
    Move {
        game: String,
        line: MoveLine,
    },
    OfferDraw {
        game: String,
    },
    AcceptDraw {
        game: String,
    },
    DeclineDraw {
        game: String,
    },
    Resign {
        game: String,
    },
    /// A draw claim, on the position now or with a move.
    Claim {
        game: String,
        claim: Claim,
        with: Option<NumberedMove>,
    },
    /// A conditional line: the opponent's expected move, the answer, and so on; empty cancels.
    Conditional {
        game: String,
        moves: Vec<NumberedMove>,
    },
    /// Leave from a day for some days, in all the sender's games.
    Leave {
        first: Date,
        days: u32,
    },
    /// Admin: special leave for a player, in all their games, outside the yearly allowance
    /// (`LEAVE 2027-03-01 10 FOR alice illness, certified`).
    SpecialLeave {
        player: String,
        first: Date,
        days: u32,
        reason: String,
    },
    /// Days moved from the sender's Triple Block bank to their clock while it is their move.
    Bank {
        game: String,
        days: u32,
    },
    /// The sender declares ahead that they will think longer than the silence limit on their
    /// current or next move (`SILENCE g1 LONG`, ICCF's "Use 40+ reflection").
    LongReflection {
        game: String,
    },
    /// Admin: decide a game's result.
    Adjudicate {
        game: String,
        score: Score,
        reason: String,
    },
    /// The full signed receipt for a journal entry (the number a short receipt names).
    Receipt {
        entry: i64,
    },
    /// Admin: read or move the manual clock.
    Clock {
        set: Option<ClockSetting>,
    },
    /// Admin: the dead letters (mail the SMTP server refused for good): list them, or send
    /// one again, or drop one.
    Dead {
        action: DeadAction,
    },
    /// Admin: start a game.
    Create {
        game: String,
        white: String,
        black: String,
        /// The game played (`GAME draughts-ru`); unnamed, its event's, or chess.
        kind: Option<Kind>,
        event: Option<String>,
        fen: Option<String>,
        round: Option<String>,
    },
    /// A short text for the opponent, journaled and delivered like a move.
    Message {
        game: String,
        text: String,
    },
    /// Admin: register or change a player.
    Player {
        id: String,
        action: PlayerAction,
        fields: PlayerFields,
    },
    /// Admin: every player, without secrets.
    Players,
    /// Who the relay takes the sender for: their player as the relay knows it (name,
    /// notation, language, how reached), or the arbiter.
    WhoAmI,
    /// A player: a new secret of their own (refused where the wire is plain).
    Secret {
        secret: String,
    },
    /// A player: whether they are mailed when it is their move, and how (`NOTIFY`).
    Notify {
        setting: Notify,
    },
    /// Admin: make, fill, start or change an event.
    Event {
        id: String,
        action: EventAction,
    },
    /// The events and how far each has gone.
    Events,
    /// The rating list in effect today, or one player's place and history on it.
    Ratings {
        player: Option<String>,
    },
    /// From a link: the other node refused the sender's action `number` in `game`. Never read
    /// from words: only a link says it.
    PeerRefused {
        game: String,
        number: u32,
        reason: String,
    },
}

impl Command {
    /// Every free text a person wrote in the command, with its kind: a message, a reason (an
    /// adjudication's, a withdrawal's, a refusal's), a name (a round's, a player's, a team's,
    /// an event's keys), an address. Ids, moves, dates and keywords are not free text: each
    /// has its own reader. The match names every command and every field, with no `..`, so a
    /// new command or a new field does not compile until it says here whether it carries
    /// free text.
    pub fn texts(&self) -> Vec<(&str, TextKind)> {
        match self {
            Command::Games | Command::Players | Command::WhoAmI | Command::Events => Vec::new(),
            Command::Ratings { player: _ } => Vec::new(),
            Command::Show { game: _ }
            | Command::OfferDraw { game: _ }
            | Command::AcceptDraw { game: _ }
            | Command::DeclineDraw { game: _ }
            | Command::Resign { game: _ }
            | Command::LongReflection { game: _ } => Vec::new(),
            Command::Move { game: _, line: _ }
            | Command::Claim {
                game: _,
                claim: _,
                with: _,
            }
            | Command::Conditional { game: _, moves: _ } => Vec::new(),
            Command::Leave { first: _, days: _ }
            | Command::Bank { game: _, days: _ }
            | Command::Receipt { entry: _ }
            | Command::Clock { set: _ }
            | Command::Dead { action: _ } => Vec::new(),
            // A secret is never shown to anyone; its own reader refuses controls.
            Command::Secret { secret: _ } => Vec::new(),
            Command::Notify { setting } => setting
                .address()
                .map(|a| (a, TextKind::Address))
                .into_iter()
                .collect(),
            Command::Message { game: _, text } => vec![(text.as_str(), TextKind::Message)],
            Command::Adjudicate {
                game: _,
                score: _,
                reason,
            }
            | Command::SpecialLeave {
                player: _,
                first: _,
                days: _,
                reason,
            }
            | Command::PeerRefused {
                game: _,
                number: _,
                reason,
            } => vec![(reason.as_str(), TextKind::Reason)],
            Command::Create {
                game: _,
                white: _,
                black: _,
                kind: _,
                event: _,
                fen: _,
                round,
            } => round.iter().map(|r| (r.as_str(), TextKind::Name)).collect(),
            Command::Player {
                id: _,
                action: _,
                fields:
                    PlayerFields {
                        name,
                        notation: _,
                        lang: _,
                        reach: _,
                        email,
                        rating,
                        // Checked by the configuration's rules: a callsign, a number.
                        callsign: _,
                        aprs_width: _,
                    },
            } => {
                let name = name.iter().map(|n| (n.as_str(), TextKind::Name));
                let email = email.iter().map(|e| (e.as_str(), TextKind::Address));
                let reason = rating.iter().map(|r| (r.reason.as_str(), TextKind::Reason));
                name.chain(email).chain(reason).collect()
            }
            Command::Event { id: _, action } => match action {
                // Every key's value (a name, a site, a time control, a number): a name's
                // length and characters.
                EventAction::New { system: _, keys } => keys
                    .iter()
                    .map(|(_, value)| (value.as_str(), TextKind::Name))
                    .collect(),
                EventAction::Enter {
                    team,
                    players: _,
                    overriding,
                } => {
                    let team = team.iter().map(|t| (t.as_str(), TextKind::Name));
                    let reason = overriding.iter().map(|r| (r.as_str(), TextKind::Reason));
                    team.chain(reason).collect()
                }
                EventAction::Withdraw { player: _, reason } => {
                    vec![(reason.as_str(), TextKind::Reason)]
                }
                EventAction::Draw | EventAction::Seed | EventAction::Start | EventAction::Show => {
                    Vec::new()
                }
            },
        }
    }

    /// Checks every free text of the command ([`Command::texts`]) with the one check
    /// ([`text::check`]). The grammar checks every command it reads so; a command built
    /// another way (XFCC, a link, the web) is checked here by the relay before anything is
    /// applied.
    pub fn check_texts(&self) -> Result<(), TextError> {
        self.texts()
            .into_iter()
            .try_for_each(|(said, kind)| text::check(said, kind))
    }

    /// The game a command acts on, if one.
    pub fn game(&self) -> Option<&str> {
        match self {
            Command::Show { game }
            | Command::Move { game, .. }
            | Command::OfferDraw { game }
            | Command::AcceptDraw { game }
            | Command::DeclineDraw { game }
            | Command::Resign { game }
            | Command::Claim { game, .. }
            | Command::Conditional { game, .. }
            | Command::PeerRefused { game, .. }
            | Command::Message { game, .. }
            | Command::Bank { game, .. }
            | Command::LongReflection { game }
            | Command::Adjudicate { game, .. } => Some(game),
            Command::Games
            | Command::Leave { .. }
            | Command::SpecialLeave { .. }
            | Command::Clock { .. }
            | Command::Dead { .. }
            | Command::Receipt { .. }
            | Command::Create { .. }
            | Command::Player { .. }
            | Command::Players
            | Command::WhoAmI
            | Command::Secret { .. }
            | Command::Notify { .. }
            | Command::Event { .. }
            | Command::Events
            | Command::Ratings { .. } => None,
        }
    }

    /// The command's name if it or its reply carries a secret: `SECRET`'s new secret, the one
    /// `PLAYER ADD` and `PLAYER SECRET` draw and answer with. Such a command is taken only
    /// over a wire no one else reads (TLS, the relay's own machine, the admin socket): a
    /// transport refuses it anywhere else, before anything is done.
    pub fn carries_secret(&self) -> Option<&'static str> {
        match self {
            Command::Secret { .. } => Some("SECRET"),
            Command::Player {
                action: PlayerAction::Add,
                ..
            } => Some("PLAYER ADD"),
            Command::Player {
                action: PlayerAction::Secret,
                ..
            } => Some("PLAYER SECRET"),
            _ => None,
        }
    }
}

/// What is wrong with the words of a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CommandError {
    kind: CommandErrorKind,
    message: String,
}

/// The kinds of [`CommandError`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CommandErrorKind {
    /// The first word is no command.
    UnknownVerb,
    /// A word the command needs is missing.
    Missing,
    /// A word the command does not take.
    Unexpected,
    /// A word after a move that is not a move mark (`e.p.`, `(=)`, `+`).
    NotAMark,
    /// A value of the wrong form: a date, a number of days, a result, a claim, a clock
    /// setting, a message's text.
    BadValue,
}

impl CommandError {
    pub(crate) fn new(kind: CommandErrorKind, message: impl Into<String>) -> CommandError {
        CommandError {
            kind,
            message: message.into(),
        }
    }

    pub fn kind(&self) -> CommandErrorKind {
        self.kind
    }
}

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
