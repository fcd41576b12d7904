//! A mail, read: its headers of interest and its text, then the command its text carries.
//!
//! MIME, transfer encodings and charsets (UTF-8, KOI8-R, windows-1251, ISO-8859-x...) are
//! mail-parser's job; text/plain is preferred over HTML, and HTML-only mail is turned into
//! text. Of the text, only what the player wrote counts: quoted lines (`>`), the quoted
//! history under "On ... wrote:" or "-----Original Message-----", and the signature under
//! `-- ` are cut off before the command is looked for.

use mail_parser::decoders::html::html_to_text;
use mail_parser::{HeaderValue, MessageParser, PartType};

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

    use crate::command::Command;

    /// Webmail writes each line of an HTML-only mail as a `<div>`: `Hello!e4` was refused.
    #[test]
    fn regression_html_div_lines_ran_together() {
        let raw = b"From: a@b.test\r\nSubject: g7\r\nContent-Type: text/html\r\n\r\n<div>Hello!</div><div>e4</div><DIV>See you</DIV>";
        let mail = parse(raw, false).unwrap();
        let lines: Vec<&str> = mail.text.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(lines, ["Hello!", "e4", "See you"]);
        let found = crate::command::letter::read(&mail.text, "g7").unwrap();
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
