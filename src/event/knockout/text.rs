//! The bracket as lines of text, the same for `EVENT SHOW` and the event's exported record:
//! each round under its name, each match with its seeds, score and who goes on, and how.

use super::{Bracket, Match, Side, round_name};
use crate::event::standings::halves;

/// One side as the lines name it: `3 clara`, `bye`, or `?` while the match feeding it goes on.
fn side(s: &Side, round: u32) -> String {
    match s {
        Side::Player { id, seed } => format!("{seed} {id}"),
        Side::Empty if round == 1 => "bye".to_owned(),
        Side::Empty => "-".to_owned(),
        Side::Open => "?".to_owned(),
    }
}

/// What became of a match: `anna goes on (extra games)`, `playing`, ...
fn outcome(m: &Match) -> String {
    match &m.decided {
        Some(d) => match &d.winner {
            Some(w) => format!("{w} goes on ({})", d.how.as_str()),
            None => format!("no one goes on ({})", d.how.as_str()),
        },
        None if m.lot_due => "level after both pairs: the lot is due".to_owned(),
        None if m.games.is_empty() => "waiting".to_owned(),
        None if m.games.len() > 2 => "playing the extra pair".to_owned(),
        None => "playing".to_owned(),
    }
}

/// The bracket, round by round: `round 1 (semi-finals)`, then a line a match
/// (`  m1: 1 anna 2 - 0 4 dora: anna goes on (games) [cup-r1m1g1 1-0, cup-r1m1g2 0-1]`), and the
/// winner once the final is decided.
pub fn lines(bracket: &Bracket) -> Vec<String> {
    let total = bracket.rounds.len() as u32;
    let mut out = vec![format!(
        "bracket of {} places, {total} round(s)",
        bracket.size
    )];
    for (i, round) in bracket.rounds.iter().enumerate() {
        let r = i as u32 + 1;
        out.push(format!("round {r} ({})", round_name(r, total)));
        for m in round {
            let games: Vec<String> = m
                .games
                .iter()
                .filter(|g| g.started)
                .map(|g| format!("{} {}", g.id, result(g.result)))
                .collect();
            let score = if m.games.iter().any(|g| g.started) {
                format!(" {} - {}", halves(m.score2[0]), halves(m.score2[1]))
            } else {
                String::new()
            };
            out.push(format!(
                "  m{}: {}{score} {}: {}{}",
                m.number,
                side(&m.sides[0], r),
                side(&m.sides[1], r),
                outcome(m),
                if games.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", games.join(", "))
                }
            ));
        }
    }
    if let Some(champion) = bracket.champion() {
        out.push(format!("winner: {champion}"));
    }
    out
}

/// A game's result as PGN writes it, `*` while it goes on.
fn result(result: Option<Option<shakmaty::Color>>) -> &'static str {
    match result {
        Some(Some(shakmaty::Color::White)) => "1-0",
        Some(Some(shakmaty::Color::Black)) => "0-1",
        Some(None) => "1/2-1/2",
        None => "*",
    }
}
