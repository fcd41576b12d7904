//! A mail, read: its headers of interest and its text, then the command its text carries.
//!
//! MIME, transfer encodings and charsets (UTF-8, KOI8-R, windows-1251, ISO-8859-x...) are
//! mail-parser's job; text/plain is preferred over HTML, and HTML-only mail is turned into
//! text. Of the text, only what the player wrote counts: quoted lines (`>`), the quoted
//! history under "On ... wrote:" or "-----Original Message-----", and the signature under
//! `-- ` are cut off before the command is looked for.

use mail_parser::{HeaderValue, MessageParser};

use crate::relay::Command;
use crate::transport::line::{self, Line};

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
    // body_text prefers text/plain and converts HTML when there is nothing else.
    let body = message
        .body_text(0)
        .map(|t| t.into_owned())
        .unwrap_or_default();
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

/// What a mail asks for, before the game is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    Move {
        number: Option<u32>,
        text: String,
        marks: Vec<String>,
        repeat: Option<String>,
    },
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Resign,
    /// The game, shown (diagram and moves).
    Show,
    /// A correspondence command written as on the line protocol: a draw claim
    /// (`CLAIM THREEFOLD [move]`), a conditional line (`IF 12... Nf6 13. Bg5`, `ЕСЛИ ... ТО ...`),
    /// leave (`LEAVE 2027-07-01 14`, `ОТПУСК ...`). Its game is filled in by `into_command`.
    Command(Command),
}

impl Request {
    /// The relay command for game `game`.
    pub fn into_command(self, game: String) -> Command {
        match self {
            Request::Move {
                number,
                text,
                marks,
                repeat,
            } => Command::Move {
                game,
                number,
                text,
                marks,
                repeat,
            },
            Request::OfferDraw => Command::OfferDraw { game },
            Request::AcceptDraw => Command::AcceptDraw { game },
            Request::DeclineDraw => Command::DeclineDraw { game },
            Request::Resign => Command::Resign { game },
            Request::Show => Command::Show { game },
            Request::Command(command) => match command {
                Command::Claim {
                    claim,
                    number,
                    text,
                    ..
                } => Command::Claim {
                    game,
                    claim,
                    number,
                    text,
                },
                Command::Conditional { moves, .. } => Command::Conditional { game, moves },
                other => other,
            },
        }
    }
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

/// Phrases players use, English and Russian, lower-cased; the longest are tried first so
/// "decline the draw" is not read as a draw offer.
const PHRASES: &[(&str, Request)] = &[
    ("i accept the draw offer", Request::AcceptDraw),
    ("i accept the draw", Request::AcceptDraw),
    ("i accept your draw offer", Request::AcceptDraw),
    ("i decline the draw offer", Request::DeclineDraw),
    ("i decline the draw", Request::DeclineDraw),
    ("i decline your draw offer", Request::DeclineDraw),
    ("draw accepted", Request::AcceptDraw),
    ("accept draw", Request::AcceptDraw),
    ("accept the draw", Request::AcceptDraw),
    ("draw declined", Request::DeclineDraw),
    ("decline draw", Request::DeclineDraw),
    ("decline the draw", Request::DeclineDraw),
    ("i offer a draw", Request::OfferDraw),
    ("i offer the draw", Request::OfferDraw),
    ("offer draw", Request::OfferDraw),
    ("offer a draw", Request::OfferDraw),
    ("draw offer", Request::OfferDraw),
    ("draw?", Request::OfferDraw),
    ("i resign", Request::Resign),
    ("resign", Request::Resign),
    ("resigns", Request::Resign),
    ("show", Request::Show),
    ("принимаю предложение ничьей", Request::AcceptDraw),
    ("принимаю ничью", Request::AcceptDraw),
    ("согласен на ничью", Request::AcceptDraw),
    ("согласна на ничью", Request::AcceptDraw),
    ("ничья принята", Request::AcceptDraw),
    ("отклоняю предложение ничьей", Request::DeclineDraw),
    ("отклоняю ничью", Request::DeclineDraw),
    ("не согласен на ничью", Request::DeclineDraw),
    ("не согласна на ничью", Request::DeclineDraw),
    ("предлагаю ничью", Request::OfferDraw),
    ("ничья?", Request::OfferDraw),
    ("сдаюсь", Request::Resign),
    ("сдаю партию", Request::Resign),
    ("я сдаюсь", Request::Resign),
    ("показать", Request::Show),
];

/// A phrase line, compared without case, trailing full stops or exclamation marks.
fn phrase(line: &str) -> Option<Request> {
    let lower = line.to_lowercase();
    let lower = lower.trim().trim_end_matches(['.', '!']).trim();
    let mut phrases: Vec<&(&str, Request)> = PHRASES.iter().collect();
    phrases.sort_by_key(|(p, _)| std::cmp::Reverse(p.chars().count()));
    phrases
        .into_iter()
        .find(|(p, _)| lower == *p)
        .map(|(_, r)| r.clone())
}

/// The words that introduce the repeat of the opponent's last move.
fn is_repeat_word(word: &str) -> bool {
    let w = word.trim_end_matches(':').to_lowercase();
    matches!(
        w.as_str(),
        "repeat" | "your" | "повтор" | "ваш" | "your_move" | "rpt"
    )
}

/// The words that introduce the repeat on the move's own line (`12. Nf3 repeat e5`).
fn is_inline_repeat(word: &str) -> bool {
    let w = word.trim_end_matches(':').to_lowercase();
    matches!(w.as_str(), "repeat" | "повтор" | "rpt")
}

/// Whether a word could be a move: a digit 1-8 (every move but castling names a square or is
/// ICCF numeric), or castling with O, 0 or Cyrillic О.
fn move_like(word: &str) -> bool {
    let w = word.trim_end_matches(['+', '#', '!', '?', ',', ';']);
    let castling = {
        let letters: String = w
            .chars()
            .filter(|c| !matches!(c, '-' | '—' | '–' | '‒'))
            .collect();
        matches!(letters.as_str(), "OO" | "OOO" | "00" | "000" | "ОО" | "ООО")
    };
    castling || (w.chars().count() <= 12 && w.chars().any(|c| ('1'..='8').contains(&c)))
}

/// Finds the command in what the player wrote: the first line that is a phrase (draw,
/// resignation) or a move (`[N.] MOVE [marks] [repeat MOVE]`); a later line starting with
/// "repeat:" / "повтор:" gives the repeat of the opponent's last move.
pub fn request(text: &str) -> Result<Request, BodyError> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut found: Option<Request> = None;
    let mut repeat_line: Option<String> = None;
    for line in &lines {
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
                .filter(|w| !w.ends_with('.') && !w.ends_with('…'))
                .collect();
            if let [m] = rest.as_slice() {
                repeat_line = Some((*m).to_owned());
            }
            continue;
        }
        if found.is_some() {
            continue;
        }
        if let Some(r) = phrase(line) {
            found = Some(r);
            continue;
        }
        if let Some(command) = correspondence_command(&words)? {
            found = Some(Request::Command(command));
            continue;
        }
        // Skip a leading number ("12.", "12...") to see whether the line holds a move.
        let mut rest = words.as_slice();
        if let [n, tail @ ..] = rest
            && !tail.is_empty()
            && n.trim_end_matches(['.', '…']).len() <= 3
            && n.trim_end_matches(['.', '…'])
                .bytes()
                .all(|b| b.is_ascii_digit())
            && n.ends_with(['.', '…'])
        {
            rest = tail;
        }
        let Some(first) = rest.first() else {
            continue;
        };
        if !move_like(first) {
            continue;
        }
        let normalized: Vec<String> = words
            .iter()
            .map(|w| {
                if is_inline_repeat(w) {
                    "REPEAT".to_owned()
                } else {
                    (*w).to_owned()
                }
            })
            .collect();
        match line::parse(&format!("MOVE g {}", normalized.join(" "))) {
            Ok(Line::Command(Command::Move {
                number,
                text,
                marks,
                repeat,
                ..
            })) => {
                found = Some(Request::Move {
                    number,
                    text,
                    marks,
                    repeat,
                });
            }
            Ok(_) => continue,
            Err(e) => return Err(BodyError::Bad(format!("{line:?}: {}", e.0))),
        }
    }
    match found {
        Some(Request::Move {
            number,
            text,
            marks,
            repeat,
        }) => Ok(Request::Move {
            number,
            text,
            marks,
            repeat: repeat.or(repeat_line),
        }),
        Some(other) => Ok(other),
        None => Err(BodyError::NoMove),
    }
}

/// A line starting `CLAIM`, `IF`/`ЕСЛИ` or `LEAVE`/`ОТПУСК`, read as the line protocol reads
/// it (with a placeholder game); `None` for any other line.
fn correspondence_command(words: &[&str]) -> Result<Option<Command>, BodyError> {
    let Some(first) = words.first() else {
        return Ok(None);
    };
    let rest = words[1..].join(" ");
    let line_text = match first.to_lowercase().trim_end_matches(':') {
        "claim" => format!("CLAIM g {rest}"),
        "if" | "conditional" | "если" => format!("IF g {rest}"),
        "leave" | "отпуск" => format!("LEAVE {rest}"),
        _ => return Ok(None),
    };
    match line::parse(&line_text) {
        Ok(Line::Command(command)) => Ok(Some(command)),
        Ok(_) => Ok(None),
        Err(e) => Err(BodyError::Bad(format!("{:?}: {}", words.join(" "), e.0))),
    }
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

    #[test]
    fn correspondence_commands_in_a_mail() {
        let command = |text: &str| match request(text) {
            Ok(Request::Command(c)) => Request::Command(c).into_command("g7".to_owned()),
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(
            command("Claim threefold 23... Ng8\n\nRegards"),
            Command::Claim {
                game: "g7".to_owned(),
                claim: "threefold".to_owned(),
                number: Some(23),
                text: Some("Ng8".to_owned())
            }
        );
        assert_eq!(
            command("Если 12... Кf6 то 13. Сg5"),
            Command::Conditional {
                game: "g7".to_owned(),
                moves: vec![(Some(12), "Кf6".to_owned()), (Some(13), "Сg5".to_owned())]
            }
        );
        assert_eq!(
            command("отпуск 2027-07-01 14"),
            Command::Leave {
                first: "2027-07-01".to_owned(),
                days: "14".to_owned()
            }
        );
        assert!(matches!(request("leave soon"), Err(BodyError::Bad(_))));
    }

    #[test]
    fn moves_and_phrases() {
        assert_eq!(
            request("Hi Boris,\n\n12. Nf3\nrepeat: 11... e5\n\nAlice"),
            Ok(Request::Move {
                number: Some(12),
                text: "Nf3".into(),
                marks: vec![],
                repeat: Some("e5".into())
            })
        );
        assert_eq!(request("Предлагаю ничью."), Ok(Request::OfferDraw));
        assert_eq!(request("I decline the draw"), Ok(Request::DeclineDraw));
        assert_eq!(request("Сдаюсь"), Ok(Request::Resign));
        assert_eq!(
            request("1... е7—е5 повтор е2—е4"),
            Ok(Request::Move {
                number: Some(1),
                text: "е7—е5".into(),
                marks: vec![],
                repeat: Some("е2—е4".into())
            })
        );
        assert_eq!(
            request("0-0"),
            Ok(Request::Move {
                number: None,
                text: "0-0".into(),
                marks: vec![],
                repeat: None
            })
        );
        assert_eq!(request("Thanks!"), Err(BodyError::NoMove));
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
