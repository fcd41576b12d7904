//! The line protocol's texts, checked by what each reader reads: the outbox items
//! (`notices.rs`), a mail's summaries and details beside them (`summaries.rs`), the clock
//! lines of every control (`clocks.rs`). The readers and games they share are here.

use super::*;

use jiff::Timestamp;
use shakmaty::Color;

use crate::game::{Game, Ply};
use crate::journal::notice::{Clocks, DrawAct, MoveNotice, Notice, Side};

use jiff::SignedDuration;

use crate::catalog::Tongue;
use crate::game::Action;
use crate::game::clock::{Leave, Overdue, Rules, TimeControl, TripleBlock};
use crate::game::{Kind, replay};
use crate::journal::notice::MoveData;
use crate::relay::summary::{clock_words, mail_clocks, mail_details, summary};

mod clocks;
mod notices;
mod summaries;

const T0: Timestamp = Timestamp::UNIX_EPOCH;

fn iccf() -> Audience {
    Audience::default()
}

fn san_en() -> Audience {
    Audience {
        notation: Notation::San(Lang::English),
        lang: Some(Lang::English),
    }
}

fn lan_ru() -> Audience {
    Audience {
        notation: Notation::Lan(Lang::Russian),
        lang: Some(Lang::Russian),
    }
}

/// alice (White) - boris (Black) after `moves` (English SAN), all played at T0, under
/// ICCF's 10 moves in 50 days.
fn game(moves: &[&str]) -> Game {
    let mut game = Game::new("g1", "alice", "boris", None)
        .unwrap()
        .with_rules(Rules::default(), T0);
    for text in moves {
        let m = game.board().read(text, Some(Lang::English)).unwrap().ply;
        let color = game.turn();
        game.apply_by(
            color,
            &Action::Move {
                m,
                draw_offer: false,
            },
            T0,
        );
    }
    game
}

fn next(game: &Game, text: &str) -> Ply {
    game.board().read(text, Some(Lang::English)).unwrap().ply
}

/// The notice of `text` played next in `game` (after `moves`).
fn move_notice(moves: &[&str], text: &str) -> MoveNotice {
    let g = game(moves);
    let m = next(&g, text);
    MoveNotice {
        game: "g1".to_owned(),
        mover: g.player(g.turn()).to_owned(),
        mv: MoveData::of(&g, &m),
        draw_offer: false,
        clocks: None,
        from_line: false,
        cancels_line: false,
        history: Default::default(),
    }
}

/// `hours` after T0.
fn at(hours: i64) -> Timestamp {
    T0 + SignedDuration::from_hours(hours)
}

/// alice (White) - boris (Black) under `rules` from T0, each move (English SAN) made
/// `hours` after T0.
fn timed(rules: Rules, moves: &[(&str, i64)]) -> Game {
    let mut game = Game::new("g1", "alice", "boris", None)
        .unwrap()
        .with_rules(rules, T0);
    for (text, hours) in moves {
        let m = next(&game, text);
        let color = game.turn();
        game.apply_by(
            color,
            &Action::Move {
                m,
                draw_offer: false,
            },
            at(*hours),
        );
    }
    game
}

fn san_uk() -> Audience {
    Audience {
        notation: Notation::San(Lang::Ukrainian),
        lang: Some(Lang::Ukrainian),
    }
}
