//! Whether an action is allowed: a move read and checked (the turn, the number written, the
//! letters of the player's languages), a repeated move, a claim, and every other action. These
//! change nothing; the relay journals what they allow and only then applies it
//! ([`Game::apply_by`]).

use jiff::Timestamp;
use shakmaty::Color;

use super::{
    Action, Claim, ClaimRefusal, ColorName, Game, LineRefusal, Ply, ReadPly, Refusal, side_index,
};
use crate::notation::number::MoveNumber;
use crate::notation::{Lang, LangSet, ReadIn};

impl Game {
    pub(super) fn check_open(&self) -> Result<(), Refusal> {
        match (&self.result, &self.stopped) {
            (Some(result), _) => Err(Refusal::GameOver(result.clone())),
            (None, Some(why)) => Err(Refusal::Stopped(why.clone())),
            (None, None) => Ok(()),
        }
    }

    /// Reads `text` as `color`'s next move (in `lang`, or any language), checking the game is
    /// on, the turn, and the move number if one is written. Changes nothing. The marks written
    /// with the move (a draw offer `(=)`) come with it.
    pub fn check_move(
        &self,
        color: Color,
        text: &str,
        number: Option<MoveNumber>,
        lang: Option<Lang>,
    ) -> Result<ReadPly, Refusal> {
        self.check_open()?;
        if self.turn() != color {
            return Err(Refusal::NotYourTurn(ColorName(self.turn())));
        }
        if let Some(written) = number {
            self.check_number(written, self.move_number(), self.turn())?;
        }
        self.pos
            .read_in(text, self.read_in(color, lang))
            .map_err(Refusal::Move)
    }

    /// How `color`'s player's text is read: in their language `lang`, or without one, in
    /// the languages their earlier moves in this game fit.
    pub fn read_in(&self, color: Color, lang: Option<Lang>) -> ReadIn {
        ReadIn::new(lang, self.langs[side_index(color)])
    }

    /// The languages whose piece letters read every move `color`'s player sent as the move
    /// it was (every language until a move with piece letters).
    pub fn langs(&self, color: Color) -> LangSet {
        self.langs[side_index(color)]
    }

    /// The languages `color`'s player's moves fit once `read` (read by
    /// [`Game::check_move`] in `lang`) is played, if they narrow: to be recorded with the
    /// move, and set on the game after it with [`Game::set_langs`]. A player with a language
    /// of their own is read in it and narrows nothing.
    pub fn narrowed_langs(
        &self,
        color: Color,
        lang: Option<Lang>,
        read: &ReadPly,
    ) -> Option<LangSet> {
        match self.read_in(color, lang) {
            ReadIn::AnyOf(before) => {
                let after = before.intersection(read.langs);
                (after != before && !after.is_empty()).then_some(after)
            }
            ReadIn::Lang(_) => None,
        }
    }

    /// Sets the languages `color`'s player's moves fit (as recorded with a move).
    pub fn set_langs(&mut self, color: Color, langs: LangSet) {
        self.langs[side_index(color)] = langs;
    }

    /// Checks a move number as written against the move it would be (`expected`, by `turn`):
    /// the one rule of [`crate::notation::number`], `12...` only for Black.
    pub(super) fn check_number(
        &self,
        written: MoveNumber,
        expected: u32,
        turn: Color,
    ) -> Result<(), Refusal> {
        if written.number != expected {
            return Err(Refusal::WrongNumber {
                written: written.number,
                expected,
            });
        }
        if written.black && turn == Color::White {
            return Err(Refusal::BlackNumberForWhite { written, expected });
        }
        Ok(())
    }

    /// Checks that `text` names the opponent's last move (the ICCF custom of repeating it).
    pub fn check_repeat(&self, text: &str, lang: Option<Lang>) -> Result<(), Refusal> {
        let Some((last, earlier)) = self.moves.split_last() else {
            return Err(Refusal::WrongRepeat {
                written: text.to_owned(),
                actual: "no move yet".to_owned(),
            });
        };
        let mut before = self.start.boxed();
        for m in earlier {
            before.play(m);
        }
        let actual = before.code(last);
        // The repeat is written by the side to move, in its own letters.
        match before.read_in(text, self.read_in(self.turn(), lang)) {
            Ok(read) if read.ply == *last => Ok(()),
            _ => Err(Refusal::WrongRepeat {
                written: text.to_owned(),
                actual,
            }),
        }
    }

    /// Checks an action by `color` at `at` (not a move's legality: [`Game::check_move`] reads
    /// moves). Changes nothing.
    pub fn check(&self, color: Color, action: &Action, at: Timestamp) -> Result<(), Refusal> {
        if let Action::Adjudicate(_) = action {
            // The arbiter may also correct the result of a finished game.
            return Ok(());
        }
        self.check_open()?;
        match action {
            Action::Move {
                draw_offer: true, ..
            }
            | Action::OfferDraw
            | Action::AcceptDraw => self.check_draw_allowed()?,
            _ => {}
        }
        match action {
            Action::Move { .. }
            | Action::OfferDraw
            | Action::Resign
            | Action::TimeUp { .. }
            | Action::Remind { .. }
            | Action::Stop(_)
            | Action::Adjudicate(_) => Ok(()),
            Action::AcceptDraw | Action::DeclineDraw => match self.draw_offer {
                None => Err(Refusal::NoDrawOffer),
                Some(offerer) if offerer == color => Err(Refusal::OwnDrawOffer),
                Some(_) => Ok(()),
            },
            Action::Claim { claim, m } => self.check_claim(color, *claim, m.as_ref()),
            Action::Leave(leave) => {
                if let Some(why) = self.rules.leave_refused() {
                    return Err(Refusal::Leave(why));
                }
                self.timeline
                    .check_leave(color, *leave, at, self.rules.leave_days_per_year)
                    .map_err(Refusal::Leave)
            }
            Action::Refill { days } => self
                .timeline
                .check_refill(&self.rules, color, at, *days)
                .map_err(Refusal::Refill),
            Action::LongReflection => {
                if let Some(why) = self.rules.long_reflection_refused() {
                    return Err(Refusal::LongReflection(why));
                }
                self.timeline
                    .check_long_reflection(color)
                    .map_err(Refusal::LongReflection)
            }
            Action::Conditional(line) => {
                if !line.is_empty() && self.turn() == color {
                    return Err(Refusal::Conditional(LineRefusal::YourMove));
                }
                Ok(())
            }
        }
    }

    /// Checks that a draw may be offered or agreed now: not before the move the game's rules
    /// allow it from ("no draw offer before move N"), counted by the move being made now.
    pub fn check_draw_allowed(&self) -> Result<(), Refusal> {
        match self.rules.draw_offers_from_move {
            Some(from) if self.move_number() < from => Err(Refusal::DrawTooEarly {
                from,
                now: self.move_number(),
            }),
            _ => Ok(()),
        }
    }

    /// Checks a draw claim by `color`, on the position now or after `m`.
    fn check_claim(&self, color: Color, claim: Claim, m: Option<&Ply>) -> Result<(), Refusal> {
        if self.turn() != color {
            return Err(Refusal::NotYourTurn(ColorName(self.turn())));
        }
        let mut target = self.pos.clone();
        if let Some(m) = m {
            if !target.is_legal(m) {
                return Err(Refusal::WrongClaim(ClaimRefusal::IllegalMove));
            }
            target.play(m);
        }
        let after_move = m.is_some();
        match claim {
            Claim::Repetition => {
                let key = target.repetition_key();
                let mut pos = self.start.boxed();
                let mut seen = usize::from(pos.repetition_key() == key);
                for m in self.moves.iter().chain(m) {
                    pos.play(m);
                    seen += usize::from(pos.repetition_key() == key);
                }
                if seen < 3 {
                    return Err(Refusal::WrongClaim(ClaimRefusal::Repetition {
                        after_move,
                        seen,
                    }));
                }
            }
            Claim::FiftyMoves => {
                let Some(halfmoves) = target.quiet_plies() else {
                    return Err(Refusal::WrongClaim(ClaimRefusal::NoFiftyMoveRule));
                };
                if halfmoves < 100 {
                    return Err(Refusal::WrongClaim(ClaimRefusal::FiftyMoves {
                        after_move,
                        moves: halfmoves / 2,
                    }));
                }
            }
        }
        Ok(())
    }
}
