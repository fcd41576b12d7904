//! The board as SVG, drawn by ccrelay itself: a chess position (pieces are simple shapes of
//! our own, see `shape`) or a Russian draughts position (men as discs, kings with a crown
//! ring), White at the bottom, coordinates on the edges, the last move's squares marked and a
//! king in check ringed. What it draws comes typed from the game ([`PieceOn`], [`FileRank`]):
//! nothing here reads a FEN or a move's code.
//!
//! Every piece is a `<g class="piece">` with `data-square` (`e4`) and `data-piece` (the FEN
//! letter for chess, `w`, `W`, `b`, `B` for a draughts man or king), so that a test (or a
//! script) reads the board square by square. The `<svg>` carries `data-fen`, and a text
//! alternative (`role="img"`, `aria-label`): the FEN and the side to move.

use std::fmt::Write as _;

use shakmaty::Color;

use crate::game::{Figure, FileRank, Kind, PieceOn};

/// One square's side in SVG units.
const SQ: u32 = 45;
/// The margin holding the coordinates.
const EDGE: u32 = 14;

/// A position as the board draws it: its kind, its FEN (for `data-fen`), its pieces.
pub struct Drawn<'a> {
    pub kind: Kind,
    pub fen: &'a str,
    pub pieces: &'a [PieceOn],
}

/// What the board shows besides the pieces.
pub struct Marks {
    /// The last move's squares (from, to, and a draughts capture's stops).
    pub last: Vec<FileRank>,
    /// The square of a king in check.
    pub check: Option<FileRank>,
}

/// A piece's `data-piece`: the FEN letter for chess (upper case for White), `w`, `W`, `b`,
/// `B` for a draughts man or king.
fn letter(piece: &PieceOn) -> char {
    let white = piece.color == Color::White;
    match piece.figure {
        Figure::Chess(role) if white => role.upper_char(),
        Figure::Chess(role) => role.char(),
        Figure::DraughtsMan if white => 'w',
        Figure::DraughtsMan => 'b',
        Figure::DraughtsKing if white => 'W',
        Figure::DraughtsKing => 'B',
    }
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
pub fn svg(drawn: &Drawn<'_>, marks: &Marks, label: &str) -> String {
    svg_from(drawn, marks, label, Color::White)
}

/// The board seen from `bottom`'s side (a player's own page shows it from theirs). Every
/// square is a `<rect class="sq">` with its `data-square`, for a script moving pieces.
pub fn svg_from(drawn: &Drawn<'_>, marks: &Marks, label: &str, bottom: Color) -> String {
    let Drawn { kind, fen, pieces } = *drawn;
    let size = SQ * 8 + 2 * EDGE;
    let flip = bottom == Color::Black;
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
            let square = FileRank { file, rank };
            let dark = (file + rank) % 2 == 0;
            let fill = if dark { "#b58863" } else { "#f0d9b5" };
            let _ = write!(
                out,
                r#"<rect class="sq" data-square="{}" x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{fill}"/>"#,
                square.name()
            );
            if marks.last.contains(&square) {
                let _ = write!(
                    out,
                    r##"<rect class="last-move" data-square="{}" x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="#e8d33f" fill-opacity="0.45"/>"##,
                    square.name()
                );
            }
            if marks.check == Some(square) {
                let _ = write!(
                    out,
                    r##"<circle class="check" data-square="{}" cx="{}" cy="{}" r="21" fill="#e03030" fill-opacity="0.6"/>"##,
                    square.name(),
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
    for on in pieces {
        let (x, y) = xy(on.at.file, on.at.rank);
        let piece = letter(on);
        let white = on.color == Color::White;
        let (fill, stroke) = if white {
            ("#fafafa", "#111")
        } else {
            ("#262626", "#000")
        };
        let _ = write!(
            out,
            r#"<g class="piece" data-square="{}" data-piece="{piece}" transform="translate({x} {y})">"#,
            on.at.name()
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
    use crate::game::board;

    fn at(name: &str) -> FileRank {
        let b = name.as_bytes();
        FileRank {
            file: b[0] - b'a',
            rank: b[1] - b'1',
        }
    }

    /// The board of `kind` at `fen`, drawn with `marks`.
    fn drawn(kind: Kind, fen: &str, marks: &Marks) -> String {
        let pieces = board(kind, Some(fen)).expect("a position").pieces();
        let drawn = Drawn {
            kind,
            fen,
            pieces: &pieces,
        };
        svg(&drawn, marks, "label")
    }

    #[test]
    fn every_piece_is_drawn_on_its_square_and_the_last_move_marked() {
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        let marks = Marks {
            last: vec![at("e7"), at("e5")],
            check: None,
        };
        let svg = drawn(Kind::Chess, fen, &marks);
        assert_eq!(svg.matches("class=\"piece\"").count(), 32);
        assert!(svg.contains(r#"data-square="e4" data-piece="P""#));
        assert!(svg.contains(r#"data-square="e8" data-piece="k""#));
        assert!(svg.contains(r#"class="last-move" data-square="e7""#));
        assert!(svg.contains(r#"class="last-move" data-square="e5""#));
        assert_eq!(svg.matches("class=\"last-move\"").count(), 2);
        assert!(svg.contains(&format!(r#"data-fen="{fen}""#)));
        assert!(!svg.contains("class=\"check\""));
    }

    #[test]
    fn a_king_in_check_is_ringed() {
        let fen = "rnb1kbnr/pppp1ppp/8/4p3/5PPq/8/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        let marks = Marks {
            last: vec![],
            check: Some(at("e1")),
        };
        let svg = drawn(Kind::Chess, fen, &marks);
        assert!(svg.contains(r#"class="check" data-square="e1""#), "{svg}");
        assert_eq!(svg.matches("class=\"check\"").count(), 1);
    }

    #[test]
    fn draughts_men_and_kings_and_a_capture_path() {
        let marks = Marks {
            last: vec![at("c3"), at("e5"), at("g7")],
            check: None,
        };
        let svg = drawn(Kind::DraughtsRu, "W:W29,22,K23:B1,2", &marks);
        assert!(svg.contains(r#"data-square="a1" data-piece="w""#), "{svg}");
        assert!(svg.contains(r#"data-square="e3" data-piece="W""#), "{svg}");
        assert!(svg.contains(r#"data-square="b8" data-piece="b""#), "{svg}");
        for square in ["c3", "e5", "g7"] {
            let mark = format!(r#"class="last-move" data-square="{square}""#);
            assert!(svg.contains(&mark), "{square}: {svg}");
        }
    }

    #[test]
    fn a_piece_is_named_by_its_fen_letter_or_draughts_letter() {
        let on = |color, figure| PieceOn {
            at: at("a1"),
            color,
            figure,
        };
        let (white, black) = (Color::White, Color::Black);
        let knight = Figure::Chess(shakmaty::Role::Knight);
        assert_eq!(letter(&on(white, knight)), 'N');
        assert_eq!(letter(&on(black, knight)), 'n');
        assert_eq!(letter(&on(white, Figure::DraughtsMan)), 'w');
        assert_eq!(letter(&on(white, Figure::DraughtsKing)), 'W');
        assert_eq!(letter(&on(black, Figure::DraughtsMan)), 'b');
        assert_eq!(letter(&on(black, Figure::DraughtsKing)), 'B');
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
