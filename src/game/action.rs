//! What is done in a game and how it ends, in words the relay and the records share: the
//! result and its reason, draw claims, actions, what the clock makes due, refusals.

use std::fmt;

use shakmaty::Color;

use super::MoveError;
use super::Ply;
use super::clock::{Leave, LeaveRefusal, Overdue, RefillRefusal, ReflectionRefusal};
use crate::notation::number::MoveNumber;
use crate::notation::result::Score;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: EndReason,
    /// The arbiter's reason, for an adjudication.
    pub note: Option<String>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    Resignation,
    Agreement,
    /// Threefold repetition, claimed.
    Repetition,
    /// Fifty moves without a capture or a pawn move, claimed.
    FiftyMoves,
    /// Past the time control.
    TimeForfeit,
    /// Silent longer than the event allows.
    Silence,
    /// Decided by the arbiter.
    Adjudication,
    /// The side to move has no legal move (draughts: blocked, or no pieces left) and loses.
    NoMoves,
    /// A draw the rules impose by themselves (draughts' limits; the result's note names it).
    DrawRule,
    /// The loser withdrew from the event: their unfinished games are lost without being
    /// played out (the note gives the arbiter's reason).
    Withdrawal,
}

impl EndReason {
    /// The PGN `Termination` tag.
    pub fn termination(self) -> &'static str {
        match self {
            EndReason::TimeForfeit | EndReason::Silence => "time forfeit",
            EndReason::Adjudication => "adjudication",
            EndReason::Withdrawal => "abandoned",
            _ => "normal",
        }
    }
}

impl GameResult {
    pub fn new(winner: Option<Color>, reason: EndReason) -> GameResult {
        GameResult {
            winner,
            reason,
            note: None,
        }
    }

    /// Reads a finished game's result as written (`1-0`, `0–1`, `½-½`, `1:0`: the crate's
    /// one result reader, [`Score`]).
    pub fn winner_from_pgn(s: &str) -> Option<Option<Color>> {
        Score::read(s).and_then(Score::winner)
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(&self) -> &'static str {
        Score::of_winner(self.winner).pgn()
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reason = match self.reason {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Repetition => "threefold repetition",
            EndReason::FiftyMoves => "fifty-move rule",
            EndReason::TimeForfeit => "lost on time",
            EndReason::Silence => "lost by silence",
            EndReason::Adjudication => "adjudicated",
            EndReason::NoMoves => "no legal move",
            EndReason::DrawRule => "draw by the rules",
            EndReason::Withdrawal => "withdrawal",
        };
        match &self.note {
            Some(note) => write!(f, "{} ({reason}: {note})", self.pgn()),
            None => write!(f, "{} ({reason})", self.pgn()),
        }
    }
}

/// A draw claimed under a rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The same position for the third time (same side to move, castling and en passant rights).
    Repetition,
    /// Fifty moves by each side without a capture or a pawn move.
    FiftyMoves,
}

impl Claim {
    pub fn as_str(self) -> &'static str {
        match self {
            Claim::Repetition => "threefold",
            Claim::FiftyMoves => "fifty",
        }
    }
}

impl std::str::FromStr for Claim {
    type Err = String;
    fn from_str(s: &str) -> Result<Claim, String> {
        match s.to_ascii_lowercase().as_str() {
            "threefold" | "repetition" | "3" | "3fold" => Ok(Claim::Repetition),
            "fifty" | "50" | "50-move" | "fifty-move" => Ok(Claim::FiftyMoves),
            _ => Err(format!("{s:?}: claim THREEFOLD or FIFTY")),
        }
    }
}

/// Something done in a game, once allowed: by a player, the clock or the arbiter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Move {
        m: Ply,
        draw_offer: bool,
    },
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Resign,
    /// A draw claimed by the side to move, on the position now or after its move `m`.
    Claim {
        claim: Claim,
        m: Option<Ply>,
    },
    /// Leave announced by a side: its clock stops for those days.
    Leave(Leave),
    /// Days a Triple Block side moves from its bank to its clock while it is to move.
    Refill {
        days: u32,
    },
    /// A side declares ahead that it will think longer than the silence limit on the move it
    /// is making, or on its next one (ICCF's "Use 40+ reflection"): the silence limit does not
    /// end the game on that move; the time control still does.
    LongReflection,
    /// A side's conditional line, starting with the opponent's next move and alternating;
    /// empty to cancel it.
    Conditional(Vec<Ply>),
    /// The side to move ran out of time: it loses (`forfeit`) or is flagged for the arbiter.
    TimeUp {
        overdue: Overdue,
        forfeit: bool,
    },
    /// The side to move was reminded after `days` days of silence.
    Remind {
        days: u32,
    },
    /// The arbiter decides the result (the acting colour is ignored).
    Adjudicate(GameResult),
    /// The game stops for the arbiter, and why (the other node's record of it does not apply
    /// here): until the arbiter decides, nothing else is taken and no clock is due (the
    /// acting colour is ignored).
    Stop(String),
}

/// What the clock says must happen now, if anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Due {
    TimeUp { color: Color, overdue: Overdue },
    Remind { color: Color, days: u32 },
}

/// Why an action is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    #[error("the game is over: {0}")]
    GameOver(GameResult),
    #[error("it is not your move: {0} is to move")]
    NotYourTurn(ColorName),
    #[error("wrong move number: {written} is written, but this is move {expected}")]
    WrongNumber { written: u32, expected: u32 },
    #[error(
        "wrong move number: {written} is written for Black, but this is White's move {expected}"
    )]
    BlackNumberForWhite { written: MoveNumber, expected: u32 },
    #[error("{0}")]
    Move(MoveError),
    #[error("there is no draw offer to answer")]
    NoDrawOffer,
    #[error("you cannot answer your own draw offer")]
    OwnDrawOffer,
    #[error("your opponent's move repeated in this message is {written}, but it was {actual}")]
    WrongRepeat { written: String, actual: String },
    #[error("claim refused: {0}")]
    WrongClaim(ClaimRefusal),
    #[error("leave refused: {0}")]
    Leave(LeaveRefusal),
    #[error("refill refused: {0}")]
    Refill(RefillRefusal),
    #[error("long reflection refused: {0}")]
    LongReflection(ReflectionRefusal),
    #[error(
        "too early for a draw: in this event no draw is offered or agreed before move {from}; this is move {now}"
    )]
    DrawTooEarly { from: u32, now: u32 },
    #[error("conditional moves refused: {0}")]
    Conditional(LineRefusal),
    #[error("the game is stopped for the arbiter: {0}")]
    Stopped(String),
}

/// Why a draw claim is refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClaimRefusal {
    /// The move claimed with is not legal.
    IllegalMove,
    /// The position (now, or `after_move`) has occurred `seen` times, fewer than 3.
    Repetition { after_move: bool, seen: usize },
    /// The game's own limits end it; the fifty-move rule is not its.
    NoFiftyMoveRule,
    /// Only `moves` moves (now, or `after_move`) without a capture or a pawn move.
    FiftyMoves { after_move: bool, moves: u32 },
}

impl fmt::Display for ClaimRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let when = |after_move: bool| if after_move { "after your move" } else { "now" };
        match self {
            ClaimRefusal::IllegalMove => f.write_str("that move is not legal"),
            ClaimRefusal::Repetition { after_move, seen } => write!(
                f,
                "the position {} has occurred {seen} time(s); a draw by repetition needs 3",
                when(*after_move)
            ),
            ClaimRefusal::NoFiftyMoveRule => f.write_str(
                "the fifty-move rule is not this game's; its own limits end it by themselves",
            ),
            ClaimRefusal::FiftyMoves { after_move, moves } => write!(
                f,
                "{}, {moves} move(s) have been made without a capture or a pawn move; the rule needs 50",
                when(*after_move)
            ),
        }
    }
}

/// Why a conditional line is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LineRefusal {
    /// The player is to move: a line answers the opponent's next move.
    YourMove,
    /// An odd number of moves: each expected move needs its answer.
    Unpaired,
    /// More than `max` moves.
    TooLong { max: usize },
    /// The game would be over before the move written `text`.
    OverBefore { text: String },
    /// The line's move `index` (from 1; odd: the opponent's), written `text`, is refused:
    /// `why` is a wrong move number or a move that cannot be read or played.
    InMove {
        index: usize,
        text: String,
        why: Box<Refusal>,
    },
}

impl LineRefusal {
    /// Whether the line's move `index` (from 1) is the opponent's.
    pub fn opponents(index: usize) -> bool {
        index % 2 == 1
    }
}

impl fmt::Display for LineRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineRefusal::YourMove => f.write_str(
                "it is your move: send it; conditional moves answer your opponent's next move",
            ),
            LineRefusal::Unpaired => {
                f.write_str("a line pairs each expected move of your opponent with your answer")
            }
            LineRefusal::TooLong { max } => write!(f, "at most {max} moves in a line"),
            LineRefusal::OverBefore { text } => {
                write!(f, "the game would be over before {text:?}")
            }
            LineRefusal::InMove { index, text, why } => {
                let whose = if LineRefusal::opponents(*index) {
                    "your opponent's"
                } else {
                    "your"
                };
                let why: &dyn fmt::Display = match &**why {
                    // A move's own refusal, as the line protocol always wrote it.
                    Refusal::Move(e) => e,
                    other => other,
                };
                write!(f, "move {index} ({whose}) {text:?}: {why}")
            }
        }
    }
}

/// A colour, written for people.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ColorName(pub Color);

impl ColorName {
    /// `White` or `Black`.
    pub fn as_str(&self) -> &'static str {
        match self.0 {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl fmt::Display for ColorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
