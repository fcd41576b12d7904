//! The one reader of results, for movetext, the arbiter's `ADJUDICATE` and every front end:
//! `1-0`, `0-1`, `1/2-1/2` with any dash (`1–0`, `1—0`), a colon (`1:0`, the Russian way),
//! `½-½`, `0.5-0.5`, and `*` for a game not finished.
//!
//! ```
//! use ccrelay::notation::result::Score;
//! assert_eq!("1–0".parse(), Ok(Score::WhiteWins));
//! assert_eq!("½:½".parse::<Score>().map(|s| s.pgn()), Ok("1/2-1/2"));
//! ```

use std::fmt;
use std::str::FromStr;

use shakmaty::Color;

use super::fold::fold_char;

/// A game's score as written at its end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    WhiteWins,
    BlackWins,
    Draw,
    /// `*`: not finished (or unknown).
    Unfinished,
}

/// Longer than any result: not worth folding.
const MAX_LEN: usize = 12;

impl Score {
    /// Reads a result word; `None` if it is not one.
    pub fn read(word: &str) -> Option<Score> {
        if word.len() > MAX_LEN {
            return None;
        }
        let folded: String;
        let word = if word.is_ascii() {
            word
        } else {
            // Dashes of every kind fold to `-`; a colon stays a colon.
            folded = word
                .chars()
                .map(|c| if c == ':' { c } else { fold_char(c) })
                .collect();
            &folded
        };
        Some(match word {
            "1-0" | "1:0" => Score::WhiteWins,
            "0-1" | "0:1" => Score::BlackWins,
            "1/2-1/2" | "½-½" | "½:½" | "1/2:1/2" | "0.5-0.5" | "0.5:0.5" => Score::Draw,
            "*" => Score::Unfinished,
            _ => return None,
        })
    }

    /// The winner: `Some(None)` for a draw, `None` for a game not finished.
    pub fn winner(self) -> Option<Option<Color>> {
        match self {
            Score::WhiteWins => Some(Some(Color::White)),
            Score::BlackWins => Some(Some(Color::Black)),
            Score::Draw => Some(None),
            Score::Unfinished => None,
        }
    }

    /// The score of a finished game won by `winner` (`None`: drawn).
    pub fn of_winner(winner: Option<Color>) -> Score {
        match winner {
            Some(Color::White) => Score::WhiteWins,
            Some(Color::Black) => Score::BlackWins,
            None => Score::Draw,
        }
    }

    /// PGN's form: `1-0`, `0-1`, `1/2-1/2`, `*`.
    pub fn pgn(self) -> &'static str {
        match self {
            Score::WhiteWins => "1-0",
            Score::BlackWins => "0-1",
            Score::Draw => "1/2-1/2",
            Score::Unfinished => "*",
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn())
    }
}

/// Why a word is not a result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a result: say 1-0, 0-1 or 1/2-1/2")]
pub struct NotAResult(pub String);

impl FromStr for Score {
    type Err = NotAResult;
    fn from_str(s: &str) -> Result<Score, NotAResult> {
        Score::read(s).ok_or_else(|| NotAResult(s.chars().take(MAX_LEN).collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_written_result() {
        let cases = [
            ("1-0", Some(Score::WhiteWins)),
            ("1–0", Some(Score::WhiteWins)),
            ("1—0", Some(Score::WhiteWins)),
            ("1:0", Some(Score::WhiteWins)),
            ("0-1", Some(Score::BlackWins)),
            ("0–1", Some(Score::BlackWins)),
            ("0:1", Some(Score::BlackWins)),
            ("1/2-1/2", Some(Score::Draw)),
            ("½-½", Some(Score::Draw)),
            ("½–½", Some(Score::Draw)),
            ("½:½", Some(Score::Draw)),
            ("0.5-0.5", Some(Score::Draw)),
            ("*", Some(Score::Unfinished)),
            ("2-0", None),
            ("1-1", None),
            ("=", None),
            ("", None),
            ("1/2-1/2-1/2-1/2", None),
        ];
        for (word, score) in cases {
            assert_eq!(Score::read(word), score, "{word:?}");
        }
    }

    #[test]
    fn pgn_round_trips() {
        for score in [
            Score::WhiteWins,
            Score::BlackWins,
            Score::Draw,
            Score::Unfinished,
        ] {
            assert_eq!(score.pgn().parse(), Ok(score));
        }
    }
}
