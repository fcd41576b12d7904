//! The words of a command line as the grammar reads them: one at a time, a value in double
//! quotes, the rest of the line as written; and the errors every reader of them gives.

use super::{CommandError, CommandErrorKind};

pub(super) fn missing(what: &str) -> CommandError {
    CommandError::new(CommandErrorKind::Missing, format!("missing {what}"))
}

pub(super) fn bad(message: String) -> CommandError {
    CommandError::new(CommandErrorKind::BadValue, message)
}

/// The words of a line, with the rest of the line at hand for the commands that take free
/// text (a message, an adjudication's reason, a FEN).
pub(super) struct Words<'a> {
    line: &'a str,
    words: Vec<&'a str>,
    next: usize,
    /// The game the context names (a mail's subject): commands then take no game word.
    game: Option<&'a str>,
}

impl<'a> Words<'a> {
    pub(super) fn new(line: &'a str, game: Option<&'a str>) -> Words<'a> {
        Words {
            line,
            words: line.split_whitespace().collect(),
            next: 0,
            game,
        }
    }

    pub(super) fn word(&mut self) -> Option<&'a str> {
        let word = self.words.get(self.next).copied();
        self.next += usize::from(word.is_some());
        word
    }

    /// Takes the next word if it is `keyword` (in any case); takes nothing otherwise.
    pub(super) fn keyword(&mut self, keyword: &str) -> bool {
        let found = self
            .words
            .get(self.next)
            .is_some_and(|w| w.eq_ignore_ascii_case(keyword));
        self.next += usize::from(found);
        found
    }

    pub(super) fn arg(&mut self, what: &str) -> Result<String, CommandError> {
        self.word().map(str::to_owned).ok_or_else(|| missing(what))
    }

    pub(super) fn game(&mut self) -> Result<String, CommandError> {
        match self.game {
            Some(game) => Ok(game.to_owned()),
            None => self.arg("game id"),
        }
    }

    /// A value: one word, or several in double quotes (`"Club Championship 2026"`, spacing
    /// kept, no quote inside).
    pub(super) fn value(&mut self, what: &str) -> Result<String, CommandError> {
        let Some(first) = self.words.get(self.next).copied() else {
            return Err(missing(what));
        };
        if !first.starts_with('"') {
            self.next += 1;
            return Ok(first.to_owned());
        }
        // Every word is a slice of the line: the quoted text runs from just after the quote
        // to the next quote in the line.
        let at = first.as_ptr() as usize - self.line.as_ptr() as usize + 1;
        let Some(len) = self.line[at..].find('"') else {
            return Err(bad(format!("{what}: no closing quote")));
        };
        let end = at + len;
        let text = &self.line[at..end];
        if self.line[end + 1..]
            .chars()
            .next()
            .is_some_and(|c| !c.is_whitespace())
        {
            return Err(bad(format!(
                "{what}: a space must follow the closing quote"
            )));
        }
        // Skip every word that starts inside the quotes (the last one ends with the quote).
        while let Some(w) = self.words.get(self.next) {
            let start = w.as_ptr() as usize - self.line.as_ptr() as usize;
            if start > end {
                break;
            }
            self.next += 1;
        }
        if text.trim().is_empty() {
            return Err(bad(format!("{what}: empty")));
        }
        Ok(text.to_owned())
    }

    /// The words not read yet.
    pub(super) fn rest(&mut self) -> &[&'a str] {
        let rest = &self.words[self.next..];
        self.next = self.words.len();
        rest
    }

    /// The rest of the line as written (spacing kept), trimmed.
    pub(super) fn rest_text(&mut self) -> &'a str {
        let Some(first) = self.words.get(self.next) else {
            return "";
        };
        // Every word is a slice of the line: its offset is where the rest begins.
        let at = first.as_ptr() as usize - self.line.as_ptr() as usize;
        self.next = self.words.len();
        self.line[at..].trim_end()
    }

    pub(super) fn done(&mut self) -> Result<(), CommandError> {
        match self.word() {
            None => Ok(()),
            Some(extra) => Err(CommandError::new(
                CommandErrorKind::Unexpected,
                format!("unexpected {extra:?}"),
            )),
        }
    }
}
