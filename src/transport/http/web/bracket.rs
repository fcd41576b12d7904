//! A knock-out's bracket drawn on its event page as inline SVG: a column a round, a box a
//! match (each side's seed, name and score, the one who went on in bold), lines joining each
//! match to the one it feeds, and the winner at the end. Drawn with SVG's own attributes:
//! no script and no style attribute, which the pages' Content-Security-Policy forbids.

use std::collections::BTreeMap;

use maud::{Markup, html};

use crate::catalog::{Key, Tongue};
use crate::event::knockout::{Bracket, How, Match, Side};
use crate::event::standings::halves;

/// Height given to each first-round match, and a box's size.
const UNIT: u32 = 56;
const BOX_WIDTH: u32 = 190;
const BOX_HEIGHT: u32 = 40;
/// From one round's column to the next's.
const COLUMN: u32 = 230;
/// Room above the first box for the rounds' names.
const TOP: u32 = 30;

/// A round's name in the viewer's language: the final, the semi-finals, ...
fn round_name(t: Tongue, round: u32, rounds: u32) -> String {
    match rounds.saturating_sub(round) {
        0 => t.word(Key::WebBracketFinal),
        1 => t.word(Key::WebBracketSemiFinals),
        2 => t.word(Key::WebBracketQuarterFinals),
        _ => t.say(Key::WebBracketRound, &[("round", (round as i64).into())]),
    }
}

/// The vertical middle of match `number` of `round`.
fn middle(round: u32, number: u32) -> u32 {
    TOP + UNIT * (1 << (round - 1)) * (2 * number - 1) / 2
}

/// One side's words: `3 Clara Benson`, the bye, or nothing while it is open.
fn side_text(t: Tongue, side: &Side, names: &BTreeMap<&str, &str>) -> String {
    match side {
        Side::Player { id, seed } => {
            format!("{seed} {}", names.get(id.as_str()).copied().unwrap_or(id))
        }
        Side::Empty => t.word(Key::WebBracketBye),
        Side::Open => String::new(),
    }
}

/// How a match was decided, in words, when not by its first pair.
fn how_text(t: Tongue, m: &Match) -> Option<String> {
    match m.decided.as_ref()?.how {
        How::Lot => Some(t.word(Key::WebBracketByLot)),
        How::ExtraGames => Some(t.word(Key::WebBracketExtraGames)),
        How::Withdrawal => Some(t.word(Key::WebBracketWithdrawal)),
        How::Bye | How::Games => None,
    }
}

fn match_box(t: Tongue, m: &Match, names: &BTreeMap<&str, &str>) -> Markup {
    let x = 10 + (m.round - 1) * COLUMN;
    let y = middle(m.round, m.number) - BOX_HEIGHT / 2;
    let winner = m.decided.as_ref().and_then(|d| d.winner.as_deref());
    let played = m.games.iter().any(|g| g.started);
    html! {
        g.match data-round=(m.round) data-match=(m.number) {
            rect x=(x) y=(y) width=(BOX_WIDTH) height=(BOX_HEIGHT) rx="3"
                fill="#fff" stroke="#888" {}
            line x1=(x) y1=(y + BOX_HEIGHT / 2) x2=(x + BOX_WIDTH) y2=(y + BOX_HEIGHT / 2)
                stroke="#ddd" {}
            @for (i, side) in m.sides.iter().enumerate() {
                @let baseline = y + 14 + 20 * i as u32;
                @let went_on = side.player().is_some() && side.player() == winner;
                text.side x=(x + 6) y=(baseline) font-size="12"
                    font-weight=(if went_on { "bold" } else { "normal" })
                    data-player=[side.player()] {
                    (side_text(t, side, names))
                }
                @if played {
                    text.score x=(x + BOX_WIDTH - 6) y=(baseline) font-size="12"
                        text-anchor="end" { (halves(m.score2[i])) }
                }
            }
            @if let Some(how) = how_text(t, m) {
                text.how x=(x + 6) y=(y + BOX_HEIGHT + 11) font-size="10" fill="#666" { (how) }
            }
        }
    }
}

/// The bracket as an SVG image, with `names` (ids to the names shown) for its players.
pub fn svg(t: Tongue, bracket: &Bracket, names: &BTreeMap<&str, &str>) -> Markup {
    let rounds = bracket.rounds.len() as u32;
    let width = 20 + rounds * COLUMN + BOX_WIDTH;
    let height = TOP + UNIT * (bracket.size as u32 / 2) + 10;
    let champion = bracket.champion();
    html! {
        svg.bracket xmlns="http://www.w3.org/2000/svg" role="img"
            width=(width) height=(height) viewBox={ "0 0 " (width) " " (height) } {
            title { (t.word(Key::WebBracket)) }
            @for r in 1..=rounds {
                text.round x=(10 + (r - 1) * COLUMN) y="16" font-size="13" font-weight="bold" {
                    (round_name(t, r, rounds))
                }
            }
            // The lines first, under the boxes: each match to the one it feeds.
            @for m in bracket.rounds.iter().flatten() {
                @let x = 10 + (m.round - 1) * COLUMN + BOX_WIDTH;
                @let y = middle(m.round, m.number);
                @let (x2, y2) = if m.round < rounds {
                    (10 + m.round * COLUMN, middle(m.round + 1, m.number.div_ceil(2)))
                } else {
                    (x + 20, y)
                };
                path d={ "M" (x) " " (y) " H" (x + (x2 - x) / 2) " V" (y2) " H" (x2) }
                    fill="none" stroke="#888" {}
            }
            @for m in bracket.rounds.iter().flatten() { (match_box(t, m, names)) }
            @if let Some(id) = champion {
                @let x = 10 + rounds * COLUMN;
                @let y = middle(rounds, 1);
                text.winner x=(x) y=(y - 6) font-size="11" fill="#666" { (t.word(Key::WebBracketWinner)) }
                text.champion x=(x) y=(y + 10) font-size="13" font-weight="bold" data-player=(id) {
                    (names.get(id).copied().unwrap_or(id))
                }
            }
        }
    }
}
