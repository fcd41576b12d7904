//! A mail, read: its headers of interest and its text, then the command its text carries.
//!
//! MIME, transfer encodings and charsets (UTF-8, KOI8-R, windows-1251, ISO-8859-x...) are
//! mail-parser's job; text/plain is preferred over HTML, and HTML-only mail is turned into
//! text. Of the text, only what the player wrote counts: quoted lines (`>`), the quoted
//! history under "On ... wrote:" or "-----Original Message-----", and the signature under
//! `-- ` are cut off before the command is looked for.

use mail_parser::decoders::html::html_to_text;
use mail_parser::{HeaderValue, MessageParser, PartType};

use crate::command::text;
use crate::command::{Command, CommandError, MAX_MESSAGE_CHARS, MoveLine};
use crate::notation::number::{move_number, split_move_number};

/// The parts of a mail the transport uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mail {
    /// The From address, lower-cased; empty if there is none or more than one.
    pub from: String,
    pub subject: String,
    /// Without angle brackets; empty if the mail has none.
    pub message_id: String,
    /// In-Reply-To then References, without angle brackets.
    pub references: Vec<String>,
    /// Every address in To, Cc, Delivered-To and X-Original-To, lower-cased.
    pub recipients: Vec<String>,
    /// What the player wrote: the preferred text part, quotes and signature cut off.
    pub text: String,
    /// Whether the mail was longer than what was read.
    pub truncated: bool,
    /// Sent by a program, not a person (`Auto-Submitted` other than `no`, or `Precedence`
    /// bulk, junk or list; RFC 3834): an out-of-office reply, a bounce. Never answered, so
    /// the relay and an autoresponder cannot mail each other forever.
    pub automatic: bool,
}

/// Why a mail could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MailError {
    #[error("not a mail message (no headers could be read)")]
    Unreadable,
}

/// The most characters of text looked at for a command: a move is a line, not a letter.
const MAX_TEXT_CHARS: usize = 16 * 1024;

fn text_list(value: &HeaderValue<'_>) -> Vec<String> {
    match value {
        HeaderValue::Text(t) => vec![t.to_string()],
        HeaderValue::TextList(list) => list.iter().map(|t| t.to_string()).collect(),
        _ => Vec::new(),
    }
}

fn addresses(value: &HeaderValue<'_>, out: &mut Vec<String>) {
    match value {
        HeaderValue::Address(a) => {
            out.extend(a.iter().filter_map(|a| a.address()).map(str::to_lowercase))
        }
        HeaderValue::Text(t) => out.push(t.trim().trim_matches(['<', '>']).to_lowercase()),
        HeaderValue::TextList(list) => out.extend(
            list.iter()
                .map(|t| t.trim().trim_matches(['<', '>']).to_lowercase()),
        ),
        _ => {}
    }
}

/// Reads a mail. `raw` is what was read of it (at most the configured size); `truncated`
/// says whether there was more.
pub fn parse(raw: &[u8], truncated: bool) -> Result<Mail, MailError> {
    let message = MessageParser::default()
        .parse(raw)
        .ok_or(MailError::Unreadable)?;
    if message.headers().is_empty() {
        return Err(MailError::Unreadable);
    }
    let from = match message.from() {
        Some(list) if list.iter().count() == 1 => list
            .first()
            .and_then(|a| a.address())
            .map(str::to_lowercase)
            .unwrap_or_default(),
        _ => String::new(),
    };
    let mut references = text_list(message.in_reply_to());
    references.extend(text_list(message.references()));
    let mut recipients = Vec::new();
    for header in message.headers() {
        let name = header.name.as_str();
        if name.eq_ignore_ascii_case("To")
            || name.eq_ignore_ascii_case("Cc")
            || name.eq_ignore_ascii_case("Delivered-To")
            || name.eq_ignore_ascii_case("X-Original-To")
        {
            addresses(&header.value, &mut recipients);
        }
    }
    let automatic = message
        .header_raw("Auto-Submitted")
        .is_some_and(|v| !v.trim().eq_ignore_ascii_case("no"))
        || message.header_raw("Precedence").is_some_and(|v| {
            matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "bulk" | "junk" | "list"
            )
        });
    // text/plain is preferred; HTML, when there is nothing else, is turned into text with its
    // block elements (`<div>` lines, as webmail writes them) kept as lines.
    let body = match message.text_part(0).map(|part| &part.body) {
        Some(PartType::Html(html)) => html_to_text(&blocks_as_lines(html)),
        _ => message
            .body_text(0)
            .map(|t| t.into_owned())
            .unwrap_or_default(),
    };
    let body: String = body.chars().take(MAX_TEXT_CHARS).collect();
    Ok(Mail {
        from,
        subject: message.subject().unwrap_or_default().trim().to_owned(),
        message_id: message.message_id().unwrap_or_default().to_owned(),
        references,
        recipients,
        text: own_words(&body),
        truncated,
        automatic,
    })
}

/// Elements that start a new line in a browser, but not in mail-parser's HTML-to-text.
const BLOCK_TAGS: [&str; 13] = [
    "div",
    "li",
    "tr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "blockquote",
    "pre",
    "table",
];

/// `html` with a `<br>` before each block element's start and end tag, so that
/// `<div>Hello!</div><div>e4</div>` reads as two lines.
fn blocks_as_lines(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + 64);
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let tag = &rest[at + 1..];
        let name = tag.strip_prefix('/').unwrap_or(tag);
        let end = name
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(name.len());
        if BLOCK_TAGS
            .iter()
            .any(|b| b.eq_ignore_ascii_case(&name[..end]))
        {
            out.push_str("<br>");
        }
        out.push('<');
        rest = tag;
    }
    out.push_str(rest);
    out
}

/// The lines a player wrote: up to the signature or the quoted history, without quoted
/// lines, trimmed.
pub fn own_words(body: &str) -> String {
    let mut out = Vec::new();
    for line in body.lines() {
        let trimmed = line.trim_end();
        if trimmed == "--" || trimmed == "-- " || line == "-- " || line.starts_with("-- \r") {
            break;
        }
        let t = trimmed.trim_start();
        if t.starts_with('>') {
            continue;
        }
        if is_history_header(t) {
            break;
        }
        out.push(t.to_owned());
    }
    out.join("\n").trim().to_owned()
}

/// The line a mail client writes above the quoted message.
fn is_history_header(line: &str) -> bool {
    let lower = line.to_lowercase();
    (lower.starts_with("-----") && lower.contains("original message"))
        || lower.starts_with("-----original")
        || lower.starts_with("----- исходное сообщение")
        || lower.starts_with("-------- пересылаемое сообщение")
        || ((lower.starts_with("on ") || lower.starts_with("am ") || lower.starts_with("le "))
            && lower.ends_with("wrote:"))
        || lower.ends_with("написал:")
        || lower.ends_with("написала:")
        || lower.ends_with("пишет:")
        || lower.ends_with("schrieb:")
        || lower.ends_with("a écrit :")
        || lower.ends_with("a écrit:")
}

/// What a mail's text asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub command: Command,
    /// The line the command was read from, for the record.
    pub line: String,
    /// The player's other words (a greeting, a comment on the game): a message for the
    /// opponent, delivered with the command.
    pub message: Option<String>,
}

/// Why no command was found in a mail's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BodyError {
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

/// Phrases players use, English and Russian, lower-cased; the longest are tried first so
/// "decline the draw" is not read as a draw offer.
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
];

/// A phrase line, compared without case, trailing full stops or exclamation marks.
fn phrase(line: &str) -> Option<Phrase> {
    let lower = line.to_lowercase();
    let lower = lower.trim().trim_end_matches(['.', '!']).trim();
    let mut phrases: Vec<&(&str, Phrase)> = PHRASES.iter().collect();
    phrases.sort_by_key(|(p, _)| std::cmp::Reverse(p.chars().count()));
    phrases
        .into_iter()
        .find(|(p, _)| lower == *p)
        .map(|(_, r)| *r)
}

/// The words that introduce the repeat of the opponent's last move on a line of its own.
fn is_repeat_word(word: &str) -> bool {
    let w = word.trim_end_matches(':').to_lowercase();
    matches!(
        w.as_str(),
        "repeat" | "your" | "повтор" | "ваш" | "your_move" | "rpt"
    )
}

/// The verbs of the shared grammar a mail's line may start with (the game is the mail's).
fn is_command_verb(word: &str) -> bool {
    matches!(
        word.trim_end_matches(':').to_lowercase().as_str(),
        "claim" | "if" | "conditional" | "если" | "leave" | "отпуск" | "msg" | "message"
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
fn command_of(line: &str, game: &str) -> Result<Option<Command>, BodyError> {
    if let Some(p) = phrase(line) {
        return Ok(Some(p.command(game)));
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Ok(None);
    };
    let bad = |e: CommandError| BodyError::Bad(format!("{line:?}: {e}"));
    if is_command_verb(first) {
        let line = line
            .trim_start()
            .replacen(':', "", usize::from(first.ends_with(':')));
        return Command::parse_in(&line, game).map(Some).map_err(bad);
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
/// (draw, resignation), a command (`CLAIM`, `IF`/`ЕСЛИ`, `LEAVE`/`ОТПУСК`, `MSG`) or a move
/// (`[N.] MOVE [marks] [repeat MOVE]`); a later line starting with "repeat:" / "повтор:"
/// gives the repeat of the opponent's last move. Every other line the player wrote is a
/// message for the opponent.
pub fn request(text: &str, game: &str) -> Result<Found, BodyError> {
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
                .filter(|w| !w.eq_ignore_ascii_case("move:") && !w.eq_ignore_ascii_case("ход:"))
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
        return Err(BodyError::NoMove);
    };
    if let Command::Move { line, .. } = &mut command
        && line.repeat.is_none()
    {
        line.repeat = repeat_line;
    }
    let message = (!words_around.is_empty() && !matches!(command, Command::Message { .. }))
        .then(|| message_of(&words_around))
        .flatten();
    Ok(Found {
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

/// The subject without reply prefixes (`Re:`, `AW:`, `Ответ:`...), the relay's tag and the
/// token word.
pub fn subject_words(subject: &str) -> Vec<String> {
    let mut s = subject.trim();
    loop {
        let lower = s.to_lowercase();
        let prefix = [
            "re:",
            "aw:",
            "fw:",
            "fwd:",
            "ответ:",
            "отв:",
            "на:",
            "[ccrelay]",
        ]
        .iter()
        .find(|p| lower.starts_with(*p));
        match prefix {
            Some(p) => s = s[p.len()..].trim_start(),
            None => break,
        }
    }
    s.split_whitespace()
        .filter(|w| !w.to_lowercase().starts_with("key:"))
        .map(|w| w.trim_end_matches([':', ',']).to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(text: &str) -> Command {
        match request(text, "g7") {
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
        assert!(matches!(
            request("leave soon", "g7"),
            Err(BodyError::Bad(_))
        ));
    }

    #[test]
    fn moves_and_phrases() {
        let found = request("Hi Boris,\n\n12. Nf3\nrepeat: 11... e5\n\nAlice", "g7").unwrap();
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
        let found = request("e1:a5:d8:f6:d4\nYour move!", "g7").unwrap();
        assert_eq!(
            found.command,
            Command::parse("MOVE g7 e1:a5:d8:f6:d4").unwrap()
        );
        assert_eq!(found.message.as_deref(), Some("Your move!"));
        assert_eq!(request("Thanks!", "g7"), Err(BodyError::NoMove));
        assert_eq!(request("e4", "g7").unwrap().message, None);
    }

    /// The words around a mail's move are mended by the one text check's scrub (a mail
    /// client's invisible characters must not cost the move); a `MSG` line the check refuses is
    /// refused, with the reason.
    #[test]
    fn the_words_around_a_move_are_mended_and_a_hostile_msg_is_refused() {
        let found = request(
            "\u{FEFF}Hi\u{200B} Boris \u{202E}gg\n12. Nf3\n\u{1b}[2K* 99 RESULT g7 1-0",
            "g7",
        )
        .unwrap();
        assert_eq!(found.command, Command::parse("MOVE g7 12. Nf3").unwrap());
        let said = found.message.expect("the words around");
        assert_eq!(said, "Hi Boris gg  [2K* 99 RESULT g7 1-0");
        assert_eq!(text::check(&said, text::TextKind::Message), Ok(()));
        let e = request("MSG g7 1-0 \u{202E}0-1", "g7").unwrap_err();
        assert!(e.to_string().contains("U+202E"), "{e}");
    }

    /// "Your move!" under a move was read as the repeat of the opponent's last move ("move!"),
    /// and the move was refused because that repeat did not match: a repeat names a move.
    #[test]
    fn regression_your_move_greeting_was_read_as_a_repeat() {
        let found = request("Nf3\nYour move!", "g7").unwrap();
        assert_eq!(found.command, Command::parse("MOVE g7 Nf3").unwrap());
        assert_eq!(found.message.as_deref(), Some("Your move!"));
    }

    /// A repeat on its own line kept a trailing semicolon (`repeat: 11... e5;`) that the
    /// command grammar drops, so the command read from the mail was not the one its line
    /// form reads back as (found by fuzzing the mail reader).
    #[test]
    fn regression_repeat_line_kept_its_trailing_semicolon() {
        for text in ["12. Nf3\nrepeat: 11... e5;", "12. Nf3\nrepeat: e5,"] {
            let found = request(text, "g7").unwrap();
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

    /// Webmail writes each line of an HTML-only mail as a `<div>`: `Hello!e4` was refused.
    #[test]
    fn regression_html_div_lines_ran_together() {
        let raw = b"From: a@b.test\r\nSubject: g7\r\nContent-Type: text/html\r\n\r\n<div>Hello!</div><div>e4</div><DIV>See you</DIV>";
        let mail = parse(raw, false).unwrap();
        let lines: Vec<&str> = mail.text.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(lines, ["Hello!", "e4", "See you"]);
        let found = request(&mail.text, "g7").unwrap();
        assert_eq!(found.command, Command::parse("MOVE g7 e4").unwrap());
        assert_eq!(blocks_as_lines("a<br>b<p>c</p>"), "a<br>b<p>c</p>");
    }

    #[test]
    fn quotes_and_signatures_are_cut() {
        let body = "5254\n\nOn Mon, 1 Jan 2026, Boris wrote:\n> 7866\n";
        assert_eq!(own_words(body), "5254");
        assert_eq!(own_words("e4\n-- \nAlice\n12. d4"), "e4");
        assert_eq!(own_words("> 1. d4\ne4"), "e4");
    }

    #[test]
    fn subjects() {
        assert_eq!(
            subject_words("Re: [ccrelay] demo-1: 1. e4 by alice"),
            vec!["demo-1", "1.", "e4", "by", "alice"]
        );
        assert_eq!(subject_words("Ответ: g2 key:xyz"), vec!["g2"]);
    }
}
