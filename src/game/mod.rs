//! One game: the position and its history, whose turn it is, draw offers, resignation and the
//! result. Pure code: no clock, no storage, no transport. The relay asks a [`Game`] whether an
//! action is allowed ([`Game::check_move`] and friends, which change nothing), journals it, and
//! only then applies it ([`Game::apply`]), so a refused or unrecorded action never changes a game.
//!
//! ```
//! use ccrelay::game::{Game, Action};
//! use shakmaty::Color;
//!
//! let mut game = Game::new("g1", "alice", "boris", None).unwrap();
//! let m = game.check_move(Color::White, "5254", None, None).unwrap().m;
//! game.apply(&Action::Move { m, draw_offer: false });
//! assert_eq!(game.turn(), Color::Black);
//! assert!(game.check_move(Color::White, "d4", None, None).is_err()); // not White's turn
//! ```

use std::fmt;

use shakmaty::{Chess, Color, Move, Position};

use crate::notation::movetext::parse_position;
use crate::notation::{Lang, ReadMove, ReadMoveError, Reader};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: EndReason,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    Resignation,
    Agreement,
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
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
        };
        write!(f, "{} ({reason})", self.pgn())
    }
}

/// Something a player does in a game, once allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Move { m: Move, draw_offer: bool },
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Resign,
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
    #[error("{0}")]
    Move(ReadMoveError),
    #[error("there is no draw offer to answer")]
    NoDrawOffer,
    #[error("you cannot answer your own draw offer")]
    OwnDrawOffer,
    #[error("your opponent's move repeated in this message is {written}, but it was {actual}")]
    WrongRepeat { written: String, actual: String },
}

/// A colour, written for people.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ColorName(pub Color);

impl fmt::Display for ColorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

/// A game between two players.
#[derive(Clone, Debug)]
pub struct Game {
    pub id: String,
    pub white: String,
    pub black: String,
    start: Chess,
    start_fen: Option<String>,
    pos: Chess,
    moves: Vec<Move>,
    /// The side whose draw offer stands.
    draw_offer: Option<Color>,
    result: Option<GameResult>,
}

impl Game {
    /// A new game from the initial position, or from `fen`.
    pub fn new(id: &str, white: &str, black: &str, fen: Option<&str>) -> Result<Game, String> {
        let start = match fen {
            Some(fen) => parse_position(fen)?,
            None => Chess::default(),
        };
        Ok(Game {
            id: id.to_owned(),
            white: white.to_owned(),
            black: black.to_owned(),
            pos: start.clone(),
            start,
            start_fen: fen.map(str::to_owned),
            moves: Vec::new(),
            draw_offer: None,
            result: None,
        })
    }

    /// The colour `player` plays, if they play in this game.
    pub fn side_of(&self, player: &str) -> Option<Color> {
        if self.white == player {
            Some(Color::White)
        } else if self.black == player {
            Some(Color::Black)
        } else {
            None
        }
    }

    pub fn player(&self, color: Color) -> &str {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    pub fn position(&self) -> &Chess {
        &self.pos
    }

    pub fn start(&self) -> &Chess {
        &self.start
    }

    pub fn start_fen(&self) -> Option<&str> {
        self.start_fen.as_deref()
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The number of the move to be made now.
    pub fn move_number(&self) -> u32 {
        self.pos.fullmoves().get()
    }

    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    fn check_open(&self) -> Result<(), Refusal> {
        match &self.result {
            Some(result) => Err(Refusal::GameOver(result.clone())),
            None => Ok(()),
        }
    }

    /// Reads `text` as `color`'s next move (in `lang`, or any language), checking the game is
    /// on, the turn, and the move number if one is written. Changes nothing. The marks written
    /// with the move (a draw offer `(=)`) come with it.
    pub fn check_move(
        &self,
        color: Color,
        text: &str,
        number: Option<u32>,
        lang: Option<Lang>,
    ) -> Result<ReadMove, Refusal> {
        self.check_open()?;
        if self.turn() != color {
            return Err(Refusal::NotYourTurn(ColorName(self.turn())));
        }
        if let Some(written) = number
            && written != self.move_number()
        {
            return Err(Refusal::WrongNumber {
                written,
                expected: self.move_number(),
            });
        }
        Reader::new(lang)
            .read(&self.pos, text)
            .map_err(Refusal::Move)
    }

    /// Checks that `text` names the opponent's last move (the ICCF custom of repeating it).
    pub fn check_repeat(&self, text: &str, lang: Option<Lang>) -> Result<(), Refusal> {
        let Some((&last, earlier)) = self.moves.split_last() else {
            return Err(Refusal::WrongRepeat {
                written: text.to_owned(),
                actual: "no move yet".to_owned(),
            });
        };
        let mut before = self.start.clone();
        for m in earlier {
            before.play_unchecked(*m);
        }
        let actual = crate::notation::Iccf::from_move(last).to_string();
        match Reader::new(lang).read(&before, text) {
            Ok(read) if read.m == last => Ok(()),
            _ => Err(Refusal::WrongRepeat {
                written: text.to_owned(),
                actual,
            }),
        }
    }

    /// Checks a draw offer, acceptance, decline or resignation by `color`. Changes nothing.
    pub fn check(&self, color: Color, action: &Action) -> Result<(), Refusal> {
        self.check_open()?;
        match action {
            Action::Move { .. } | Action::OfferDraw | Action::Resign => Ok(()),
            Action::AcceptDraw | Action::DeclineDraw => match self.draw_offer {
                None => Err(Refusal::NoDrawOffer),
                Some(offerer) if offerer == color => Err(Refusal::OwnDrawOffer),
                Some(_) => Ok(()),
            },
        }
    }

    /// Applies an action already checked (and journaled). `color` is who acts; for a move it is
    /// the side to move.
    pub fn apply_by(&mut self, color: Color, action: &Action) {
        match action {
            Action::Move { m, draw_offer } => {
                self.pos.play_unchecked(*m);
                self.moves.push(*m);
                // A move answers a standing offer by the opponent (declines it).
                self.draw_offer = draw_offer.then_some(color);
                self.result = self.board_result();
            }
            Action::OfferDraw => self.draw_offer = Some(color),
            Action::DeclineDraw => self.draw_offer = None,
            Action::AcceptDraw => {
                self.draw_offer = None;
                self.result = Some(GameResult {
                    winner: None,
                    reason: EndReason::Agreement,
                });
            }
            Action::Resign => {
                self.result = Some(GameResult {
                    winner: Some(!color),
                    reason: EndReason::Resignation,
                });
            }
        }
    }

    /// Applies a move by the side to move.
    pub fn apply(&mut self, action: &Action) {
        let color = self.turn();
        self.apply_by(color, action);
    }

    /// The result the board itself gives: mate, stalemate, insufficient material.
    fn board_result(&self) -> Option<GameResult> {
        if self.pos.is_checkmate() {
            Some(GameResult {
                winner: Some(!self.pos.turn()),
                reason: EndReason::Checkmate,
            })
        } else if self.pos.is_stalemate() {
            Some(GameResult {
                winner: None,
                reason: EndReason::Stalemate,
            })
        } else if self.pos.is_insufficient_material() {
            Some(GameResult {
                winner: None,
                reason: EndReason::InsufficientMaterial,
            })
        } else {
            None
        }
    }

    /// A text diagram of the position, White at the bottom, with files and ranks.
    pub fn diagram(&self) -> String {
        use shakmaty::{File, Rank, Square};
        let board = self.pos.board();
        let mut out = String::new();
        for rank in Rank::ALL.iter().rev() {
            out.push(rank.char());
            out.push(' ');
            for file in File::ALL {
                let c = board
                    .piece_at(Square::from_coords(file, *rank))
                    .map_or('.', |p| p.char());
                out.push(c);
                out.push(' ');
            }
            out.pop();
            out.push('\n');
        }
        out.push_str("  a b c d e f g h");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(game: &mut Game, moves: &[&str]) {
        for text in moves {
            let m = game
                .check_move(game.turn(), text, None, None)
                .unwrap_or_else(|e| panic!("{text}: {e}"))
                .m;
            game.apply(&Action::Move {
                m,
                draw_offer: false,
            });
        }
    }

    #[test]
    fn turn_number_and_legality_are_checked() {
        let mut game = Game::new("g", "w", "b", None).unwrap();
        assert_eq!(
            game.check_move(Color::Black, "e5", None, None),
            Err(Refusal::NotYourTurn(ColorName(Color::White)))
        );
        assert_eq!(
            game.check_move(Color::White, "e4", Some(2), None),
            Err(Refusal::WrongNumber {
                written: 2,
                expected: 1
            })
        );
        assert!(matches!(
            game.check_move(Color::White, "e5", None, None),
            Err(Refusal::Move(_))
        ));
        play(&mut game, &["e4"]);
        assert!(game.check_move(Color::Black, "e5", Some(1), None).is_ok());
    }

    #[test]
    fn checkmate_ends_the_game() {
        let mut game = Game::new("g", "w", "b", None).unwrap();
        play(&mut game, &["f3", "e5", "g4", "Qh4#"]);
        assert_eq!(
            game.result(),
            Some(&GameResult {
                winner: Some(Color::Black),
                reason: EndReason::Checkmate
            })
        );
        assert!(matches!(
            game.check_move(Color::White, "a3", None, None),
            Err(Refusal::GameOver(_))
        ));
    }

    #[test]
    fn draw_offers_are_answered_by_the_opponent_only() {
        let mut game = Game::new("g", "w", "b", None).unwrap();
        assert_eq!(
            game.check(Color::Black, &Action::AcceptDraw),
            Err(Refusal::NoDrawOffer)
        );
        game.apply_by(Color::White, &Action::OfferDraw);
        assert_eq!(
            game.check(Color::White, &Action::AcceptDraw),
            Err(Refusal::OwnDrawOffer)
        );
        assert_eq!(game.check(Color::Black, &Action::AcceptDraw), Ok(()));
        game.apply_by(Color::Black, &Action::AcceptDraw);
        assert_eq!(game.result().map(GameResult::pgn), Some("1/2-1/2"));
    }

    #[test]
    fn resignation_loses() {
        let mut game = Game::new("g", "w", "b", None).unwrap();
        game.apply_by(Color::White, &Action::Resign);
        assert_eq!(game.result().map(GameResult::pgn), Some("0-1"));
    }

    #[test]
    fn the_repeated_move_must_match() {
        let mut game = Game::new("g", "w", "b", None).unwrap();
        play(&mut game, &["e4"]);
        assert_eq!(game.check_repeat("5254", None), Ok(()));
        assert_eq!(game.check_repeat("e2-e4", None), Ok(()));
        assert!(game.check_repeat("d4", None).is_err());
    }
}
