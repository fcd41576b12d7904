//! A move as its reader reads it: in their notation, numbered, followed by its ICCF numeric
//! form unless that is what they read already (`12... Nf6 (7866)`, `12... 7866`).

use super::Audience;
use crate::journal::notice::{MoveData, Side};

/// A move in the reader's notation followed by its ICCF numeric form, unless that is the same.
pub fn with_numeric(text: &str, iccf: &str) -> String {
    let mut out = String::with_capacity(text.len() + iccf.len() + 3);
    push_with_numeric(&mut out, text, iccf);
    out
}

/// Appends [`with_numeric`]'s text to `out`.
pub fn push_with_numeric(out: &mut String, text: &str, iccf: &str) {
    out.push_str(text);
    if text != iccf {
        out.push_str(" (");
        out.push_str(iccf);
        out.push(')');
    }
}

fn dots(side: Side) -> &'static str {
    match side {
        Side::White => ".",
        Side::Black => "...",
    }
}

/// A move as `reader` writes it, numbered, with its ICCF numeric form if that differs:
/// `12... Nf6 (7866)`, `12... 7866`.
pub(in crate::relay) fn numbered(mv: &MoveData, reader: &Audience) -> String {
    let mut text = String::with_capacity(32);
    push_numbered(&mut text, mv, reader);
    text
}

/// Appends [`numbered`]'s text to `out`, without the formatter (a move's push writes it).
pub(super) fn push_numbered(out: &mut String, mv: &MoveData, reader: &Audience) {
    let text = mv.write(reader.notation);
    let text = text.as_deref().unwrap_or(&mv.iccf);
    out.push_str(itoa::Buffer::new().format(mv.number));
    out.push_str(dots(mv.side));
    out.push(' ');
    push_with_numeric(out, text, &mv.iccf);
}
