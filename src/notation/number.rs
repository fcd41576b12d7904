//! The one move-number rule, for every reader of the crate (movetext, the line protocol, mail
//! bodies, conditional lines, claims).
//!
//! A move number is written before a move as digits and dots: `12.` for White's move, `12...`
//! or `12…` for Black's, with the move either apart (`12. Nf3`) or glued on (`12.Nf3`,
//! `12...Nf6`); or as one to three digits alone (`12 Nf3`), which can never be a move (ICCF
//! numeric moves have four or five digits). A number has at most six digits.
//!
//! ```
//! use ccrelay::notation::number::{MoveNumber, split_move_number};
//! assert_eq!(split_move_number("12...Nf6"), (Some(MoveNumber { number: 12, black: true }), "Nf6"));
//! assert_eq!(split_move_number("12"), (Some(MoveNumber { number: 12, black: false }), ""));
//! assert_eq!(split_move_number("5254"), (None, "5254"));
//! ```

use std::fmt;

/// The most digits a move number has.
const MAX_DIGITS: usize = 6;
/// The most digits a move number written without dots has (a numeric move has four).
const MAX_BARE_DIGITS: usize = 3;

/// A move number as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveNumber {
    pub number: u32,
    /// Written with `...` or `…`: Black's move.
    pub black: bool,
}

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dots = if self.black { "..." } else { "." };
        write!(f, "{}{dots}", self.number)
    }
}

/// Splits a leading move number off a word: the number, and what follows it (empty when the
/// word is the number alone). A word that does not start with a move number comes back whole.
pub fn split_move_number(word: &str) -> (Option<MoveNumber>, &str) {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > MAX_DIGITS {
        return (None, word);
    }
    let rest = &word[digits..];
    let dots = rest.bytes().take_while(|&b| b == b'.').count();
    let (black, after) = match dots {
        // `12..` is read as PGN readers read it: White's move.
        1 | 2 => (false, &rest[dots..]),
        3 => (true, &rest[dots..]),
        0 => match rest.strip_prefix('…') {
            Some(after) => (true, after),
            None if rest.is_empty() && digits <= MAX_BARE_DIGITS => (false, rest),
            None => return (None, word),
        },
        _ => return (None, word),
    };
    match word[..digits].parse() {
        Ok(number) => (Some(MoveNumber { number, black }), after),
        Err(_) => (None, word),
    }
}

/// A word that is a move number and nothing else (`12`, `12.`, `12...`).
pub fn move_number(word: &str) -> Option<MoveNumber> {
    match split_move_number(word) {
        (Some(number), "") => Some(number),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_a_move_number() {
        let white = |number| {
            Some(MoveNumber {
                number,
                black: false,
            })
        };
        let black = |number| {
            Some(MoveNumber {
                number,
                black: true,
            })
        };
        let cases: &[(&str, Option<MoveNumber>, &str)] = &[
            ("12.", white(12), ""),
            ("12", white(12), ""),
            ("123", white(123), ""),
            ("12...", black(12), ""),
            ("12..", white(12), ""),
            ("12…", black(12), ""),
            ("12.e4", white(12), "e4"),
            ("12.Nf3", white(12), "Nf3"),
            ("12...Nf6", black(12), "Nf6"),
            ("12…Nf6", black(12), "Nf6"),
            ("100000.", white(100_000), ""),
            // Not numbers: numeric moves, too many digits, letters, four dots.
            ("5254", None, "5254"),
            ("57581", None, "57581"),
            ("1234567.", None, "1234567."),
            ("e4", None, "e4"),
            ("12....", None, "12...."),
            ("12-0", None, "12-0"),
            ("1-0", None, "1-0"),
            ("", None, ""),
        ];
        for (word, number, rest) in cases {
            assert_eq!(split_move_number(word), (*number, *rest), "{word:?}");
        }
    }

    #[test]
    fn a_number_alone() {
        assert_eq!(
            move_number("7..."),
            Some(MoveNumber {
                number: 7,
                black: true
            })
        );
        assert_eq!(move_number("7.e4"), None);
        assert_eq!(move_number("5254"), None);
    }

    #[test]
    fn display_round_trips() {
        for number in [
            MoveNumber {
                number: 3,
                black: false,
            },
            MoveNumber {
                number: 40,
                black: true,
            },
        ] {
            assert_eq!(move_number(&number.to_string()), Some(number));
        }
    }
}
