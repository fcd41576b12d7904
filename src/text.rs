//! The one check for every text a person writes: a message to the opponent, an adjudication's
//! reason, a round's or a player's name. Every front end that takes such a text (the line
//! protocol and the serial terminal, a mail, XFCC's `myMessage`, a link's proposal, the
//! configuration) reads it through [`check`], and the relay checks again every text a command
//! carries before it applies anything ([`crate::command::Command::check_texts`]), so no path
//! skips it. Pure, and below every layer (it imports nothing of the crate): the command layer
//! offers it as `command::text`, and the configuration checks its names with it.
//!
//! Refused, each with its reason:
//!
//! - more characters than the text's kind allows ([`TextKind::max_chars`]), or none at all;
//! - control characters (C0, DEL, C1: a terminal's escape sequences, a line break that would
//!   start a forged line);
//! - the line and paragraph separators U+2028 and U+2029;
//! - bidirectional controls: the embeddings, overrides and isolates U+202A–U+202E and
//!   U+2066–U+2069, and the marks U+200E, U+200F, U+061C (they make a text read in another
//!   order than it is stored: `"1-0"` shown as `"0-1"`);
//! - invisible characters: U+200B (zero width space), U+2060–U+2064, U+206A–U+206F, U+FEFF,
//!   U+00AD (soft hyphen), U+180E, U+034F, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0,
//!   U+2800 (a blank Braille cell), U+FFF9–U+FFFB, the tag characters U+E0000–U+E007F, the
//!   musical format characters U+1D173–U+1D17A and the non-characters U+FFFE, U+FFFF.
//!
//! **ZWNJ and ZWJ** (U+200C, U+200D) are kept where a language needs them: between two
//! characters that are neither spaces nor themselves refused, as in Persian (`می‌خواهم`), the
//! Indic scripts, and emoji sequences. At the start or end of a text, next to a space or next to
//! another joiner they do nothing a reader can see, and are refused like U+200B.
//!
//! Texts that did not come through the check (a record written before it existed, a linked
//! node's record, the words around a move in a mail) are made safe for a reader with
//! [`scrub`]; texts written into logs and exports are escaped with [`escaped`], [`quoted`] and
//! [`Logged`], which show every refused character as `\u{…}`, so that no text can pose as
//! structure (a line of its own, a field's end).

use std::fmt::{self, Write as _};

/// The most characters in a message between players.
pub const MAX_MESSAGE_CHARS: usize = 500;
/// The most characters in a reason (an adjudication's, a refusal's).
pub const MAX_REASON_CHARS: usize = 500;
/// The most characters in a name (a player's, an event's, a site's, a round's).
pub const MAX_NAME_CHARS: usize = 100;
/// The most characters in a mail address (RFC 5321's limit on a path, less its brackets).
pub const MAX_ADDRESS_CHARS: usize = 254;
/// The most characters of a text a log line shows (see [`Logged`]).
pub const MAX_LOGGED_CHARS: usize = 80;

/// What a text is: it decides the length allowed and how a refusal names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TextKind {
    /// A message to the opponent (`MSG`, XFCC's `myMessage`, the words around a mail's move).
    Message,
    /// An adjudication's reason, a refusal's.
    Reason,
    /// A name: a player's, an event's, a site's, a round's, a team's.
    Name,
    /// A mail address.
    Address,
}

impl TextKind {
    /// The most characters allowed.
    pub fn max_chars(self) -> usize {
        match self {
            TextKind::Message => MAX_MESSAGE_CHARS,
            TextKind::Reason => MAX_REASON_CHARS,
            TextKind::Name => MAX_NAME_CHARS,
            TextKind::Address => MAX_ADDRESS_CHARS,
        }
    }

    fn subject(self) -> &'static str {
        match self {
            TextKind::Message => "a message",
            TextKind::Reason => "a reason",
            TextKind::Name => "a name",
            TextKind::Address => "an address",
        }
    }
}

/// Why a character is refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    Control,
    LineSeparator,
    Bidi,
    Invisible,
    /// ZWNJ or ZWJ where no language needs it.
    StrayJoiner,
}

/// What is wrong with a text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    #[error("{} is empty", .0.subject())]
    Empty(TextKind),
    #[error("{} has at most {} characters", .0.subject(), .0.max_chars())]
    TooLong(TextKind),
    /// The first refused character, and why.
    #[error("{}", refusal(*.0, *.1, *.2))]
    Character(TextKind, char, Refused),
}

fn refusal(kind: TextKind, c: char, why: Refused) -> String {
    let subject = kind.subject();
    let code = c as u32;
    match why {
        Refused::Control => format!("{subject} may not hold control characters"),
        Refused::LineSeparator => {
            format!("{subject} may not hold line or paragraph separators (U+{code:04X})")
        }
        Refused::Bidi => format!(
            "{subject} may not hold characters that reorder text (bidirectional control U+{code:04X})"
        ),
        Refused::Invisible => {
            format!("{subject} may not hold invisible characters (U+{code:04X})")
        }
        Refused::StrayJoiner => format!(
            "{subject} may hold a zero-width joiner or non-joiner (U+{code:04X}) only between two letters"
        ),
    }
}

/// Why `c` is refused wherever it stands, if it is; the joiners are judged by their place
/// (`joiner_fits`).
pub fn refused_char(c: char) -> Option<Refused> {
    if c.is_control() {
        return Some(Refused::Control);
    }
    match c {
        '\u{2028}' | '\u{2029}' => Some(Refused::LineSeparator),
        '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}'
        | '\u{200E}'
        | '\u{200F}'
        | '\u{061C}' => Some(Refused::Bidi),
        '\u{200B}'
        | '\u{2060}'..='\u{2064}'
        | '\u{206A}'..='\u{206F}'
        | '\u{FEFF}'
        | '\u{00AD}'
        | '\u{180E}'
        | '\u{034F}'
        | '\u{115F}'
        | '\u{1160}'
        | '\u{3164}'
        | '\u{FFA0}'
        | '\u{2800}'
        | '\u{FFF9}'..='\u{FFFB}'
        | '\u{FFFE}'
        | '\u{FFFF}'
        | '\u{E0000}'..='\u{E007F}'
        | '\u{1D173}'..='\u{1D17A}' => Some(Refused::Invisible),
        _ => None,
    }
}

fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// Whether a joiner between `before` and `after` joins two characters a reader sees.
fn joiner_fits(before: Option<char>, after: Option<char>) -> bool {
    let visible = |c: Option<char>| {
        c.is_some_and(|c| !c.is_whitespace() && !is_joiner(c) && refused_char(c).is_none())
    };
    visible(before) && visible(after)
}

/// The characters of `text` with why each refused one is refused (`None` for the others).
fn verdicts(text: &str) -> impl Iterator<Item = (char, Option<Refused>)> + '_ {
    let mut before: Option<char> = None;
    let mut chars = text.chars().peekable();
    std::iter::from_fn(move || {
        let c = chars.next()?;
        let verdict = if is_joiner(c) {
            (!joiner_fits(before, chars.peek().copied())).then_some(Refused::StrayJoiner)
        } else {
            refused_char(c)
        };
        before = Some(c);
        Some((c, verdict))
    })
}

/// Checks a text a person wrote: not empty, not longer than its kind allows, and no character
/// the module refuses. The text is taken as it is (trimming is the reader's business).
pub fn check(text: &str, kind: TextKind) -> Result<(), TextError> {
    if text.is_empty() {
        return Err(TextError::Empty(kind));
    }
    if text.chars().nth(kind.max_chars()).is_some() {
        return Err(TextError::TooLong(kind));
    }
    match verdicts(text).find_map(|(c, v)| v.map(|v| (c, v))) {
        Some((c, why)) => Err(TextError::Character(kind, c, why)),
        None => Ok(()),
    }
}

/// `text` made fit for a reader when it could not be refused (it is on record already, or it
/// is the loose words around a mail's move): line breaks and other controls become spaces,
/// the characters that reorder or hide text are left out, runs of spaces are kept as written,
/// and the whole is trimmed and cut to `max_chars` (a cut text ends in `…`). What comes out
/// passes [`check`] for any kind that allows `max_chars`, unless it is empty.
pub fn scrub(text: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max_chars.saturating_mul(4)));
    for (c, verdict) in verdicts(text) {
        match verdict {
            None => out.push(c),
            Some(Refused::Control | Refused::LineSeparator) => out.push(' '),
            Some(_) => {}
        }
    }
    // A joiner kept had a character a reader sees on each side, and those are kept too: what
    // is left out or turned into a space never strands one.
    let out = out.trim();
    if out.chars().nth(max_chars).is_some() {
        let mut cut: String = out.chars().take(max_chars.saturating_sub(1)).collect();
        while cut.ends_with(|c: char| c.is_whitespace() || is_joiner(c)) {
            cut.pop();
        }
        cut.push('…');
        return cut;
    }
    out.to_owned()
}

/// A text mended by [`mend`], and whether mending changed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mended {
    /// The text as its reader gets it: passes [`check`] for the kind it was mended for, or is
    /// empty when nothing readable was left.
    pub text: String,
    /// Whether it differs from the text as written (trimmed): a line break, a character the
    /// check refuses, or a cut: the record then keeps the words as received beside the words
    /// delivered.
    pub changed: bool,
}

/// A text that rides with something its writer must not lose for it (a message sent with a
/// move, from Scid's multi-line box or a web form's), made to pass [`check`] for `kind`
/// rather than refused, as a mail client mends what it cannot show: each line break (LF, CR,
/// CRLF, NEL, U+2028, U+2029) with the spaces around it becomes one visible ` / ` and blank
/// lines go; every other character the check refuses is mended as [`scrub`] mends it
/// (controls become spaces, what reorders or hides text is left out); a text longer than
/// the kind allows is cut and ends in `…`, the mark that it was cut. A text that passes the
/// check comes back as written, trimmed, `changed` false.
///
/// ```
/// use ccrelay::text::{TextKind, check, mend};
///
/// let mended = mend("Thanks for the game,\r\nGood luck\u{202E}!", TextKind::Message);
/// assert_eq!(mended.text, "Thanks for the game, / Good luck!");
/// assert!(mended.changed);
/// assert_eq!(check(&mended.text, TextKind::Message), Ok(()));
/// assert!(!mend("Удачи!", TextKind::Message).changed);
/// ```
pub fn mend(text: &str, kind: TextKind) -> Mended {
    let trimmed = text.trim();
    if check(trimmed, kind).is_ok() {
        return Mended {
            text: trimmed.to_owned(),
            changed: false,
        };
    }
    let is_break = |c: char| matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}');
    let lines: Vec<String> = trimmed
        .split(is_break)
        .map(|line| scrub(line, usize::MAX))
        .filter(|line| !line.is_empty())
        .collect();
    let joined = lines.join(" / ");
    let max = kind.max_chars();
    let text = if joined.chars().nth(max).is_some() {
        let mut cut: String = joined.chars().take(max.saturating_sub(1)).collect();
        while cut.ends_with(|c: char| c.is_whitespace() || c == '/' || is_joiner(c)) {
            cut.pop();
        }
        cut.push('…');
        cut
    } else {
        joined
    };
    Mended {
        changed: text != trimmed,
        text,
    }
}

/// `text` as it may be written into a line of an export or a log: every character [`check`]
/// refuses, the backslash and the double quote are escaped (`\n`, `\r`, `\t`, `\\`, `\"`,
/// `\u{202e}`), so the text never makes a line of its own, never ends a quoted field, and
/// never reorders what follows it. Everything else is kept as written.
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    escape_into(&mut out, text);
    out
}

/// [`escaped`] between double quotes: a field that ends only where it says.
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    escape_into(&mut out, text);
    out.push('"');
    out
}

fn escape_into(out: &mut String, text: &str) {
    for (c, verdict) in verdicts(text) {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if verdict.is_some() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
}

/// A text for a log field: escaped as [`escaped`] does and cut to [`MAX_LOGGED_CHARS`]
/// characters (the cut is said, with the whole length), so a name or an address sent by
/// anyone can neither forge a log line nor fill the log. `tracing::warn!(player =
/// %Logged(&name), ...)`.
#[derive(Copy, Clone)]
pub struct Logged<'a>(pub &'a str);

impl fmt::Display for Logged<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.0.chars().count();
        let shown: String = if total > MAX_LOGGED_CHARS {
            self.0.chars().take(MAX_LOGGED_CHARS).collect()
        } else {
            self.0.to_owned()
        };
        f.write_str(&escaped(&shown))?;
        if total > MAX_LOGGED_CHARS {
            write!(f, "…({total} characters)")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Logged<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{self}\"")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_texts_in_any_script_pass() {
        for text in [
            "Good luck, and thanks!",
            "Удачи! <b> & co",
            "Спасибо за партию 😀",
            "שלום", // Hebrew, right to left by itself: no control needed
            "مرحبا بك",
            "می‌خواهم",                // Persian, ZWNJ between letters
            "क्‍ष",                     // Devanagari, ZWJ between letters
            "👨\u{200D}👩\u{200D}👧", // an emoji family
            "no\u{00A0}break",
            "x",
        ] {
            assert_eq!(check(text, TextKind::Message), Ok(()), "{text:?}");
        }
    }

    #[test]
    fn each_hostile_character_is_refused_with_its_reason() {
        let cases = [
            ("\u{1b}[2K\u{1b}[1G* 99 RESULT p1 1-0", "control characters"),
            ("line\nbreak", "control characters"),
            ("tab\there", "control characters"),
            ("del\u{7f}", "control characters"),
            ("c1\u{85}", "control characters"),
            ("a\u{2028}b", "separators (U+2028)"),
            ("a\u{2029}b", "separators (U+2029)"),
            (
                "1-0 \u{202E}0-1",
                "reorder text (bidirectional control U+202E)",
            ),
            ("a\u{202A}b", "U+202A"),
            ("a\u{2066}b", "U+2066"),
            ("a\u{2069}b", "U+2069"),
            ("a\u{200E}b", "U+200E"),
            ("a\u{200F}b", "U+200F"),
            ("a\u{061C}b", "U+061C"),
            ("ad\u{200B}min", "invisible characters (U+200B)"),
            ("a\u{FEFF}b", "U+FEFF"),
            ("a\u{2060}b", "U+2060"),
            ("a\u{00AD}b", "U+00AD"),
            ("a\u{E0041}b", "U+E0041"),
            ("a\u{3164}b", "U+3164"),
            ("\u{200D}a", "only between two letters"),
            ("a\u{200C}", "only between two letters"),
            ("a \u{200D}b", "only between two letters"),
            ("a\u{200D}\u{200D}b", "only between two letters"),
        ];
        for (text, says) in cases {
            let e = check(text, TextKind::Message).unwrap_err().to_string();
            assert!(
                e.starts_with("a message may not hold") || e.contains("a message may hold"),
                "{text:?}: {e}"
            );
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }

    #[test]
    fn length_is_counted_in_characters_per_kind() {
        let m = "ж".repeat(MAX_MESSAGE_CHARS);
        assert_eq!(check(&m, TextKind::Message), Ok(()));
        assert_eq!(
            check(&format!("{m}ж"), TextKind::Message),
            Err(TextError::TooLong(TextKind::Message))
        );
        let name = "n".repeat(MAX_NAME_CHARS + 1);
        assert_eq!(
            check(&name, TextKind::Name).unwrap_err().to_string(),
            "a name has at most 100 characters"
        );
        assert_eq!(
            check("", TextKind::Reason).unwrap_err().to_string(),
            "a reason is empty"
        );
        // 60,000 characters: refused, not copied.
        assert!(check(&"x".repeat(60_000), TextKind::Message).is_err());
    }

    #[test]
    fn scrubbed_text_passes_the_check() {
        let hostile = "\u{1b}[2K ok\u{202E}evil\u{200B}\nnext \u{200D} line\u{2028}end";
        let clean = scrub(hostile, MAX_MESSAGE_CHARS);
        assert_eq!(clean, "[2K okevil next  line end");
        assert_eq!(check(&clean, TextKind::Message), Ok(()));
        // A joiner stranded by what was left out goes too.
        assert_eq!(scrub("a\u{200D}\u{200B}", 10), "a");
        let long = scrub(&"x ".repeat(1000), 20);
        assert_eq!(long.chars().count(), 20);
        assert!(long.ends_with('…'));
        assert_eq!(check(&long, TextKind::Name), Ok(()));
        assert_eq!(scrub("\u{202E}\n", 10), "");
    }

    #[test]
    fn a_mended_text_passes_the_check_and_keeps_its_lines_visible() {
        let scid = mend("Thanks for the game,\nGood luck", TextKind::Message);
        assert_eq!(scid.text, "Thanks for the game, / Good luck");
        assert!(scid.changed);
        // A web form's CRLF, blank lines and a line of nothing readable.
        let form = mend(
            "a\r\n\r\n  b \u{2028}\u{202E}\u{200B}\u{2029}c\u{85}d",
            TextKind::Message,
        );
        assert_eq!(form.text, "a / b / c / d");
        // The forgery from the report cannot start a line of its own.
        let forged = mend("ok\u{1b}[2K\u{1b}[1G* 99 RESULT p1 1-0", TextKind::Message);
        assert_eq!(check(&forged.text, TextKind::Message), Ok(()));
        assert!(!forged.text.contains('\u{1b}'));
        // Cut to the kind's length, with the mark that it was cut.
        let long = mend(&"слово ".repeat(400), TextKind::Message);
        assert_eq!(long.text.chars().count(), MAX_MESSAGE_CHARS);
        assert!(long.text.ends_with('…') && long.changed);
        assert_eq!(check(&long.text, TextKind::Message), Ok(()));
        // A cut never ends on a line's separator.
        let lines = mend(&format!("{}\nb", "a".repeat(498)), TextKind::Message);
        assert_eq!(lines.text, format!("{}…", "a".repeat(498)));
        // Nothing readable left: empty.
        assert_eq!(mend("\u{202E}\n\u{200B}", TextKind::Message).text, "");
        // A text that passes comes back as written, trimmed.
        let fine = mend("  می‌خواهم 👨\u{200D}👩  ", TextKind::Message);
        assert_eq!(
            (fine.text.as_str(), fine.changed),
            ("می‌خواهم 👨\u{200D}👩", false)
        );
    }

    #[test]
    fn escaped_text_is_one_line_and_shows_what_was_hidden() {
        let forged = "hi\n#46 2026-01-03T00:00:00Z boris tcp resign \"RESIGN p1\" = 1-0";
        let e = escaped(forged);
        assert!(!e.contains('\n'));
        assert_eq!(
            e,
            "hi\\n#46 2026-01-03T00:00:00Z boris tcp resign \\\"RESIGN p1\\\" = 1-0"
        );
        assert_eq!(quoted("a\u{202E}b\\"), "\"a\\u{202e}b\\\\\"");
        assert_eq!(escaped("\u{1b}[8m"), "\\u{1b}[8m");
        // What a language needs stays as written.
        assert_eq!(escaped("می‌خواهم"), "می‌خواهم");
    }

    #[test]
    fn a_logged_field_is_escaped_and_cut() {
        let long = format!("evil\n{}", "x".repeat(60_000));
        let shown = Logged(&long).to_string();
        assert!(shown.starts_with("evil\\nxxx"), "{shown}");
        assert!(shown.ends_with("…(60005 characters)"), "{shown}");
        assert!(shown.chars().count() < 120, "{shown}");
        assert_eq!(Logged("alice").to_string(), "alice");
        assert_eq!(format!("{:?}", Logged("a\"b")), "\"a\\\"b\"");
    }
}
