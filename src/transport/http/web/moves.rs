//! A game's moves as the pages list them, the spectator's and the player's alike: each written
//! in the reader's notation with its number and side, and the numbered list the pages show
//! (`1. e4 e5`, `12… Nf6` for a game from a position with Black to move).

use maud::{Markup, PreEscaped, html};
use shakmaty::Color;

use crate::game::Kind;
use crate::notation::{Lang, Notation};

/// One move as a list shows it.
pub struct ListedMove {
    /// The full-move number.
    pub number: u32,
    pub color: Color,
    pub text: String,
}

/// The notation a game of `kind` is written in for a reader of chess in `chess`: a draughts
/// game has no piece letters, so it is numeric for an `iccf` reader and algebraic in `lang`
/// for anyone else.
pub fn notation_for(kind: Kind, chess: Notation, lang: Lang) -> Notation {
    match (kind, chess) {
        (Kind::Chess, n) => n,
        (Kind::DraughtsRu, Notation::Iccf) => Notation::Iccf,
        (Kind::DraughtsRu, _) => Notation::San(lang),
    }
}

/// The numbered list `#moves`, each move's markup made by `item` (its index and the move).
pub fn numbered(moves: &[ListedMove], item: impl Fn(usize, &ListedMove) -> Markup) -> Markup {
    html! {
        ol.moves #moves {
            @for (i, m) in moves.iter().enumerate() {
                @if m.color == Color::White || i == 0 {
                    (PreEscaped(if i == 0 { "" } else { "</li>" }))
                    (PreEscaped(format!("<li value=\"{}\">", m.number)))
                    @if m.color == Color::Black { "… " }
                }
                (item(i, m)) " "
            }
            @if !moves.is_empty() { (PreEscaped("</li>")) }
        }
    }
}
