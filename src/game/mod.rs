//! One game: the position and its history, whose turn it is, draw offers and claims,
//! resignation, the correspondence clock and leave, conditional moves, and the result. Pure
//! code: the time is passed in, nothing is stored or sent. The relay asks a [`Game`] whether an
//! action is allowed ([`Game::check_move`], [`Game::check`] and friends, which change nothing),
//! journals it, and only then applies it ([`Game::apply_by`]), so a refused or unrecorded
//! action never changes a game.
//!
//! ```
//! use ccrelay::game::{Game, Action};
//! use jiff::Timestamp;
//! use shakmaty::Color;
//!
//! let mut game = Game::new("g1", "alice", "boris", None).unwrap();
//! let m = game.check_move(Color::White, "5254", None, None).unwrap().ply;
//! game.apply(&Action::Move { m, draw_offer: false }, Timestamp::UNIX_EPOCH);
//! assert_eq!(game.turn(), Color::Black);
//! assert!(game.check_move(Color::White, "d4", None, None).is_err()); // not White's turn
//! ```

mod action;
mod authority;
mod board;
mod boards;
mod check;
mod chess;
pub mod clock;
mod conditional;
pub mod days_hours;
mod diagram;
mod draughts;
mod saved;

pub use action::{
    Action, Claim, ClaimRefusal, ColorName, Due, EndReason, GameResult, LineRefusal, Refusal,
};
pub use authority::Authority;
pub use board::{Board, Figure, FileRank, Kind, MoveError, PieceOn, Ply, ReadPly};
pub use boards::{board, codes, replay};
pub use chess::ChessBoard;
pub use conditional::MAX_CONDITIONAL;
pub use diagram::diagram;
pub use draughts::DraughtsBoard;
pub use saved::SavedGame;

use jiff::Timestamp;
use shakmaty::Color;

use self::clock::{Overdue, Rules, SideTime, Timeline};

use crate::notation::LangSet;

/// A game between two players.
#[derive(Debug)]
pub struct Game {
    pub id: String,
    pub white: String,
    pub black: String,
    /// Shared by every game from the usual position (see [`boards::shared_start`]).
    start: std::sync::Arc<dyn Board>,
    start_fen: Option<String>,
    pos: Box<dyn Board>,
    moves: Vec<Ply>,
    /// The side whose draw offer stands.
    draw_offer: Option<Color>,
    result: Option<GameResult>,
    rules: Rules,
    timeline: Timeline,
    /// Reminders sent to the side to move on its current move.
    reminders_sent: usize,
    /// The side to move was flagged for the arbiter on its current move.
    flagged: bool,
    /// Each side's conditional line (White, Black).
    conditional: [Vec<Ply>; 2],
    /// When the game ended other than by a move (resignation, time, agreement, the arbiter).
    ended: Option<Timestamp>,
    /// Each side's (White, Black) languages: those whose piece letters read every move the
    /// side's player sent in this game as the move it was. A player without a language of
    /// their own is read in these, so their game's language settles as it goes on.
    langs: [LangSet; 2],
}

/// The colour `player` plays in a game between `white` and `black`, if they play in it.
pub fn side_of(white: &str, black: &str, player: &str) -> Option<Color> {
    if white == player {
        Some(Color::White)
    } else if black == player {
        Some(Color::Black)
    } else {
        None
    }
}

/// The relay applies most actions to a copy of a game (a move a player sends is played on the
/// game itself), and some of them play a move on it (a claim with its move, a move replicated
/// from another node): each history is copied with room for that move, so playing it does not
/// grow (reallocate and copy) the copy again.
impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            id: self.id.clone(),
            white: self.white.clone(),
            black: self.black.clone(),
            start: self.start.clone(),
            start_fen: self.start_fen.clone(),
            pos: self.pos.clone(),
            moves: with_room_for_one(&self.moves),
            draw_offer: self.draw_offer,
            result: self.result.clone(),
            rules: self.rules.clone(),
            timeline: self.timeline.clone(),
            reminders_sent: self.reminders_sent,
            flagged: self.flagged,
            conditional: self.conditional.clone(),
            ended: self.ended,
            langs: self.langs,
        }
    }
}

/// A copy of `items` with room for one more.
fn with_room_for_one<T: Clone>(items: &[T]) -> Vec<T> {
    let mut copy = Vec::with_capacity(items.len() + 1);
    copy.extend_from_slice(items);
    copy
}

fn side_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Game {
    /// A new game of chess from the initial position, or from `fen`.
    pub fn new(id: &str, white: &str, black: &str, fen: Option<&str>) -> Result<Game, String> {
        Game::of_kind(Kind::Chess, id, white, black, fen)
    }

    /// A new game of `kind` from its initial position, or from `fen`.
    pub fn of_kind(
        kind: Kind,
        id: &str,
        white: &str,
        black: &str,
        fen: Option<&str>,
    ) -> Result<Game, String> {
        let start = boards::shared_start(kind, fen)?;
        let first = start.turn();
        Ok(Game {
            id: id.to_owned(),
            white: white.to_owned(),
            black: black.to_owned(),
            pos: start.boxed(),
            start,
            start_fen: fen.map(str::to_owned),
            moves: Vec::new(),
            draw_offer: None,
            result: None,
            rules: Rules::unlimited(),
            timeline: Timeline::new(Timestamp::UNIX_EPOCH, first),
            reminders_sent: 0,
            flagged: false,
            conditional: [Vec::new(), Vec::new()],
            ended: None,
            langs: [LangSet::ALL; 2],
        })
    }

    /// The game under `rules`, started (its first side's clock running) at `started`.
    pub fn with_rules(mut self, rules: Rules, started: Timestamp) -> Game {
        self.rules = rules;
        self.timeline.restart(started);
        self
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// `color`'s time at `now`. Once the game is over, the side that was to move is counted
    /// up to when it ended (a loss on time shows the time that was overstepped).
    pub fn side_time(&self, color: Color, now: Timestamp) -> SideTime {
        let to_move = self.turn() == color;
        match (&self.result, self.ended) {
            (None, _) => self
                .timeline
                .side_time_under(&self.rules, color, now, to_move),
            (Some(_), Some(ended)) if to_move => {
                let mut time = self
                    .timeline
                    .side_time_under(&self.rules, color, ended, true);
                time.running = false;
                time.out_at = None;
                time
            }
            (Some(_), _) => self
                .timeline
                .side_time_under(&self.rules, color, now, false),
        }
    }

    /// When the game ended other than by a move (resignation, time, agreement, the arbiter):
    /// a loss on time at the instant it was recorded.
    pub fn ended(&self) -> Option<Timestamp> {
        self.ended
    }

    /// Whether the side to move was flagged for the arbiter on this move.
    pub fn flagged(&self) -> bool {
        self.flagged
    }

    /// `color`'s conditional line still pending.
    pub fn conditional(&self, color: Color) -> &[Ply] {
        &self.conditional[side_index(color)]
    }

    /// The move the side to move plays at once from its conditional line, if the opponent's
    /// last move was the one it expected.
    pub fn conditional_reply(&self) -> Option<Ply> {
        if self.result.is_some() {
            return None;
        }
        self.conditional[side_index(self.turn())]
            .first()
            .filter(|m| self.pos.is_legal(m))
            .cloned()
    }

    /// What the clock requires at `now`: the side to move out of time or silent too long
    /// (unless already flagged on this move), or a reminder due (not while it is on leave).
    pub fn due(&self, now: Timestamp) -> Option<Due> {
        if self.result.is_some() {
            return None;
        }
        let color = self.turn();
        // Counted time does not grow on leave, but an overstep from before it still counts.
        let silence = self.timeline.used_on_move(color, now);
        if !self.flagged {
            if self.side_time(color, now).out {
                return Some(Due::TimeUp {
                    color,
                    overdue: Overdue::TimeControl,
                });
            }
            if let Some(days) = self.rules.silence_days
                && silence > i64::from(days) * clock::DAY
                && !self.timeline.long_reflection_now()
            {
                return Some(Due::TimeUp {
                    color,
                    overdue: Overdue::Silence,
                });
            }
        }
        if self.timeline.on_leave(color, now) {
            return None;
        }
        let (mut reached, mut latest) = (0, 0);
        for days in self.rules.reminder_schedule() {
            if silence >= i64::from(days) * clock::DAY {
                reached += 1;
                latest = latest.max(days);
            }
        }
        (reached > self.reminders_sent).then_some(Due::Remind {
            color,
            days: latest,
        })
    }

    /// The colour `player` plays, if they play in this game.
    pub fn side_of(&self, player: &str) -> Option<Color> {
        side_of(&self.white, &self.black, player)
    }

    pub fn player(&self, color: Color) -> &str {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    pub fn kind(&self) -> Kind {
        self.pos.kind()
    }

    /// The position now.
    pub fn board(&self) -> &dyn Board {
        self.pos.as_ref()
    }

    /// The position the game started from.
    pub fn start(&self) -> &dyn Board {
        self.start.as_ref()
    }

    pub fn start_fen(&self) -> Option<&str> {
        self.start_fen.as_deref()
    }

    pub fn moves(&self) -> &[Ply] {
        &self.moves
    }

    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The number of the move to be made now.
    pub fn move_number(&self) -> u32 {
        self.pos.move_number()
    }

    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// Applies an action already checked (and journaled), done at `at`. `color` is who acts:
    /// for a move, the side to move; for the clock's actions, the side whose clock it is.
    pub fn apply_by(&mut self, color: Color, action: &Action, at: Timestamp) {
        let was_over = self.result.is_some();
        self.apply_action(color, action, at);
        let by_move = matches!(
            action,
            Action::Move { .. } | Action::Claim { m: Some(_), .. }
        );
        if !was_over && self.result.is_some() && !by_move {
            self.ended = Some(at);
        }
    }

    fn apply_action(&mut self, color: Color, action: &Action, at: Timestamp) {
        match action {
            Action::Move { m, draw_offer } => {
                self.play(m, at);
                // A move answers a standing offer by the opponent (declines it).
                self.draw_offer = draw_offer.then_some(color);
                if *draw_offer {
                    // The opponent decides on the offer itself: no automatic answer.
                    self.conditional[side_index(!color)].clear();
                }
                self.result = self.pos.outcome();
            }
            Action::OfferDraw => self.draw_offer = Some(color),
            Action::DeclineDraw => self.draw_offer = None,
            Action::AcceptDraw => {
                self.draw_offer = None;
                self.result = Some(GameResult::new(None, EndReason::Agreement));
            }
            Action::Resign => {
                self.result = Some(GameResult::new(Some(!color), EndReason::Resignation));
            }
            Action::Claim { claim, m } => {
                if let Some(m) = m {
                    self.play(m, at);
                    self.draw_offer = None;
                }
                self.result = self.pos.outcome().or(Some(GameResult::new(
                    None,
                    match claim {
                        Claim::Repetition => EndReason::Repetition,
                        Claim::FiftyMoves => EndReason::FiftyMoves,
                    },
                )));
            }
            Action::Leave(leave) => self.timeline.add_leave(color, *leave),
            Action::Refill { days } => self
                .timeline
                .add_refill(color, clock::Refill { at, days: *days }),
            Action::LongReflection => self.timeline.add_long_reflection(color),
            Action::Conditional(line) => self.conditional[side_index(color)] = line.clone(),
            Action::TimeUp { overdue, forfeit } => {
                if *forfeit {
                    let reason = match overdue {
                        Overdue::TimeControl => EndReason::TimeForfeit,
                        Overdue::Silence => EndReason::Silence,
                    };
                    self.result = Some(GameResult::new(Some(!color), reason));
                } else {
                    self.flagged = true;
                }
            }
            Action::Remind { days } => {
                self.reminders_sent = self
                    .rules
                    .reminder_schedule()
                    .filter(|d| *d <= *days)
                    .count();
            }
            Action::Adjudicate(result) => self.result = Some(result.clone()),
        }
    }

    /// Applies an action by the side to move.
    pub fn apply(&mut self, action: &Action, at: Timestamp) {
        let color = self.turn();
        self.apply_by(color, action, at);
    }

    /// Plays `m` at `at`: the position, the record, the clocks, the conditional
    /// lines (a move on a line advances it; any other move cancels it).
    fn play(&mut self, m: &Ply, at: Timestamp) {
        self.pos.play(m);
        self.moves.push(m.clone());
        self.timeline.push_move(at);
        self.reminders_sent = 0;
        self.flagged = false;
        for line in &mut self.conditional {
            if line.first() == Some(m) {
                line.remove(0);
            } else {
                line.clear();
            }
        }
    }

    /// A text diagram of the position, White at the bottom, with files and ranks.
    pub fn diagram(&self) -> String {
        self.pos.diagram()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::clock::Leave;
    use crate::notation::number::MoveNumber;

    use clock::TimeControl;

    const T0: Timestamp = Timestamp::UNIX_EPOCH;

    fn play(game: &mut Game, moves: &[&str]) {
        for text in moves {
            let m = game
                .check_move(game.turn(), text, None, None)
                .unwrap_or_else(|e| panic!("{text}: {e}"))
                .ply;
            game.apply(
                &Action::Move {
                    m,
                    draw_offer: false,
                },
                T0,
            );
        }
    }

    fn white(number: u32) -> MoveNumber {
        MoveNumber {
            number,
            black: false,
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
            game.check_move(Color::White, "e4", Some(white(2)), None),
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
        assert!(
            game.check_move(Color::Black, "e5", Some(white(1)), None)
                .is_ok()
        );
        let black = MoveNumber {
            number: 1,
            black: true,
        };
        assert!(
            game.check_move(Color::Black, "e5", Some(black), None)
                .is_ok()
        );
        play(&mut game, &["e5"]);
        let two_black = MoveNumber {
            number: 2,
            black: true,
        };
        assert_eq!(
            game.check_move(Color::White, "Nf3", Some(two_black), None),
            Err(Refusal::BlackNumberForWhite {
                written: two_black,
                expected: 2
            })
        );
    }

    #[test]
    fn checkmate_ends_the_game() {
        let mut game = Game::new("g", "w", "b", None).unwrap();
        play(&mut game, &["f3", "e5", "g4", "Qh4#"]);
        assert_eq!(
            game.result(),
            Some(&GameResult::new(Some(Color::Black), EndReason::Checkmate))
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
            game.check(Color::Black, &Action::AcceptDraw, T0),
            Err(Refusal::NoDrawOffer)
        );
        game.apply_by(Color::White, &Action::OfferDraw, T0);
        assert_eq!(
            game.check(Color::White, &Action::AcceptDraw, T0),
            Err(Refusal::OwnDrawOffer)
        );
        assert_eq!(game.check(Color::Black, &Action::AcceptDraw, T0), Ok(()));
        game.apply_by(Color::Black, &Action::AcceptDraw, T0);
        assert_eq!(game.result().map(GameResult::pgn), Some("1/2-1/2"));
    }

    #[test]
    fn resignation_loses() {
        let mut game = Game::new("g", "w", "b", None).unwrap();
        game.apply_by(Color::White, &Action::Resign, T0);
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

    fn unnumbered(texts: &[&str]) -> Vec<(Option<MoveNumber>, String)> {
        texts.iter().map(|t| (None, (*t).to_owned())).collect()
    }

    fn day(n: i64) -> Timestamp {
        Timestamp::from_second(1_800_000_000 + n * clock::DAY).unwrap()
    }

    fn timed(rules: Rules) -> Game {
        Game::new("g", "w", "b", None)
            .unwrap()
            .with_rules(rules, day(0))
    }

    fn play_at(game: &mut Game, text: &str, at: Timestamp) {
        let m = game.check_move(game.turn(), text, None, None).unwrap().ply;
        game.apply(
            &Action::Move {
                m,
                draw_offer: false,
            },
            at,
        );
    }

    #[test]
    fn threefold_repetition_is_drawn_only_on_a_correct_claim() {
        let mut game = Game::new("g", "w", "b", None).unwrap();
        play(
            &mut game,
            &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"],
        );
        // Black to move; the position has occurred twice (start, after 2...Ng8 it is White's
        // move: the initial position with White to move counts at the start and after 2...Ng8).
        let claim = |m: Option<Ply>| Action::Claim {
            claim: Claim::Repetition,
            m,
        };
        let refused = game.check(Color::Black, &claim(None), T0);
        assert!(
            matches!(&refused, Err(Refusal::WrongClaim(why)) if why.to_string().contains("2 time(s)")),
            "{refused:?}"
        );
        // With the move that makes it the third time, the claim holds.
        let ng8 = game
            .check_move(Color::Black, "Ng8", None, None)
            .unwrap()
            .ply;
        assert_eq!(
            game.check(Color::Black, &claim(Some(ng8.clone())), T0),
            Ok(())
        );
        // Only the side to move claims.
        assert!(matches!(
            game.check(Color::White, &claim(None), T0),
            Err(Refusal::NotYourTurn(_))
        ));
        game.apply_by(Color::Black, &claim(Some(ng8)), T0);
        assert_eq!(
            game.result(),
            Some(&GameResult::new(None, EndReason::Repetition))
        );
        assert_eq!(game.moves().len(), 8, "the claiming move is played");
    }

    #[test]
    fn a_repetition_needs_the_same_castling_rights() {
        let mut game = Game::new("g", "w", "b", None).unwrap();
        // The rooks go out and back: the board is the initial one again, but no side may
        // castle short any more, so it is not the same position.
        play(
            &mut game,
            &["Nf3", "Nf6", "Rg1", "Rg8", "Rh1", "Rh8", "Ng1"],
        );
        let ng8 = game
            .check_move(Color::Black, "Ng8", None, None)
            .unwrap()
            .ply;
        let refused = game.check(
            Color::Black,
            &Action::Claim {
                claim: Claim::Repetition,
                m: Some(ng8),
            },
            T0,
        );
        assert!(
            matches!(&refused, Err(Refusal::WrongClaim(why)) if why.to_string().contains("1 time(s)")),
            "{refused:?}"
        );
    }

    #[test]
    fn the_fifty_move_rule_counts_halfmoves_since_a_capture_or_pawn_move() {
        // 99 half-moves already played without a capture or pawn move.
        let fen = "8/8/4k3/8/8/4K3/8/R7 w - - 99 80";
        let mut game = Game::new("g", "w", "b", Some(fen)).unwrap();
        let fifty = |m| Action::Claim {
            claim: Claim::FiftyMoves,
            m,
        };
        let refused = game.check(Color::White, &fifty(None), T0);
        assert!(
            matches!(&refused, Err(Refusal::WrongClaim(why)) if why.to_string().contains("49 move(s)")),
            "{refused:?}"
        );
        let ra2 = game
            .check_move(Color::White, "Ra2", None, None)
            .unwrap()
            .ply;
        assert_eq!(game.check(Color::White, &fifty(Some(ra2)), T0), Ok(()));
        play(&mut game, &["Ra2"]);
        assert_eq!(game.check(Color::Black, &fifty(None), T0), Ok(()));
    }

    #[test]
    fn a_conditional_line_answers_at_once_and_a_move_off_it_cancels_it() {
        let mut game = Game::new("g", "w", "b", None).unwrap();
        play(&mut game, &["e4"]);
        // White, waiting for Black: if 1...e5 then 2.Nf3; if 2...Nc6 then 3.Bb5.
        let texts = unnumbered(&["e5", "Nf3", "Nc6", "Bb5"]);
        assert!(matches!(
            game.read_conditional(Color::Black, &texts, None),
            Err(Refusal::Move(_) | Refusal::Conditional(_))
        ));
        let line = game.read_conditional(Color::White, &texts, None).unwrap();
        game.apply_by(Color::White, &Action::Conditional(line), T0);
        play(&mut game, &["e5"]);
        let answer = game.conditional_reply().expect("Nf3 is due");
        game.apply(
            &Action::Move {
                m: answer,
                draw_offer: false,
            },
            T0,
        );
        assert_eq!(game.conditional(Color::White).len(), 2);
        play(&mut game, &["d6"]);
        assert_eq!(game.conditional_reply(), None);
        assert!(game.conditional(Color::White).is_empty(), "cancelled");
    }

    #[test]
    fn conditional_lines_are_refused_when_malformed() {
        let mut game = Game::new("g", "w", "b", None).unwrap();
        play(&mut game, &["e4"]);
        let read = |texts: &[&str]| game.read_conditional(Color::White, &unnumbered(texts), None);
        assert!(matches!(read(&["e5"]), Err(Refusal::Conditional(_))), "odd");
        let illegal = read(&["e5", "Ke3"]);
        assert!(
            matches!(&illegal, Err(Refusal::Conditional(why)) if why.to_string().contains("move 2")),
            "{illegal:?}"
        );
        assert_eq!(read(&[]), Ok(vec![]), "cancelling");
        let numbered = [
            (Some(white(7)), "e5".to_owned()),
            (Some(white(8)), "Nf3".to_owned()),
        ];
        let wrong = game.read_conditional(Color::White, &numbered, None);
        assert!(
            matches!(&wrong, Err(Refusal::Conditional(why)) if why.to_string().contains("7 is written, but this is move 1")),
            "{wrong:?}"
        );
        let black_for_white = [
            (Some(white(1)), "e5".to_owned()),
            (
                Some(MoveNumber {
                    number: 2,
                    black: true,
                }),
                "Nf3".to_owned(),
            ),
        ];
        let wrong = game.read_conditional(Color::White, &black_for_white, None);
        assert!(
            matches!(&wrong, Err(Refusal::Conditional(why)) if why.to_string().contains("for Black")),
            "{wrong:?}"
        );
        let numbered = [
            (Some(white(1)), "e5".to_owned()),
            (Some(white(2)), "Nf3".to_owned()),
        ];
        assert!(game.read_conditional(Color::White, &numbered, None).is_ok());
    }

    #[test]
    fn a_draw_offer_with_the_expected_move_suspends_the_answer() {
        let mut game = Game::new("g", "w", "b", None).unwrap();
        play(&mut game, &["e4"]);
        let texts = unnumbered(&["e5", "Nf3"]);
        let line = game.read_conditional(Color::White, &texts, None).unwrap();
        game.apply_by(Color::White, &Action::Conditional(line), T0);
        let e5 = game.check_move(Color::Black, "e5", None, None).unwrap().ply;
        game.apply(
            &Action::Move {
                m: e5,
                draw_offer: true,
            },
            T0,
        );
        assert_eq!(game.conditional_reply(), None);
    }

    #[test]
    fn time_runs_out_into_a_forfeit_or_a_flag() {
        let rules = Rules {
            time_control: TimeControl::MovesInDays { moves: 2, days: 10 },
            ..Rules::default()
        };
        let mut game = timed(rules.clone());
        play_at(&mut game, "e4", day(4));
        play_at(&mut game, "e5", day(5));
        // White has used 4 days; the second move must come within 10 in all.
        assert_eq!(game.due(day(11)), None);
        assert_eq!(
            game.due(day(11) + jiff::SignedDuration::from_secs(1)),
            Some(Due::TimeUp {
                color: Color::White,
                overdue: Overdue::TimeControl
            })
        );
        let mut forfeited = game.clone();
        forfeited.apply_by(
            Color::White,
            &Action::TimeUp {
                overdue: Overdue::TimeControl,
                forfeit: true,
            },
            day(12),
        );
        assert_eq!(
            forfeited.result(),
            Some(&GameResult::new(Some(Color::Black), EndReason::TimeForfeit))
        );
        let mut flagged = game.clone();
        flagged.apply_by(
            Color::White,
            &Action::TimeUp {
                overdue: Overdue::TimeControl,
                forfeit: false,
            },
            day(12),
        );
        assert!(flagged.flagged());
        assert_eq!(flagged.result(), None);
        assert_eq!(flagged.due(day(13)), None, "flagged once per move");
    }

    /// The day a side's days start to count double is told as a reminder is, between the
    /// reminders and once per move: not again on a day a reminder already falls on, and
    /// again on the next move.
    #[test]
    fn the_doubling_day_is_told_once_per_move_among_the_reminders() {
        for (reminder_days, told) in [
            (vec![14, 28], vec![14, 20, 28]),
            (vec![14, 20, 28], vec![14, 20, 28]),
            (vec![], vec![20]),
        ] {
            let mut rules = Rules::iccf(TimeControl::MovesInDays {
                moves: 10,
                days: 100,
            });
            rules.reminder_days = reminder_days.clone();
            let mut game = timed(rules);
            for mv in ["e4", "e5"] {
                let from = game.timeline().moves().last().copied().unwrap_or(day(0));
                let mut heard = Vec::new();
                for hour in 0..40 * 24 {
                    let at = from + jiff::SignedDuration::from_hours(hour);
                    if let Some(Due::Remind { color, days }) = game.due(at) {
                        heard.push(days);
                        game.apply_by(color, &Action::Remind { days }, at);
                    }
                }
                assert_eq!(heard, told, "{reminder_days:?}, before {mv}");
                play_at(
                    &mut game,
                    mv,
                    from + jiff::SignedDuration::from_hours(40 * 24),
                );
            }
        }
        // Triple Block never doubles: nothing more than its reminders.
        let mut rules = Rules::iccf(TimeControl::TripleBlock(clock::TripleBlock::iccf(3, 75)));
        rules.reminder_days = vec![14];
        let game = timed(rules);
        assert_eq!(
            game.due(day(21)),
            Some(Due::Remind {
                color: Color::White,
                days: 14
            })
        );
    }

    /// ICCF's doubling decides when a side runs out: with 50 days for its first move, the
    /// 35th day is charged 50 and the 36th 52.
    #[test]
    fn doubled_days_decide_the_instant_of_a_loss_on_time() {
        let rules = Rules::iccf(TimeControl::default());
        let mut game = timed(rules);
        let second = jiff::SignedDuration::from_secs(1);
        // Told once, the moment its days start to count double (and not before).
        assert_eq!(game.due(day(20) - second), None);
        assert_eq!(
            game.due(day(20)),
            Some(Due::Remind {
                color: Color::White,
                days: 20
            })
        );
        game.apply_by(Color::White, &Action::Remind { days: 20 }, day(20));
        assert_eq!(game.due(day(36) - second), None);
        assert_eq!(
            game.due(day(36)),
            Some(Due::TimeUp {
                color: Color::White,
                overdue: Overdue::TimeControl,
            })
        );
        let white = game.side_time(Color::White, day(36));
        assert_eq!(
            (white.used, white.charged),
            (36 * clock::DAY, 52 * clock::DAY)
        );
        assert_eq!(white.out_at, Some(day(36)));
    }

    #[test]
    fn leave_stops_the_clock_and_pauses_reminders() {
        let rules = Rules {
            time_control: TimeControl::DaysPerMove { days: 10 },
            reminder_days: vec![3, 6],
            silence_days: Some(9),
            ..Rules::default()
        };
        let mut game = timed(rules);
        let leave = Leave {
            first: clock::date_of(day(1)),
            days: 5,
        };
        assert!(matches!(
            game.check(Color::White, &Action::Leave(leave), day(1)),
            Err(Refusal::Leave(_))
        ));
        assert_eq!(
            game.check(Color::White, &Action::Leave(leave), day(0)),
            Ok(())
        );
        game.apply_by(Color::White, &Action::Leave(leave), day(0));
        assert_eq!(game.due(day(3)), None, "on leave");
        // The game started at 08:00 the day before the leave: 16 hours count before it, then
        // the time since it ended (5 days later, at midnight).
        let used = game.side_time(Color::White, day(7)).used;
        assert_eq!(used, 2 * clock::DAY);
        // Reminders after 3 and 6 days counted, then the silence limit.
        let due = game.due(day(9));
        assert!(matches!(due, Some(Due::Remind { days: 3, .. })), "{due:?}");
        game.apply_by(Color::White, &Action::Remind { days: 3 }, day(9));
        assert_eq!(game.due(day(9)), None);
        assert!(matches!(
            game.due(day(12)),
            Some(Due::Remind { days: 6, .. })
        ));
        assert!(matches!(
            game.due(day(15)),
            Some(Due::TimeUp {
                overdue: Overdue::Silence,
                ..
            })
        ));
    }

    #[test]
    fn the_arbiter_decides_with_a_reason() {
        let mut game = Game::new("g", "w", "b", None).unwrap();
        let mut result = GameResult::new(Some(Color::White), EndReason::Adjudication);
        result.note = Some("Black abandoned the game".to_owned());
        game.apply_by(Color::White, &Action::Adjudicate(result), T0);
        assert_eq!(
            game.result().map(ToString::to_string).as_deref(),
            Some("1-0 (adjudicated: Black abandoned the game)")
        );
        assert_eq!(
            game.result().map(|r| r.reason.termination()),
            Some("adjudication")
        );
    }

    fn triple_block_by_hand() -> Rules {
        Rules::iccf(
            "triple block 50 days + 3 days per move, bank 75, refill by hand"
                .parse()
                .expect("control"),
        )
    }

    /// docs/rules.md's worked example: White thinks 30 days (clock 23, bank 75); 10 days into
    /// its next move it moves 20 days from the bank (clock 33 from then, bank 55); the move
    /// 5 days later leaves 31 and 55.
    #[test]
    fn a_refill_moves_days_from_the_bank_to_the_clock() {
        let mut game = timed(triple_block_by_hand());
        play_at(&mut game, "e4", day(30));
        play_at(&mut game, "e5", day(30));
        let refill = Action::Refill { days: 20 };
        assert_eq!(game.check(Color::White, &refill, day(40)), Ok(()));
        game.apply_by(Color::White, &refill, day(40));
        let white = game.side_time(Color::White, day(40));
        assert_eq!(
            (white.left, white.bank),
            (Some(33 * clock::DAY), Some(55 * clock::DAY))
        );
        assert_eq!(white.out_at, Some(day(73)));
        play_at(&mut game, "Nf3", day(45));
        let white = game.side_time(Color::White, day(45));
        assert_eq!(
            (white.left, white.bank),
            (Some(31 * clock::DAY), Some(55 * clock::DAY))
        );
    }

    /// Every refusal of a refill, with its reason, and what a Triple Block game refuses.
    #[test]
    fn a_refill_is_refused_with_the_reason() {
        let mut game = timed(triple_block_by_hand());
        play_at(&mut game, "e4", day(30));
        let leave = Leave {
            first: clock::date_of(day(60)),
            days: 3,
        };
        for (color, action, at, says) in [
            (
                Color::White,
                Action::Refill { days: 5 },
                day(31),
                "refill refused: a clock is refilled while its side is to move",
            ),
            (
                Color::Black,
                Action::Refill { days: 0 },
                day(31),
                "refill refused: a refill is at least one day",
            ),
            (
                Color::Black,
                Action::Refill { days: 76 },
                day(31),
                "refill refused: the bank holds 75 day(s), 76 asked",
            ),
            (
                Color::Black,
                Action::Refill { days: 2 },
                day(31),
                "refill refused: the clock holds at most 50 days: 1 day(s) fit on it now, 2 asked",
            ),
            (
                Color::Black,
                Action::Refill { days: 5 },
                day(80),
                "refill refused: the clock has run out",
            ),
            (
                Color::White,
                Action::Leave(leave),
                day(31),
                "leave refused: a Triple Block game has no leave: refill the clock from the bank",
            ),
            (
                Color::White,
                Action::LongReflection,
                day(31),
                "long reflection refused: a Triple Block game has no silence limit",
            ),
        ] {
            let refused = game.check(color, &action, at).expect_err(says);
            assert!(refused.to_string().starts_with(says), "{refused}");
        }
        let plain = timed(Rules::default());
        assert_eq!(
            plain
                .check(Color::White, &Action::Refill { days: 1 }, day(1))
                .map_err(|r| r.to_string()),
            Err("refill refused: only a Triple Block game has a bank".to_owned())
        );
    }

    /// A long reflection declared ahead keeps the game past the silence limit on that move
    /// only; the time control still ends it.
    #[test]
    fn a_long_reflection_waives_the_silence_limit_on_its_move() {
        let rules = Rules {
            time_control: TimeControl::MovesInDays {
                moves: 10,
                days: 50,
            },
            silence_days: Some(40),
            ..Rules::default()
        };
        let mut game = timed(rules);
        play_at(&mut game, "d4", day(1));
        // White declares for its next move while Black is to move.
        assert_eq!(
            game.check(Color::White, &Action::LongReflection, day(2)),
            Ok(())
        );
        game.apply_by(Color::White, &Action::LongReflection, day(2));
        let again = game.check(Color::White, &Action::LongReflection, day(2));
        assert!(
            matches!(&again, Err(Refusal::LongReflection(why)) if why.to_string().contains("your next move")),
            "{again:?}"
        );
        play_at(&mut game, "d5", day(3));
        // 45 days of silence: past the limit, not the clock (49 days left).
        assert_eq!(game.due(day(48)), None);
        assert_eq!(game.due(day(52)), None);
        assert_eq!(
            game.due(day(53)),
            Some(Due::TimeUp {
                color: Color::White,
                overdue: Overdue::TimeControl
            })
        );
        play_at(&mut game, "c4", day(48));
        // Black declared nothing: its silence ends the game after 40 days.
        assert_eq!(
            game.due(day(89)),
            Some(Due::TimeUp {
                color: Color::Black,
                overdue: Overdue::Silence
            })
        );
        // A game without a silence limit has nothing to waive.
        let plain = timed(Rules::default());
        assert_eq!(
            plain
                .check(Color::White, &Action::LongReflection, day(0))
                .map_err(|r| r.to_string()),
            Err(
                "long reflection refused: this game has no silence limit: there is nothing to declare"
                    .to_owned()
            )
        );
    }

    /// "No draw offer before move 20": an offer, an offer with a move and an agreement are
    /// refused before it, by the number of the move being made; from it they are allowed.
    #[test]
    fn no_draw_is_offered_or_agreed_before_the_events_move() {
        let rules = Rules {
            draw_offers_from_move: Some(3),
            ..Rules::unlimited()
        };
        let mut game = timed(rules);
        play(&mut game, &["e4", "e5", "Nf3"]);
        // Black's 2nd move: too early, whatever the form.
        let nc6 = game
            .check_move(Color::Black, "Nc6", None, None)
            .unwrap()
            .ply;
        for (color, action) in [
            (Color::Black, Action::OfferDraw),
            (Color::White, Action::OfferDraw),
            (Color::Black, Action::AcceptDraw),
            (
                Color::Black,
                Action::Move {
                    m: nc6.clone(),
                    draw_offer: true,
                },
            ),
        ] {
            assert_eq!(
                game.check(color, &action, T0),
                Err(Refusal::DrawTooEarly { from: 3, now: 2 }),
                "{action:?}"
            );
        }
        assert_eq!(
            Refusal::DrawTooEarly { from: 3, now: 2 }.to_string(),
            "too early for a draw: in this event no draw is offered or agreed before move 3; this is move 2"
        );
        assert_eq!(
            game.check(
                Color::Black,
                &Action::Move {
                    m: nc6,
                    draw_offer: false
                },
                T0
            ),
            Ok(())
        );
        play(&mut game, &["Nc6"]);
        assert_eq!(game.check(Color::White, &Action::OfferDraw, T0), Ok(()));
        game.apply_by(Color::White, &Action::OfferDraw, T0);
        assert_eq!(game.check(Color::Black, &Action::AcceptDraw, T0), Ok(()));
    }

    /// The seam carries a second game: Russian draughts through the same `Game`, its board
    /// deciding legality and the result, the match rules deciding the rest.
    #[test]
    fn a_draughts_game_is_played_through_the_same_game() {
        let mut game = Game::of_kind(Kind::DraughtsRu, "d", "w", "b", Some("W:W22:B18")).unwrap();
        assert_eq!(game.kind(), Kind::DraughtsRu);
        // A capture is compulsory; the refusal names it.
        let quiet = game.check_move(Color::White, "c3-b4", None, None);
        assert!(
            matches!(&quiet, Err(Refusal::Move(e)) if e.to_string().contains("c3:e5")),
            "{quiet:?}"
        );
        assert!(matches!(
            game.check(
                Color::White,
                &Action::Claim {
                    claim: Claim::FiftyMoves,
                    m: None
                },
                T0
            ),
            Err(Refusal::WrongClaim(why)) if why.to_string().contains("not this game's")
        ));
        let m = game
            .check_move(Color::White, "22x15", Some(white(1)), None)
            .unwrap()
            .ply;
        assert_eq!(game.board().code(&m), "22x15");
        game.apply(
            &Action::Move {
                m,
                draw_offer: false,
            },
            T0,
        );
        // Black has no piece left, so no legal move: White wins.
        assert_eq!(
            game.result(),
            Some(&GameResult::new(Some(Color::White), EndReason::NoMoves))
        );
        assert_eq!(game.board().fen(), "B:W15:B:F1");
    }
}
