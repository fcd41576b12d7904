//! A board drawn as text for a reader: White at the bottom, files and ranks named.

use shakmaty::{Board, File, Rank, Square};

/// A text diagram of a board, White at the bottom, with files and ranks.
pub fn diagram(board: &Board) -> String {
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
