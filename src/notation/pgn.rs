//! Writing PGN: tag pairs, the Seven Tag Roster, and movetext wrapped to 80 columns.
//!
//! ```
//! use ccrelay::notation::pgn;
//! let mut out = Vec::new();
//! pgn::write_tag(&mut out, "White", "Savenkov, \"I.\"").unwrap();
//! assert_eq!(out, b"[White \"Savenkov, \\\"I.\\\"\"]\n");
//! ```

use std::io::{self, Write};

/// The Seven Tag Roster, in the order PGN writes it, with the value for "unknown".
pub const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Writes `[Name "value"]` with `\` and `"` escaped and line breaks made spaces.
pub fn write_tag<W: Write>(out: &mut W, name: &str, value: &str) -> io::Result<()> {
    let mut escaped = String::with_capacity(value.len() + 2);
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                escaped.push('\\');
                escaped.push(c);
            }
            '\n' | '\r' | '\t' => escaped.push(' '),
            c => escaped.push(c),
        }
    }
    writeln!(out, "[{name} \"{escaped}\"]")
}

/// Writes the tags of a game: the Seven Tag Roster first (from `tags`, or its unknown values;
/// `Result` from `result` when the tags have none), then every other tag in input order.
pub fn write_tags<W: Write>(
    out: &mut W,
    tags: &[(String, String)],
    extra: &[(&str, &str)],
) -> io::Result<()> {
    let find = |name: &str| {
        tags.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .or_else(|| extra.iter().find(|(n, _)| *n == name).map(|(_, v)| *v))
    };
    for (name, unknown) in SEVEN_TAG_ROSTER {
        write_tag(out, name, find(name).unwrap_or(unknown))?;
    }
    let roster = |name: &str| SEVEN_TAG_ROSTER.iter().any(|(n, _)| *n == name);
    for (name, value) in tags {
        if !roster(name) {
            write_tag(out, name, value)?;
        }
    }
    for (name, value) in extra {
        if !roster(name) && !tags.iter().any(|(n, _)| n == name) {
            write_tag(out, name, value)?;
        }
    }
    Ok(())
}

/// Writes space-separated tokens, breaking lines before they pass [`LineWriter::WIDTH`].
#[derive(Debug, Default)]
pub struct LineWriter {
    column: usize,
}

impl LineWriter {
    pub const WIDTH: usize = 80;

    /// Writes one token (a move number, a move, a mark, a result).
    pub fn token<W: Write>(&mut self, out: &mut W, token: &[u8]) -> io::Result<()> {
        let width = std::str::from_utf8(token).map_or(token.len(), |s| s.chars().count());
        if self.column > 0 {
            if self.column + 1 + width > Self::WIDTH {
                out.write_all(b"\n")?;
                self.column = 0;
            } else {
                out.write_all(b" ")?;
                self.column += 1;
            }
        }
        out.write_all(token)?;
        self.column += width;
        Ok(())
    }

    /// Ends the paragraph's last line.
    pub fn finish<W: Write>(&mut self, out: &mut W) -> io::Result<()> {
        if self.column > 0 {
            out.write_all(b"\n")?;
        }
        self.column = 0;
        Ok(())
    }
}
