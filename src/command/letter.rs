//! A letter's words: the command a letter's free text carries, for a game the letter already
//! names (a mail's subject or thread). A letter is not a command line: players write
//! phrases ("I accept the draw", «Предлагаю ничью», «Здаюся»), a move on a line of its own
//! among greetings, the repeat of the opponent's move on a line below, a verb of the grammar
//! without the game (`Если 12... Кf6 то 13. Сg5`). These are the forms only letters need;
//! every command they name is read by the one grammar ([`Command::parse_in`],
//! [`MoveLine::parse`]), so a letter and a command line never read a move differently.
//!
//! ```
//! use ccrelay::command::{Command, letter};
//!
//! let found = letter::read("Hi Boris,\n\n12. Nf3\nrepeat: 11... e5\n\nAlice", "g7").unwrap();
//! assert_eq!(found.command, Command::parse("MOVE g7 12. Nf3 REPEAT e5").unwrap());
//! assert_eq!(found.message.as_deref(), Some("Hi Boris, Alice"));
//! assert_eq!(
//!     letter::read("Пропоную нічию.", "g7").unwrap().command,
//!     Command::parse("DRAW g7 OFFER").unwrap()
//! );
//! ```

use super::text;
use super::{Command, CommandError, MAX_MESSAGE_CHARS, MoveLine};
use crate::notation::number::{move_number, split_move_number};

/// What a letter's text asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Letter {
    pub command: Command,
    /// The line the command was read from, for the record.
    pub line: String,
    /// The player's other words (a greeting, a comment on the game): a message for the
    /// opponent, delivered with the command.
    pub message: Option<String>,
}

/// Why no command was found in a letter's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LetterError {
    #[error(
        "no move found: write the move on a line of its own, e.g. \"12. Nf3\" or \"12. 7163\" (see the examples in the relay's mail)"
    )]
    NoMove,
    #[error("{0}")]
    Bad(String),
}

/// A phrase's command, for a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Phrase {
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Resign,
    Show,
}

impl Phrase {
    fn command(self, game: &str) -> Command {
        let game = game.to_owned();
        match self {
            Phrase::OfferDraw => Command::OfferDraw { game },
            Phrase::AcceptDraw => Command::AcceptDraw { game },
            Phrase::DeclineDraw => Command::DeclineDraw { game },
            Phrase::Resign => Command::Resign { game },
            Phrase::Show => Command::Show { game },
        }
    }
}

/// Phrases players use, English, Russian and Ukrainian, lower-cased. A line is a phrase only
/// when it is the whole line, so "decline the draw" is never read as "draw?".
const PHRASES: &[(&str, Phrase)] = &[
    ("i accept the draw offer", Phrase::AcceptDraw),
    ("i accept the draw", Phrase::AcceptDraw),
    ("i accept your draw offer", Phrase::AcceptDraw),
    ("i decline the draw offer", Phrase::DeclineDraw),
    ("i decline the draw", Phrase::DeclineDraw),
    ("i decline your draw offer", Phrase::DeclineDraw),
    ("draw accepted", Phrase::AcceptDraw),
    ("accept draw", Phrase::AcceptDraw),
    ("accept the draw", Phrase::AcceptDraw),
    ("draw declined", Phrase::DeclineDraw),
    ("decline draw", Phrase::DeclineDraw),
    ("decline the draw", Phrase::DeclineDraw),
    ("i offer a draw", Phrase::OfferDraw),
    ("i offer the draw", Phrase::OfferDraw),
    ("offer draw", Phrase::OfferDraw),
    ("offer a draw", Phrase::OfferDraw),
    ("draw offer", Phrase::OfferDraw),
    ("draw?", Phrase::OfferDraw),
    ("i resign", Phrase::Resign),
    ("resign", Phrase::Resign),
    ("resigns", Phrase::Resign),
    ("show", Phrase::Show),
    ("принимаю предложение ничьей", Phrase::AcceptDraw),
    ("принимаю ничью", Phrase::AcceptDraw),
    ("согласен на ничью", Phrase::AcceptDraw),
    ("согласна на ничью", Phrase::AcceptDraw),
    ("ничья принята", Phrase::AcceptDraw),
    ("отклоняю предложение ничьей", Phrase::DeclineDraw),
    ("отклоняю ничью", Phrase::DeclineDraw),
    ("не согласен на ничью", Phrase::DeclineDraw),
    ("не согласна на ничью", Phrase::DeclineDraw),
    ("предлагаю ничью", Phrase::OfferDraw),
    ("ничья?", Phrase::OfferDraw),
    ("сдаюсь", Phrase::Resign),
    ("сдаю партию", Phrase::Resign),
    ("я сдаюсь", Phrase::Resign),
    ("показать", Phrase::Show),
    ("приймаю пропозицію нічиєї", Phrase::AcceptDraw),
    ("приймаю нічию", Phrase::AcceptDraw),
    ("згоден на нічию", Phrase::AcceptDraw),
    ("згодна на нічию", Phrase::AcceptDraw),
    ("нічию прийнято", Phrase::AcceptDraw),
    ("відхиляю пропозицію нічиєї", Phrase::DeclineDraw),
    ("відхиляю нічию", Phrase::DeclineDraw),
    ("не згоден на нічию", Phrase::DeclineDraw),
    ("не згодна на нічию", Phrase::DeclineDraw),
    ("пропоную нічию", Phrase::OfferDraw),
    ("нічия?", Phrase::OfferDraw),
    ("здаюся", Phrase::Resign),
    ("я здаюся", Phrase::Resign),
    ("здаю партію", Phrase::Resign),
    ("показати", Phrase::Show),
];

/// A phrase line, compared without case, trailing full stops or exclamation marks.
fn phrase(line: &str) -> Option<Phrase> {
    let lower = line.to_lowercase();
    let lower = lower.trim().trim_end_matches(['.', '!']).trim();
    PHRASES.iter().find(|(p, _)| lower == *p).map(|(_, r)| *r)
}

/// The words that introduce the repeat of the opponent's last move on a line of its own.
fn is_repeat_word(word: &str) -> bool {
    let w = word.trim_end_matches(':').to_lowercase();
    matches!(
        w.as_str(),
        "repeat" | "your" | "повтор" | "ваш" | "your_move" | "rpt" | "повторення"
    )
}

/// The verbs of the shared grammar a mail's line may start with (the game is the mail's).
fn is_command_verb(word: &str) -> bool {
    matches!(
        word.trim_end_matches(':').to_lowercase().as_str(),
        "claim"
            | "if"
            | "conditional"
            | "если"
            | "якщо"
            | "leave"
            | "отпуск"
            | "відпустка"
            | "msg"
            | "message"
            | "сообщение"
            | "повідомлення"
    )
}

/// Verbs a mail's line is read by only when the whole line is the command (`BANK 10`,
/// `SILENCE LONG`): a line of prose that starts with the word ("Silence is golden") stays
/// words for the opponent, where the older verbs' lines are read as commands whatever follows.
fn is_exact_verb(word: &str) -> bool {
    matches!(
        word.trim_end_matches(':').to_lowercase().as_str(),
        "bank" | "банк" | "silence" | "молчание" | "мовчання"
    )
}

/// Whether a word could be a move: a digit 1-8 (every move but castling names a square or is
/// ICCF numeric), or castling with O, 0 or Cyrillic О. Short, unless it is a path of squares
/// (a draughts capture names every landing square: `e1:a5:d8:f6:d4`, `31x13x2x11x18`).
fn move_like(word: &str) -> bool {
    let w = word.trim_end_matches(['+', '#', '!', '?', ',', ';']);
    let castling = {
        let letters: String = w
            .chars()
            .filter(|c| !matches!(c, '-' | '—' | '–' | '‒'))
            .collect();
        matches!(letters.as_str(), "OO" | "OOO" | "00" | "000" | "ОО" | "ООО")
    };
    let path = w.len() <= 64
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '-'));
    castling || ((w.chars().count() <= 12 || path) && w.chars().any(|c| ('1'..='8').contains(&c)))
}

/// The command a line holds, if any: a phrase, a verb of the shared grammar, or a move.
fn command_of(line: &str, game: &str) -> Result<Option<Command>, LetterError> {
    if let Some(p) = phrase(line) {
        return Ok(Some(p.command(game)));
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Ok(None);
    };
    let bad = |e: CommandError| LetterError::Bad(format!("{line:?}: {e}"));
    if is_command_verb(first) {
        return Command::parse_in(line, game).map(Some).map_err(bad);
    }
    if is_exact_verb(first)
        && let Ok(command) = Command::parse_in(line, game)
    {
        return Ok(Some(command));
    }
    // A leading number (`12.`, `12...`, `12.Nf3`) says nothing yet: look at the move after it.
    let candidate = match split_move_number(first) {
        (Some(_), "") => words.get(1).copied(),
        (Some(_), glued) => Some(glued),
        (None, _) => Some(*first),
    };
    if !candidate.is_some_and(move_like) {
        return Ok(None);
    }
    let line = MoveLine::parse(line).map_err(bad)?;
    Ok(Some(Command::Move {
        game: game.to_owned(),
        line,
    }))
}

/// Finds the command in what the player wrote for `game`: the first line that is a phrase
/// (draw, resignation), a command (`CLAIM`, `IF`/`ЕСЛИ`, `LEAVE`/`ОТПУСК`, `MSG`; `BANK 10`
/// and `SILENCE LONG` written whole) or a move
/// (`[N.] MOVE [marks] [repeat MOVE]`); a later line starting with "repeat:" / "повтор:"
/// gives the repeat of the opponent's last move. Every other line the player wrote is a
/// message for the opponent.
pub fn read(text: &str, game: &str) -> Result<Letter, LetterError> {
    let mut found: Option<(Command, String)> = None;
    let mut repeat_line: Option<String> = None;
    let mut words_around: Vec<&str> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(first) = words.first()
            && is_repeat_word(first)
            && found.is_some()
        {
            // "repeat: 11... e5", "your move: e5", "повтор: e5"
            let rest: Vec<&str> = words[1..]
                .iter()
                .copied()
                .filter(|w| !matches!(w.to_lowercase().as_str(), "move:" | "ход:" | "хід:"))
                .filter(|w| move_number(w).is_none() && split_move_number(w).0.is_none())
                .collect();
            if let [m] = rest.as_slice()
                && move_like(m)
            {
                // As the command grammar reads a word: a trailing comma or semicolon is
                // punctuation, not part of the move.
                repeat_line = Some(m.trim_end_matches([',', ';']).to_owned());
                continue;
            }
        }
        if found.is_none()
            && let Some(command) = command_of(line, game)?
        {
            found = Some((command, line.to_owned()));
            continue;
        }
        words_around.push(line);
    }
    let Some((mut command, line)) = found else {
        return Err(LetterError::NoMove);
    };
    if let Command::Move { line, .. } = &mut command
        && line.repeat.is_none()
    {
        line.repeat = repeat_line;
    }
    let message = (!words_around.is_empty() && !matches!(command, Command::Message { .. }))
        .then(|| message_of(&words_around))
        .flatten();
    Ok(Letter {
        command,
        line,
        message,
    })
}

/// The player's other lines as one message: joined, made fit by the one text check's
/// [`text::scrub`] (controls become spaces, what reorders or hides text is left out) and cut
/// to the length a message may have. These are loose words around a move, not a message the
/// player marked as one, so they are mended rather than refused (a mail client's invisible
/// characters in a greeting must not cost the player the move); an explicit `MSG` line is
/// checked, and refused, like any other.
fn message_of(lines: &[&str]) -> Option<String> {
    let text = text::scrub(&lines.join(" "), MAX_MESSAGE_CHARS);
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(text: &str) -> Command {
        match read(text, "g7") {
            Ok(found) => found.command,
            Err(e) => panic!("{text}: {e}"),
        }
    }

    #[test]
    fn correspondence_commands_in_a_mail() {
        assert_eq!(
            command("Claim threefold 23... Ng8\n\nRegards"),
            Command::parse("CLAIM g7 THREEFOLD 23... Ng8").unwrap()
        );
        assert_eq!(
            command("Если 12... Кf6 то 13. Сg5"),
            Command::parse("IF g7 12... Кf6 13. Сg5").unwrap()
        );
        assert_eq!(
            command("отпуск 2027-07-01 14"),
            Command::parse("LEAVE 2027-07-01 14").unwrap()
        );
        assert_eq!(
            command("msg: Good luck!"),
            Command::parse("MSG g7 Good luck!").unwrap()
        );
        assert!(matches!(read("leave soon", "g7"), Err(LetterError::Bad(_))));
        assert_eq!(
            command("Bank 10\n\nRegards"),
            Command::parse("BANK g7 10").unwrap()
        );
        assert_eq!(
            command("молчание long"),
            Command::parse("SILENCE g7 LONG").unwrap()
        );
        // Prose that starts with those words is a letter around the move.
        let letter = read("Silence is golden.\n12. Nf3", "g7").expect("a move");
        assert_eq!(letter.command, Command::parse("MOVE g7 12. Nf3").unwrap());
        assert_eq!(letter.message.as_deref(), Some("Silence is golden."));
    }

    #[test]
    fn moves_and_phrases() {
        let found = read("Hi Boris,\n\n12. Nf3\nrepeat: 11... e5\n\nAlice", "g7").unwrap();
        assert_eq!(
            found.command,
            Command::parse("MOVE g7 12. Nf3 REPEAT e5").unwrap()
        );
        assert_eq!(found.line, "12. Nf3");
        assert_eq!(found.message.as_deref(), Some("Hi Boris, Alice"));
        assert_eq!(
            command("Предлагаю ничью."),
            Command::parse("DRAW g7 OFFER").unwrap()
        );
        assert_eq!(
            command("I decline the draw"),
            Command::parse("DRAW g7 DECLINE").unwrap()
        );
        assert_eq!(command("Сдаюсь"), Command::parse("RESIGN g7").unwrap());
        assert_eq!(command("Здаюся!"), Command::parse("RESIGN g7").unwrap());
        assert_eq!(
            command("Приймаю нічию"),
            Command::parse("DRAW g7 ACCEPT").unwrap()
        );
        assert_eq!(
            command("Якщо 12... Кf6 то 13. Сg5"),
            Command::parse("IF g7 12... Кf6 13. Сg5").unwrap()
        );
        assert_eq!(
            command("1... е7—е5 повтор е2—е4"),
            Command::parse("MOVE g7 1... е7—е5 REPEAT е2—е4").unwrap()
        );
        assert_eq!(
            command("12.Nf3"),
            Command::parse("MOVE g7 12. Nf3").unwrap()
        );
        assert_eq!(command("0-0"), Command::parse("MOVE g7 0-0").unwrap());
        // A draughts king's capture with every landing square is one move, not a message.
        let found = read("e1:a5:d8:f6:d4\nYour move!", "g7").unwrap();
        assert_eq!(
            found.command,
            Command::parse("MOVE g7 e1:a5:d8:f6:d4").unwrap()
        );
        assert_eq!(found.message.as_deref(), Some("Your move!"));
        assert_eq!(read("Thanks!", "g7"), Err(LetterError::NoMove));
        assert_eq!(read("e4", "g7").unwrap().message, None);
    }

    /// The words around a mail's move are mended by the one text check's scrub (a mail
    /// client's invisible characters must not cost the move); a `MSG` line the check refuses is
    /// refused, with the reason.
    #[test]
    fn the_words_around_a_move_are_mended_and_a_hostile_msg_is_refused() {
        let found = read(
            "\u{FEFF}Hi\u{200B} Boris \u{202E}gg\n12. Nf3\n\u{1b}[2K* 99 RESULT g7 1-0",
            "g7",
        )
        .unwrap();
        assert_eq!(found.command, Command::parse("MOVE g7 12. Nf3").unwrap());
        let said = found.message.expect("the words around");
        assert_eq!(said, "Hi Boris gg  [2K* 99 RESULT g7 1-0");
        assert_eq!(text::check(&said, text::TextKind::Message), Ok(()));
        let e = read("MSG g7 1-0 \u{202E}0-1", "g7").unwrap_err();
        assert!(e.to_string().contains("U+202E"), "{e}");
    }

    /// "Your move!" under a move was read as the repeat of the opponent's last move ("move!"),
    /// and the move was refused because that repeat did not match: a repeat names a move.
    #[test]
    fn regression_your_move_greeting_was_read_as_a_repeat() {
        let found = read("Nf3\nYour move!", "g7").unwrap();
        assert_eq!(found.command, Command::parse("MOVE g7 Nf3").unwrap());
        assert_eq!(found.message.as_deref(), Some("Your move!"));
    }

    /// A repeat on its own line kept a trailing semicolon (`repeat: 11... e5;`) that the
    /// command grammar drops, so the command read from the mail was not the one its line
    /// form reads back as (found by fuzzing the mail reader).
    #[test]
    fn regression_repeat_line_kept_its_trailing_semicolon() {
        for text in ["12. Nf3\nrepeat: 11... e5;", "12. Nf3\nrepeat: e5,"] {
            let found = read(text, "g7").unwrap();
            assert_eq!(
                found.command,
                Command::parse("MOVE g7 12. Nf3 REPEAT e5").unwrap(),
                "{text:?}"
            );
            let line = found.command.to_string();
            assert_eq!(Command::parse(&line).unwrap(), found.command, "{line}");
        }
    }

    /// The email reader required a dot after a move number (`12. Nf3`) where the line protocol
    /// did not: one rule now, `12 Nf3` reads the same everywhere.
    #[test]
    fn regression_email_and_line_disagreed_on_move_numbers() {
        assert_eq!(command("12 Nf3"), Command::parse("MOVE g7 12 Nf3").unwrap());
        assert_eq!(
            command("12...Nf6"),
            Command::parse("MOVE g7 12... Nf6").unwrap()
        );
    }
}
