//! The board as SVG, drawn by ccrelay itself: a chess position from its FEN (pieces are
//! simple shapes of our own, see [`shape`]) or a Russian draughts position (men as discs,
//! kings with a crown ring), White at the bottom, coordinates on the edges, the last move's
//! squares marked and a king in check ringed.
//!
//! Every piece is a `<g class="piece">` with `data-square` (`e4`) and `data-piece` (the FEN
//! letter for chess, `w`, `W`, `b`, `B` for a draughts man or king), so that a test (or a
//! script) reads the board square by square. The `<svg>` carries `data-fen`, and a text
//! alternative (`role="img"`, `aria-label`): the FEN and the side to move.

use std::fmt::Write as _;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position as _};

use crate::draughts;
use crate::game::Kind;

/// One square's side in SVG units.
const SQ: u32 = 45;
/// The margin holding the coordinates.
const EDGE: u32 = 14;

/// What the board shows besides the pieces.
pub struct Marks {
    /// The last move's squares (from, to, and a draughts capture's stops), as `(file, rank)`
    /// counted from 0 at a1.
    pub last: Vec<(u8, u8)>,
    /// The square of a king in check.
    pub check: Option<(u8, u8)>,
}

/// The squares a move touches, from its code as the record keeps it: ICCF numeric for chess
/// (`5254`, `72814` with a promotion digit), numeric for draughts (`22-17`, `22:13:6`).
pub fn move_squares(kind: Kind, code: &str) -> Vec<(u8, u8)> {
    match kind {
        Kind::Chess => {
            let d: Vec<u8> = code.bytes().take(4).map(|b| b.wrapping_sub(b'1')).collect();
            match d[..] {
                [f1, r1, f2, r2] if d.iter().all(|&x| x < 8) => vec![(f1, r1), (f2, r2)],
                _ => Vec::new(),
            }
        }
        Kind::DraughtsRu => code
            .split(['-', ':', 'x'])
            .filter_map(|n| draughts::Square::from_number(n.trim().parse().ok()?))
            .map(|s| (s.file(), s.rank()))
            .collect(),
    }
}

/// The square of the king in check in a chess position, if one is.
pub fn check_square(fen: &str) -> Option<(u8, u8)> {
    let pos: Chess = fen
        .parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Chess960)
        .ok()?;
    if !pos.is_check() {
        return None;
    }
    let king = pos.board().king_of(pos.turn())?;
    Some((u8::from(king.file()), u8::from(king.rank())))
}

/// The pieces of a position, as `(file, rank, data-piece)`.
fn pieces(kind: Kind, fen: &str) -> Vec<(u8, u8, char)> {
    match kind {
        Kind::Chess => {
            let placement = fen.split(' ').next().unwrap_or("");
            let mut out = Vec::new();
            for (row, line) in placement.split('/').take(8).enumerate() {
                let rank = 7u8.saturating_sub(row as u8);
                let mut file = 0u8;
                for c in line.chars() {
                    if let Some(n) = c.to_digit(10) {
                        file = file.saturating_add(n as u8);
                    } else if "KQRBNPkqrbnp".contains(c) && file < 8 {
                        out.push((file, rank, c));
                        file += 1;
                    }
                }
            }
            out
        }
        Kind::DraughtsRu => {
            let Ok(pos) = draughts::setup::parse_fen(fen) else {
                return Vec::new();
            };
            draughts::Square::all()
                .filter_map(|s| {
                    let p = pos.piece_at(s)?;
                    let c = match (p.color, p.kind) {
                        (draughts::Color::White, draughts::Kind::Man) => 'w',
                        (draughts::Color::White, draughts::Kind::King) => 'W',
                        (draughts::Color::Black, draughts::Kind::Man) => 'b',
                        (draughts::Color::Black, draughts::Kind::King) => 'B',
                    };
                    Some((s.file(), s.rank(), c))
                })
                .collect()
        }
    }
}

/// A square's name: `e4`.
pub fn square_name(file: u8, rank: u8) -> String {
    format!("{}{}", char::from(b'a' + file.min(7)), rank.min(7) + 1)
}

/// The outline of a chess piece in a 45×45 square: our own simple shapes.
fn shape(role: char) -> &'static str {
    match role.to_ascii_lowercase() {
        'p' => "M22.5 10a5 5 0 1 1 0 10a5 5 0 1 1 0-10z M17 22h11l3 12h-17z M12 34h21v4h-21z",
        'r' => "M12 9h4v3h4v-3h5v3h4v-3h4v8l-3 3v10l3 3v5h-21v-5l3-3v-10l-3-3z",
        'n' => {
            "M14 38h19c0-9-1-17-5-23c-2-4-6-6-10-6l1 3c-3 1-6 4-7 8c-1 3 1 5 3 4c2-1 4-3 7-3c-4 5-8 9-8 17z"
        }
        'b' => {
            "M22.5 6a3 3 0 1 1 0 6a3 3 0 1 1 0-6z M16 30c-3-6-2-12 6.5-17c8.5 5 9.5 11 6.5 17z M13 31h19v3h-19z M11 35h23v3h-23z"
        }
        'q' => "M9 13l5 17h17l5-17l-8 9l-5.5-13l-5.5 13z M13 31h19v3h-19z M11 35h23v3h-23z",
        _ => {
            "M21 5h3v4h4v3h-4v4h-3v-4h-4v-3h4z M10 21c0-5 6-6 12.5-2c6.5-4 12.5-3 12.5 2c0 5-4 7-5 10h-15c-1-3-5-5-5-10z M13 31h19v3h-19z M11 35h23v3h-23z"
        }
    }
}

/// The board, as an `<svg>` element, White at the bottom.
pub fn svg(kind: Kind, fen: &str, marks: &Marks, label: &str) -> String {
    svg_from(kind, fen, marks, label, shakmaty::Color::White)
}

/// The board seen from `bottom`'s side (a player's own page shows it from theirs). Every
/// square is a `<rect class="sq">` with its `data-square`, for a script moving pieces.
pub fn svg_from(
    kind: Kind,
    fen: &str,
    marks: &Marks,
    label: &str,
    bottom: shakmaty::Color,
) -> String {
    let size = SQ * 8 + 2 * EDGE;
    let flip = bottom == shakmaty::Color::Black;
    let mut out = String::with_capacity(8192);
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" id="board" class="board" viewBox="0 0 {size} {size}" role="img" aria-label="{}" data-fen="{}" data-kind="{}">"#,
        escape(label),
        escape(fen),
        kind.as_str()
    );
    let _ = write!(out, "<title>{}</title>", escape(label));
    let _ = write!(
        out,
        r##"<rect width="{size}" height="{size}" fill="#4a3b2c"/>"##
    );
    let xy = |file: u8, rank: u8| {
        let (col, row) = if flip {
            (7 - file, rank)
        } else {
            (file, 7 - rank)
        };
        (EDGE + u32::from(col) * SQ, EDGE + u32::from(row) * SQ)
    };
    for rank in 0..8u8 {
        for file in 0..8u8 {
            let (x, y) = xy(file, rank);
            let dark = (file + rank) % 2 == 0;
            let fill = if dark { "#b58863" } else { "#f0d9b5" };
            let _ = write!(
                out,
                r#"<rect class="sq" data-square="{}" x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{fill}"/>"#,
                square_name(file, rank)
            );
            if marks.last.contains(&(file, rank)) {
                let _ = write!(
                    out,
                    r##"<rect class="last-move" data-square="{}" x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="#e8d33f" fill-opacity="0.45"/>"##,
                    square_name(file, rank)
                );
            }
            if marks.check == Some((file, rank)) {
                let _ = write!(
                    out,
                    r##"<circle class="check" data-square="{}" cx="{}" cy="{}" r="21" fill="#e03030" fill-opacity="0.6"/>"##,
                    square_name(file, rank),
                    x + SQ / 2,
                    y + SQ / 2
                );
            }
        }
    }
    for i in 0..8u8 {
        let (x, _) = xy(i, 0);
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-size="10" fill="#f0d9b5" text-anchor="middle" font-family="sans-serif">{}</text>"##,
            x + SQ / 2,
            size - 3,
            char::from(b'a' + i)
        );
        let (_, y) = xy(0, i);
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-size="10" fill="#f0d9b5" text-anchor="middle" font-family="sans-serif">{}</text>"##,
            EDGE / 2,
            y + SQ / 2 + 4,
            i + 1
        );
    }
    for (file, rank, piece) in pieces(kind, fen) {
        let (x, y) = xy(file, rank);
        let white = piece.is_ascii_uppercase() || piece == 'w';
        let (fill, stroke) = if white {
            ("#fafafa", "#111")
        } else {
            ("#262626", "#000")
        };
        let _ = write!(
            out,
            r#"<g class="piece" data-square="{}" data-piece="{piece}" transform="translate({x} {y})">"#,
            square_name(file, rank)
        );
        match kind {
            Kind::Chess => {
                let _ = write!(
                    out,
                    r#"<path d="{}" fill="{fill}" stroke="{stroke}" stroke-width="1.5" stroke-linejoin="round"/>"#,
                    shape(piece)
                );
            }
            Kind::DraughtsRu => {
                let ring = if white { "#111" } else { "#ddd" };
                let _ = write!(
                    out,
                    r#"<circle cx="22.5" cy="22.5" r="17" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/><circle cx="22.5" cy="22.5" r="11" fill="none" stroke="{ring}" stroke-width="1"/>"#
                );
                if piece == 'W' || piece == 'B' {
                    let _ = write!(
                        out,
                        r#"<path d="M14 27l2-9l4 5l2.5-7l2.5 7l4-5l2 9z" fill="{ring}"/>"#
                    );
                }
            }
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}

/// Text escaped for an attribute or element.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_of_the_fen_is_drawn_on_its_square() {
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        let marks = Marks {
            last: move_squares(Kind::Chess, "5755"),
            check: None,
        };
        let svg = svg(Kind::Chess, fen, &marks, "label");
        assert_eq!(svg.matches("class=\"piece\"").count(), 32);
        assert!(svg.contains(r#"data-square="e4" data-piece="P""#));
        assert!(svg.contains(r#"data-square="e8" data-piece="k""#));
        assert!(svg.contains(r#"class="last-move" data-square="e7""#));
        assert!(svg.contains(r#"class="last-move" data-square="e5""#));
    }

    #[test]
    fn a_king_in_check_is_found() {
        let fen = "rnb1kbnr/pppp1ppp/8/4p3/5PPq/8/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert_eq!(check_square(fen), Some((4, 0)));
        assert_eq!(
            check_square("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            None
        );
    }

    #[test]
    fn draughts_men_and_kings_and_a_capture_path() {
        let fen = "W:W29,22,K23:B1,2";
        let svg = svg(
            Kind::DraughtsRu,
            fen,
            &Marks {
                last: vec![],
                check: None,
            },
            "x",
        );
        assert!(svg.contains(r#"data-square="a1" data-piece="w""#), "{svg}");
        assert!(svg.contains(r#"data-square="e3" data-piece="W""#), "{svg}");
        assert!(svg.contains(r#"data-square="b8" data-piece="b""#), "{svg}");
        assert_eq!(
            move_squares(Kind::DraughtsRu, "22:15:8"),
            vec![(2, 2), (4, 4), (6, 6)]
        );
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
