//! A player's games as facts, for front ends that show whole games on request rather than
//! receive pushes (XFCC, web pages): the moves in English SAN, both clocks, the standing draw
//! offer, the result, the event, and the opponent's last message; and, typed, what a board
//! drawn for the viewer shows (the pieces, the last move's squares, a king in check), so that
//! no front end reads the FEN or a move's code again to draw it. Plain data; each front end
//! writes it in its own format.
//!
//! The relay keeps, beside each game, what the game itself does not hold ([`GameNotes`]: its
//! event, round and start, each side's last message), from the journal at start and from each
//! command after.

use jiff::Timestamp;
use shakmaty::Color;

use crate::game::clock::TimeControl;
use crate::game::{EndReason, FileRank, Game, Kind, PieceOn, Ply, board};
use crate::journal::notice::Clocks;
use crate::journal::replay::{JournaledGame, Spoken};
use crate::notation::{Lang, LangSet, Notation, ReadIn};
use crate::relay::notes::GameNotes;
use crate::relay::state::State;

/// How a game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Standing {
    Ongoing,
    /// The side to move overstepped its time and the arbiter decides.
    AwaitingArbiter,
    Over {
        /// `None` for a draw.
        winner: Option<Color>,
        reason: EndReason,
    },
}

/// One game as one of its players sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameView {
    pub id: String,
    pub kind: Kind,
    /// The players' names (their ids when the configuration gives none).
    pub white: String,
    pub black: String,
    pub white_id: String,
    pub black_id: String,
    /// The colour the viewer plays.
    pub color: Color,
    pub to_move: Color,
    /// The number of the next move (the full-move number of the position now).
    pub move_number: u32,
    /// Numbered English SAN: `1.e4 e5 2.Nf3`.
    pub movetext: String,
    /// The position now, and the starting position of a game that did not start from the
    /// initial one.
    pub fen: String,
    pub start_fen: Option<String>,
    /// The pieces of the position now, the top rank first: what a board drawn for the viewer
    /// shows, without reading the FEN again.
    pub pieces: Vec<PieceOn>,
    /// The squares the last move touched (from and to; a draughts capture's every stop),
    /// empty before the first move.
    pub last_move_squares: Vec<FileRank>,
    /// The square of the king in check, if one is (chess only).
    pub king_in_check: Option<FileRank>,
    /// Seconds each side has left to its next time control (negative past it); `None` without
    /// a limit.
    pub time_left: [Option<i64>; 2],
    /// Both clocks as the engine counts them (what each side was charged, Triple Block's
    /// bank, whether a side's days now count double); `None` without a limit.
    pub clocks: Option<Clocks>,
    pub time_control: TimeControl,
    /// Days of silence on one move after which the side to move loses (or is flagged), if
    /// the game has such a limit: where a long reflection may be declared.
    pub silence_days: Option<u32>,
    /// Whether each side (White, Black) is on leave now.
    pub on_leave: [bool; 2],
    /// The side whose draw offer stands.
    pub draw_offer: Option<Color>,
    pub standing: Standing,
    pub event: Option<String>,
    pub site: Option<String>,
    pub round: Option<String>,
    pub started: Option<Timestamp>,
    /// The opponent's last message in this game.
    pub opponent_message: Option<String>,
    /// The languages the viewer's moves in this game fit so far (see [`Game::langs`]).
    pub langs: LangSet,
    /// Every move from the start, for front ends that write them in the viewer's notation.
    pub moves: Vec<Ply>,
    /// When the last move was made.
    pub last_move_at: Option<Timestamp>,
    /// The game's last messages, oldest first, each made fit for the reader.
    pub conversation: Vec<Spoken>,
}

impl GameView {
    /// The game is on and it is the viewer's move.
    pub fn my_turn(&self) -> bool {
        self.standing == Standing::Ongoing && self.to_move == self.color
    }

    /// Whether `text` reads as more than one legal move on the position shown (in `lang`,
    /// then English; without it, in the languages the viewer's earlier moves fit): why a move
    /// was refused, for front ends that name that case.
    pub fn is_ambiguous(&self, text: &str, lang: Option<Lang>) -> bool {
        let Ok(pos) = board(self.kind, Some(&self.fen)) else {
            return false;
        };
        pos.read_in(text, ReadIn::new(lang, self.langs))
            .is_err_and(|e| e.is_ambiguous())
    }
}

pub(super) fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Numbered English SAN from the game's start: `1.e4 e5 2.Nf3`, `12...Nf6 13.Bg5` from a
/// position with Black to move.
pub fn san_movetext(game: &Game) -> String {
    let mut pos = game.start().boxed();
    let mut words = Vec::with_capacity(game.moves().len());
    for (i, m) in game.moves().iter().enumerate() {
        let san = pos.write(m, Notation::San(Lang::English));
        let number = pos.move_number();
        if pos.turn() == Color::White {
            words.push(format!("{number}.{san}"));
        } else if i == 0 {
            words.push(format!("{number}...{san}"));
        } else {
            words.push(san);
        }
        pos.play(m);
    }
    words.join(" ")
}

impl Standing {
    /// Where `game` stands; a flag fallen is shown only when `flag_shown` (a spectator behind
    /// a delay must not learn of it before the moves that led there).
    pub(super) fn of(game: &crate::game::Game, flag_shown: bool) -> Standing {
        match game.result() {
            Some(result) => Standing::Over {
                winner: result.winner,
                reason: result.reason,
            },
            None if (game.flagged() && flag_shown) || game.stopped().is_some() => {
                Standing::AwaitingArbiter
            }
            None => Standing::Ongoing,
        }
    }
}

/// Keeps the facts of the replayed games.
pub(super) fn notes_of(
    games: &std::collections::BTreeMap<String, JournaledGame>,
) -> crate::relay::games::ByGame<GameNotes> {
    games
        .iter()
        .map(|(id, g)| (id.clone(), GameNotes::of_journaled(g)))
        .collect()
}

/// Game `id` as `player` sees it; `None` when there is no such game.
pub(in crate::relay) fn view(state: &State, id: &str, player: &str) -> Option<GameView> {
    let game = state.games.by_id.get(id)?;
    let color = game.side_of(player)?;
    let facts = state.games.notes.get(id).cloned().unwrap_or_default();
    let standing = Standing::of(game, true);
    let event = facts
        .event
        .as_ref()
        .and_then(|e| state.people.events.get(e));
    let side = |c: Color| game.side_time(c, state.recorder.now);
    Some(GameView {
        id: id.to_owned(),
        kind: game.kind(),
        white: state.people.player_name(&game.white),
        black: state.people.player_name(&game.black),
        white_id: game.white.clone(),
        black_id: game.black.clone(),
        color,
        to_move: game.turn(),
        move_number: game.move_number(),
        movetext: san_movetext(game),
        fen: game.board().fen(),
        start_fen: game.start_fen().map(str::to_owned),
        pieces: game.board().pieces(),
        last_move_squares: game.moves().last().map(Ply::squares).unwrap_or_default(),
        king_in_check: game.board().checked_king(),
        time_left: [side(Color::White).left, side(Color::Black).left],
        clocks: Clocks::of(game, state.recorder.now),
        time_control: game.rules().time_control,
        silence_days: game.rules().silence_days,
        on_leave: [side(Color::White).on_leave, side(Color::Black).on_leave],
        draw_offer: game.draw_offer(),
        standing,
        event: event
            .map(|e| e.name.clone())
            .or_else(|| facts.event.clone()),
        site: event.map(|e| e.site.clone()).filter(|s| !s.is_empty()),
        round: facts.round.clone(),
        started: facts.started,
        // Made fit for the reader: a message on record from before the one text check,
        // or from the other node's record, is not shown raw.
        opponent_message: facts.messages[index(!color)]
            .as_deref()
            .map(|m| crate::command::text::scrub(m, crate::command::MAX_MESSAGE_CHARS))
            .filter(|m| !m.is_empty()),
        langs: game.langs(color),
        moves: game.moves().to_vec(),
        last_move_at: game.timeline().moves().last().copied(),
        conversation: facts
            .conversation
            .iter()
            .map(|s| Spoken {
                text: crate::command::text::scrub(&s.text, crate::command::MAX_MESSAGE_CHARS),
                ..s.clone()
            })
            .filter(|s| !s.text.is_empty())
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Action;

    fn play(game: &mut Game, moves: &[&str]) {
        for m in moves {
            let color = game.turn();
            let m = game.check_move(color, m, None, None).unwrap().ply;
            game.apply(
                &Action::Move {
                    m,
                    draw_offer: false,
                },
                Timestamp::UNIX_EPOCH,
            );
        }
    }

    #[test]
    fn movetext_is_numbered_english_san() {
        let mut game = Game::new("g", "a", "b", None).unwrap();
        assert_eq!(san_movetext(&game), "");
        play(&mut game, &["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O"]);
        assert_eq!(san_movetext(&game), "1.e4 e5 2.Nf3 Nc6 3.Bb5 Nf6 4.O-O");
    }

    #[test]
    fn a_game_from_a_position_with_black_to_move_starts_with_dots() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 12";
        let mut game = Game::new("g", "a", "b", Some(fen)).unwrap();
        play(&mut game, &["Kd7", "e4"]);
        assert_eq!(san_movetext(&game), "12...Kd7 13.e4");
    }
}
