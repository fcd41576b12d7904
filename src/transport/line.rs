//! The line protocol (docs/protocol.md), shared by every line-oriented wire (TCP now; a
//! serial terminal later): one command per line, replies as `CODE text` with `CODE-text` for
//! every line but the last, pushes as `* ID text`.
//!
//! ```
//! use ccrelay::transport::line::{parse, Line};
//! use ccrelay::command::Command;
//! assert!(matches!(parse("move demo-1 12. Nf3"), Ok(Line::Command(Command::Move { .. }))));
//! assert!(matches!(parse("ack 12"), Ok(Line::Ack(Some(12)))));
//! assert!(parse("MOVE").is_err());
//! ```

use bytes::{Bytes, BytesMut};
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, Decoder, Encoder};

use crate::command::{Command, CommandError, CommandErrorKind};
use crate::relay::{Reply, ShortReceipt, Status};

/// One frame off the wire: a line, or word that a line was too long (and was skipped).
#[derive(Debug)]
pub enum Frame {
    Line(Bytes),
    TooLong,
}

/// Newline-delimited framing with a length limit. Unlike the codec it wraps, a line that is
/// too long is an item, not an error, so the connection carries on after it: the rest of that
/// line is discarded and the next line is read normally.
pub struct LineCodec {
    inner: AnyDelimiterCodec,
}

impl LineCodec {
    pub fn new(max_line_bytes: usize) -> LineCodec {
        LineCodec {
            inner: AnyDelimiterCodec::new_with_max_length(
                b"\n".to_vec(),
                b"\n".to_vec(),
                max_line_bytes,
            ),
        }
    }
}

impl Decoder for LineCodec {
    type Item = Frame;
    type Error = std::io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<Frame>, std::io::Error> {
        match self.inner.decode(buf) {
            Ok(line) => Ok(line.map(Frame::Line)),
            Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) => Ok(Some(Frame::TooLong)),
            Err(AnyDelimiterCodecError::Io(e)) => Err(e),
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Frame>, std::io::Error> {
        match self.inner.decode_eof(buf) {
            Ok(line) => Ok(line.map(Frame::Line)),
            Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) => Ok(Some(Frame::TooLong)),
            Err(AnyDelimiterCodecError::Io(e)) => Err(e),
        }
    }
}

impl Encoder<String> for LineCodec {
    type Error = std::io::Error;

    fn encode(&mut self, line: String, buf: &mut BytesMut) -> Result<(), std::io::Error> {
        put_line(buf, &line);
        Ok(())
    }
}

/// Appends `line` and its end to `buf`: what the codec writes for it.
pub fn put_line(buf: &mut BytesMut, line: &str) {
    buf.reserve(line.len() + 1);
    buf.extend_from_slice(line.as_bytes());
    buf.extend_from_slice(b"\n");
}

/// One line from a client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Login {
        player: String,
        secret: String,
    },
    Command(Command),
    /// Acknowledge pushed messages up to an id (all pushed so far without one).
    Ack(Option<i64>),
    Help,
    Quit,
    /// An empty line: ignored.
    Empty,
}

/// What is wrong with a line, as the reply says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    pub status: Status,
    pub message: String,
}

impl LineError {
    fn bad(message: impl Into<String>) -> LineError {
        LineError {
            status: Status::BadCommand,
            message: message.into(),
        }
    }

    pub fn reply(&self) -> Reply {
        Reply::new(self.status, self.message.clone())
    }
}

impl From<CommandError> for LineError {
    fn from(e: CommandError) -> LineError {
        let status = match e.kind() {
            CommandErrorKind::NotAMark => Status::BadMove,
            _ => Status::BadCommand,
        };
        let message = match e.kind() {
            CommandErrorKind::UnknownVerb => format!("{e}; HELP lists them"),
            _ => e.to_string(),
        };
        LineError { status, message }
    }
}

/// Parses one line: the line protocol's own words (`LOGIN`, `ACK`, `HELP`, `QUIT`), or a
/// command in the grammar every front end shares ([`Command::parse`]).
pub fn parse(line: &str) -> Result<Line, LineError> {
    let mut words = line.split_whitespace();
    let Some(verb) = words.next() else {
        return Ok(Line::Empty);
    };
    match verb.to_ascii_uppercase().as_str() {
        "LOGIN" => {
            let player = words
                .next()
                .ok_or_else(|| LineError::bad("missing player id"))?;
            let secret = words
                .next()
                .ok_or_else(|| LineError::bad("missing secret"))?;
            if words.next().is_some() {
                // Never quote the words of a login line: one may be part of a secret.
                return Err(LineError::bad(
                    "LOGIN takes two words: the player id and the secret",
                ));
            }
            Ok(Line::Login {
                player: player.to_owned(),
                secret: secret.to_owned(),
            })
        }
        "QUIT" | "LOGOUT" | "BYE" => Ok(Line::Quit),
        "HELP" => Ok(Line::Help),
        "ACK" => {
            let upto = match words.next() {
                None => None,
                Some(id) => Some(
                    id.parse()
                        .map_err(|_| LineError::bad(format!("{id:?} is not a message id")))?,
                ),
            };
            if let Some(extra) = words.next() {
                return Err(LineError::bad(format!("unexpected {extra:?}")));
            }
            Ok(Line::Ack(upto))
        }
        _ => Ok(Line::Command(Command::parse(line)?)),
    }
}

/// Appends the reply's lines to `buf`: `250-first`, `250-...`, `250 last`; the last ends
/// with the short receipt when the command wrote an entry (`250 accepted g1 1. 5254
/// r17:3fa9c2d1e0b4`). Written straight into the buffer: a reply goes with every command.
pub fn put_reply(buf: &mut BytesMut, reply: &Reply) {
    // Numbers through `itoa` and text appended, not through the formatter: a reply and a push
    // go out for every move, and formatting cost several times what appending does.
    let mut code = itoa::Buffer::new();
    let code = code.format(reply.status.code()).as_bytes();
    // An empty text is still one line: `250 `.
    let empty = reply.text.is_empty().then_some("");
    let mut lines = reply.text.lines().chain(empty).peekable();
    while let Some(line) = lines.next() {
        let last = lines.peek().is_none();
        buf.reserve(code.len() + line.len() + 32);
        buf.extend_from_slice(code);
        buf.extend_from_slice(if last { b" " } else { b"-" });
        buf.extend_from_slice(line.as_bytes());
        if let (true, Some(receipt)) = (last, &reply.receipt) {
            put_receipt(buf, receipt);
        }
        buf.extend_from_slice(b"\n");
    }
}

/// Appends a pushed message to `buf`: `* 17 MOVE demo-1 12... Nf6 (7866) by boris
/// r23:5be01f9c03d2`, with the short receipt of the journal entry it reports.
pub fn put_push(buf: &mut BytesMut, id: i64, body: &str, receipt: Option<&ShortReceipt>) {
    buf.reserve(body.len() + 48);
    buf.extend_from_slice(b"* ");
    buf.extend_from_slice(itoa::Buffer::new().format(id).as_bytes());
    buf.extend_from_slice(b" ");
    // A push is one line: a line break in its body would end it early.
    // `contains` on bytes is a `memchr`, not a loop over each byte.
    if body.as_bytes().contains(&b'\n') || body.as_bytes().contains(&b'\r') {
        let one_line: String = body
            .chars()
            .map(|c| if c == '\r' || c == '\n' { ' ' } else { c })
            .collect();
        buf.extend_from_slice(one_line.as_bytes());
    } else {
        buf.extend_from_slice(body.as_bytes());
    }
    if let Some(receipt) = receipt {
        put_receipt(buf, receipt);
    }
    buf.extend_from_slice(b"\n");
}

/// Appends ` r23:5be01f9c03d2`, a receipt as it follows a reply or a push.
fn put_receipt(buf: &mut BytesMut, receipt: &ShortReceipt) {
    buf.extend_from_slice(b" ");
    buf.extend_from_slice(receipt.encode(&mut [0; ShortReceipt::MAX_LEN]).as_bytes());
}

pub const HELP: &str = "commands:
LOGIN <player> <secret>
GAMES                                  your games
SHOW <game>                            the position and the moves
MOVE <game> [<number>] <move> [(=)] [REPEAT <their last move>]
DRAW <game> OFFER|ACCEPT|DECLINE
RESIGN <game>
CLAIM <game> THREEFOLD|FIFTY [<move>]  a draw, now or with your move
IF <game> <their move> <your answer> ...   conditional moves (IF <game> CANCEL)
LEAVE <YYYY-MM-DD> <days>              leave from that day, in all your games
BANK <game> <days>                     Triple Block: days from your bank to your clock, on your move
SILENCE <game> LONG                    a reflection past the silence limit on your current or next move
MSG <game> <text>                      a message to your opponent (at most 500 characters)
ACK [<id>]                             messages up to <id> (or all shown) received
CREATE <game> <white> <black> [GAME <kind>] [EVENT <event>] [ROUND <r>] [FEN <fen>]   (admin)
ADJUDICATE <game> 1-0|0-1|1/2-1/2 <reason>                  (admin)
LEAVE <YYYY-MM-DD> <days> FOR <player> <reason>             special leave (admin)
RECEIPT <entry>                        the signed receipt for a journal entry (r<entry>:...)
CLOCK [+<n>d|+<n>h|<RFC 3339 time>]    the manual clock (admin; [clock] mode = manual)
DEAD [RETRY <id>|DROP <id>]            mail refused for good (admin)
SECRET <new secret>                    your own secret (over TLS or from the relay's machine)
NOTIFY OFF|EACH <address>|DIGEST <hour> [<zone>] <address>   a mail when it is your move
EVENTS                                 the events (yours; all for the admin)
EVENT SHOW <event>                     entrants, pairings by round, standings
PLAYER ADD|SET <id> [NAME \"<name>\"] [NOTATION <n>] [LANG <l>] [REACH tcp|email|xfcc|radio] [EMAIL <a>] [CALLSIGN <c>] [APRSWIDTH <w>]   (admin)
PLAYER SECRET <id>                     a new secret for a player (admin; over TLS or from the relay's machine)
PLAYERS                                every player, no secrets (admin)
WHOAMI                                 who the relay takes you for
EVENT NEW <id> SYSTEM round-robin|double-round-robin|match|knockout [NAME \"<name>\"] [TIME <tc>] ...   (admin)
EVENT ENTER <event> [TEAM \"<team>\"] <player>... [OVERRIDE <reason>]   EVENT DRAW|START <event>   (admin)
EVENT WITHDRAW <event> <player> <reason>                    (admin)
EVENT SEED <event> BY rating           numbers by rating, equal ratings by lot (admin)
RATINGS [<player>]                     the rating list in effect, or one player's rating and history
PLAYER SET <id> RATING <rating> RD <deviation> <reason>     a starting rating (admin)
QUIT";

#[cfg(test)]
mod tests {
    use super::*;

    fn push(id: i64, body: &str, receipt: Option<&ShortReceipt>) -> BytesMut {
        let mut buf = BytesMut::new();
        put_push(&mut buf, id, body, receipt);
        buf
    }

    fn reply(reply: &Reply) -> BytesMut {
        let mut buf = BytesMut::new();
        put_reply(&mut buf, reply);
        buf
    }

    #[test]
    fn a_push_is_one_line_with_its_receipt() {
        let receipt = ShortReceipt::parse("r23:5be01f9c03d2").expect("a receipt");
        assert_eq!(
            push(17, "MOVE demo-1 12... Nf6 (7866) by boris", Some(&receipt)),
            "* 17 MOVE demo-1 12... Nf6 (7866) by boris r23:5be01f9c03d2\n"
        );
        assert_eq!(push(17, "MSG g1 hello", None), "* 17 MSG g1 hello\n");
        assert_eq!(
            push(3, "MSG g1 one\r\ntwo\nthree", None),
            "* 3 MSG g1 one  two three\n"
        );
    }

    /// docs/protocol.md shows the command list indented by four spaces; it must be HELP's.
    #[test]
    fn help_is_the_list_in_the_protocol_doc() {
        let doc = include_str!("../../docs/protocol.md");
        let first = HELP.lines().nth(1).expect("HELP lists commands");
        let start = doc
            .find(&format!("    {first}\n"))
            .expect("the command list in docs/protocol.md");
        let listed: Vec<&str> = doc[start..]
            .lines()
            .take_while(|l| l.starts_with("    "))
            .map(|l| &l[4..])
            .collect();
        let help: Vec<&str> = HELP.lines().skip(1).collect();
        assert_eq!(listed, help);
    }

    /// Every command HELP lists, with a sample line for each free text it takes: `{T}` a
    /// text that runs to the line's end or sits in quotes, `{W}` a text of one word. A command
    /// listed without a sample, or a sample whose text the grammar takes unchecked, fails here:
    /// the next command cannot forget the one check.
    const FREE_TEXTS: &[(&str, &[&str])] = &[
        ("LOGIN", &[]),
        ("GAMES", &[]),
        ("SHOW", &[]),
        ("MOVE", &[]),
        ("DRAW", &[]),
        ("RESIGN", &[]),
        ("CLAIM", &[]),
        ("IF", &[]),
        ("LEAVE", &["LEAVE 2027-03-01 5 FOR alice {T}"]),
        ("BANK", &[]),
        ("SILENCE", &[]),
        ("MSG", &["MSG g1 {T}"]),
        ("ACK", &[]),
        ("CREATE", &["CREATE g9 alice boris ROUND {W}"]),
        ("ADJUDICATE", &["ADJUDICATE g1 1-0 {T}"]),
        ("RECEIPT", &[]),
        ("CLOCK", &[]),
        ("DEAD", &[]),
        ("SECRET", &[]),
        (
            "NOTIFY",
            &["NOTIFY EACH {W}", "NOTIFY DIGEST 8 Europe/Moscow {W}"],
        ),
        ("EVENTS", &[]),
        ("EVENT SHOW", &[]),
        (
            "PLAYER ADD|SET",
            &[
                r#"PLAYER ADD carol NAME "{T}" EMAIL {W}"#,
                r#"PLAYER SET carol NAME "{T}" EMAIL {W}"#,
            ],
        ),
        ("PLAYER SECRET", &[]),
        ("PLAYERS", &[]),
        ("WHOAMI", &[]),
        (
            "EVENT NEW",
            &[r#"EVENT NEW e1 SYSTEM round-robin NAME "{T}" SITE "{T}" TIME "{T}""#],
        ),
        (
            "EVENT ENTER",
            &[
                r#"EVENT ENTER m1 TEAM "{T}" alice boris"#,
                "EVENT ENTER e1 carol OVERRIDE {T}",
            ],
        ),
        ("EVENT WITHDRAW", &["EVENT WITHDRAW e1 alice {T}"]),
        ("RATINGS", &[]),
        ("EVENT SEED", &[]),
        ("PLAYER SET", &["PLAYER SET carol RATING 1850 RD 120 {T}"]),
        ("QUIT", &[]),
    ];

    #[test]
    fn every_free_text_of_every_command_goes_through_the_one_check() {
        let hostile = [
            "\u{1b}[2K\u{1b}[1G*99_RESULT_p1_1-0".to_owned(),
            "1-0\u{202E}0-1".to_owned(),
            "ad\u{200B}min".to_owned(),
            "a\u{2028}b".to_owned(),
            "x".repeat(501),
        ];
        for line in HELP.lines().skip(1) {
            let words: Vec<&str> = line.split_whitespace().collect();
            let key = match words.as_slice() {
                [first @ ("EVENT" | "PLAYER"), second, ..] => format!("{first} {second}"),
                [first, ..] => (*first).to_owned(),
                [] => continue,
            };
            let Some((_, samples)) = FREE_TEXTS.iter().find(|(k, _)| *k == key) else {
                panic!("HELP's {key:?} has no entry in FREE_TEXTS: say which texts it takes");
            };
            for sample in *samples {
                let slots = sample.matches('{').count();
                assert!(slots > 0, "{sample}: a sample names its texts");
                for slot in 0..slots {
                    for text in &hostile {
                        let mut n = 0;
                        let mut one_word = false;
                        let filled: String = sample
                            .split_inclusive('}')
                            .map(|part| {
                                let Some(at) = part.find('{') else {
                                    return part.to_owned();
                                };
                                let this = n;
                                n += 1;
                                if this != slot {
                                    return format!("{}ok", &part[..at]);
                                }
                                one_word = &part[at..] == "{W}";
                                format!("{}{text}", &part[..at])
                            })
                            .collect();
                        if one_word && text.contains(char::is_whitespace) {
                            continue;
                        }
                        let e = Command::parse(&filled).expect_err(&filled).to_string();
                        assert!(
                            e.contains("may not hold") || e.contains("at most"),
                            "{filled:?}: {e}"
                        );
                    }
                }
                // The same line with plain texts passes: the refusal was the text's.
                let plain = sample
                    .replace("{T}", "plain words")
                    .replace("{W}", "plain@example.org");
                assert!(Command::parse(&plain).is_ok(), "{plain}");
            }
        }
    }

    #[test]
    fn the_line_protocols_own_words() {
        assert_eq!(
            parse("login alice s3cret"),
            Ok(Line::Login {
                player: "alice".to_owned(),
                secret: "s3cret".to_owned()
            })
        );
        assert_eq!(parse("ACK"), Ok(Line::Ack(None)));
        assert_eq!(parse("ack 12"), Ok(Line::Ack(Some(12))));
        assert_eq!(parse("bye"), Ok(Line::Quit));
        assert_eq!(parse("help"), Ok(Line::Help));
        assert_eq!(parse("   "), Ok(Line::Empty));
        assert!(matches!(
            parse("SHOW g1"),
            Ok(Line::Command(Command::Show { .. }))
        ));
    }

    #[test]
    fn bad_lines_say_why() {
        let bad = |message: &str| {
            Err(LineError {
                status: Status::BadCommand,
                message: message.to_owned(),
            })
        };
        assert_eq!(
            parse("FROB"),
            bad("unknown command \"FROB\"; HELP lists them")
        );
        assert_eq!(parse("MOVE g"), bad("missing move"));
        assert_eq!(parse("LOGIN alice"), bad("missing secret"));
        assert_eq!(
            parse("LOGIN alice secret words"),
            bad("LOGIN takes two words: the player id and the secret")
        );
        assert_eq!(parse("ACK x"), bad("\"x\" is not a message id"));
        // A word after a move that is no mark is a move refused, as the protocol documents.
        assert_eq!(
            parse("MOVE g e4 zz").map_err(|e| e.status),
            Err(Status::BadMove)
        );
    }

    #[test]
    fn multi_line_replies() {
        assert_eq!(reply(&Reply::new(Status::Done, "a\nb")), "250-a\n250 b\n");
        assert_eq!(reply(&Reply::new(Status::NotFound, "no")), "404 no\n");
        assert_eq!(reply(&Reply::new(Status::Done, "")), "250 \n");
        let mut with_receipt = Reply::new(Status::Done, "accepted g1 1. 5254\nyour move");
        with_receipt.receipt = ShortReceipt::parse("r17:3fa9c2d1e0b4");
        assert_eq!(
            reply(&with_receipt),
            "250-accepted g1 1. 5254\n250 your move r17:3fa9c2d1e0b4\n"
        );
    }
}
