//! Conversions through the library in memory, and numbered movetext read back as bare moves.

use ccrelay::convert::{Format, Options, convert};
use ccrelay::notation::Lang;
use ccrelay::notation::movetext::Totals;

/// What one conversion printed.
pub struct Converted {
    pub out: String,
    pub err: String,
    pub totals: Totals,
}

/// Converts `input` in memory through the library.
pub fn convert_text(input: &str, to: Format, lang: Option<Lang>, fen: Option<&str>) -> Converted {
    let options = Options {
        to,
        lang,
        start: fen.map(|f| f.parse().expect("test FEN")),
    };
    let mut out = Vec::new();
    let mut err = Vec::new();
    let totals = convert(input.as_bytes(), &mut out, &mut err, &options).expect("in-memory I/O");
    Converted {
        out: String::from_utf8(out).expect("UTF-8 output"),
        err: String::from_utf8(err).expect("UTF-8 errors"),
        totals,
    }
}

/// The moves of numbered movetext, without numbers, results and draw offers:
/// `1. 5254 5755` -> `5254 5755`.
pub fn moves_only(text: &str) -> Vec<String> {
    text.split_whitespace()
        .filter(|t| !t.ends_with('.') && !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*" | "(=)"))
        .map(str::to_owned)
        .collect()
}
