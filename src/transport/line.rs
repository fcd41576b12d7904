//! The line protocol (docs/protocol.md), shared by every line-oriented wire (TCP now; a
//! serial terminal later): one command per line, replies as `CODE text` with `CODE-text` for
//! every line but the last, pushes as `* ID text`.
//!
//! ```
//! use ccrelay::transport::line::{parse, Line};
//! use ccrelay::relay::Command;
//! assert!(matches!(parse("move demo-1 12. Nf3"), Ok(Line::Command(Command::Move { number: Some(12), .. }))));
//! assert!(parse("MOVE").is_err());
//! ```

use bytes::{Bytes, BytesMut};
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, Decoder, Encoder};

use crate::relay::{Command, Reply};

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
        self.inner.encode(line, buf).map_err(|e| match e {
            AnyDelimiterCodecError::Io(e) => e,
            AnyDelimiterCodecError::MaxChunkLengthExceeded => {
                std::io::Error::other("line too long")
            }
        })
    }
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
pub struct LineError(pub String);

fn arg<'a>(words: &mut impl Iterator<Item = &'a str>, what: &str) -> Result<String, LineError> {
    words
        .next()
        .map(str::to_owned)
        .ok_or_else(|| LineError(format!("missing {what}")))
}

fn no_more<'a>(mut words: impl Iterator<Item = &'a str>) -> Result<(), LineError> {
    match words.next() {
        None => Ok(()),
        Some(extra) => Err(LineError(format!("unexpected {extra:?}"))),
    }
}

/// A move number as written before a move: `12`, `12.`, `12...`, `12…` (at most 3 digits,
/// so it is never mistaken for a numeric move such as `5254`).
fn move_number(word: &str) -> Option<u32> {
    let digits = word.trim_end_matches(['.', '…']);
    (!digits.is_empty() && digits.len() <= 3 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

/// Parses one line.
pub fn parse(line: &str) -> Result<Line, LineError> {
    let mut words = line.split_whitespace();
    let Some(verb) = words.next() else {
        return Ok(Line::Empty);
    };
    let verb = verb.to_ascii_uppercase();
    let command = match verb.as_str() {
        "LOGIN" => {
            let player = arg(&mut words, "player id")?;
            let secret = arg(&mut words, "secret")?;
            if words.next().is_some() {
                // Never quote the words of a login line: one may be part of a secret.
                return Err(LineError(
                    "LOGIN takes two words: the player id and the secret".to_owned(),
                ));
            }
            return Ok(Line::Login { player, secret });
        }
        "QUIT" | "LOGOUT" | "BYE" => return Ok(Line::Quit),
        "HELP" => return Ok(Line::Help),
        "ACK" => {
            let upto = match words.next() {
                None => None,
                Some(id) => Some(
                    id.parse()
                        .map_err(|_| LineError(format!("{id:?} is not a message id")))?,
                ),
            };
            no_more(words)?;
            return Ok(Line::Ack(upto));
        }
        "GAMES" | "LIST" => {
            no_more(words)?;
            Command::Games
        }
        "SHOW" => {
            let game = arg(&mut words, "game id")?;
            no_more(words)?;
            Command::Show { game }
        }
        "MOVE" => {
            let game = arg(&mut words, "game id")?;
            let rest: Vec<&str> = words.collect();
            let (number, rest) = match rest.as_slice() {
                [first, tail @ ..] if !tail.is_empty() && move_number(first).is_some() => {
                    (move_number(first), tail)
                }
                all => (None, all),
            };
            let (rest, repeat) = match rest.iter().position(|w| w.eq_ignore_ascii_case("REPEAT")) {
                Some(at) => match &rest[at + 1..] {
                    [repeated] => (&rest[..at], Some((*repeated).to_owned())),
                    _ => {
                        return Err(LineError(
                            "REPEAT takes one move: the opponent's last".to_owned(),
                        ));
                    }
                },
                None => (rest, None),
            };
            let Some((text, marks)) = rest.split_first() else {
                return Err(LineError("missing move".to_owned()));
            };
            Command::Move {
                game,
                number,
                text: (*text).to_owned(),
                marks: marks.iter().map(|m| (*m).to_owned()).collect(),
                repeat,
            }
        }
        "DRAW" => {
            let game = arg(&mut words, "game id")?;
            let what = arg(&mut words, "OFFER, ACCEPT or DECLINE")?;
            no_more(words)?;
            match what.to_ascii_uppercase().as_str() {
                "OFFER" => Command::OfferDraw { game },
                "ACCEPT" => Command::AcceptDraw { game },
                "DECLINE" => Command::DeclineDraw { game },
                _ => return Err(LineError(format!("{what:?}: say OFFER, ACCEPT or DECLINE"))),
            }
        }
        "RESIGN" => {
            let game = arg(&mut words, "game id")?;
            no_more(words)?;
            Command::Resign { game }
        }
        "CLAIM" => {
            let game = arg(&mut words, "game id")?;
            let claim = arg(&mut words, "THREEFOLD or FIFTY")?;
            let rest: Vec<&str> = words.collect();
            let (number, text) = match rest.as_slice() {
                [] => (None, None),
                [text] => (None, Some((*text).to_owned())),
                [number, text] if move_number(number).is_some() => {
                    (move_number(number), Some((*text).to_owned()))
                }
                _ => return Err(LineError("CLAIM takes at most one move".to_owned())),
            };
            Command::Claim {
                game,
                claim,
                number,
                text,
            }
        }
        "IF" | "CONDITIONAL" => {
            let game = arg(&mut words, "game id")?;
            let rest: Vec<&str> = words.collect();
            let moves = if matches!(rest.as_slice(), [w] if w.eq_ignore_ascii_case("CANCEL")) {
                Vec::new()
            } else {
                // `if 12... Nf6 then 13. Bg5, if 13... Be7 then 14. Nc3`: each move with the
                // number written before it, if any.
                let mut moves: Vec<(Option<u32>, String)> = Vec::new();
                let mut number = None;
                for word in rest {
                    let word = word.trim_end_matches([',', ';']);
                    let lower = word.to_lowercase();
                    if word.is_empty() || ["if", "then", "если", "то"].contains(&lower.as_str())
                    {
                        continue;
                    }
                    match move_number(word) {
                        Some(n) => number = Some(n),
                        None => moves.push((number.take(), word.to_owned())),
                    }
                }
                if moves.is_empty() {
                    return Err(LineError(
                        "missing moves (or CANCEL): their move, your answer, ...".to_owned(),
                    ));
                }
                moves
            };
            Command::Conditional { game, moves }
        }
        "LEAVE" => {
            let first = arg(&mut words, "first day (YYYY-MM-DD)")?;
            let days = arg(&mut words, "number of days")?;
            no_more(words)?;
            Command::Leave { first, days }
        }
        "ADJUDICATE" => {
            let game = arg(&mut words, "game id")?;
            let result = arg(&mut words, "result (1-0, 0-1, 1/2-1/2)")?;
            let reason = words.collect::<Vec<_>>().join(" ");
            if reason.is_empty() {
                return Err(LineError("missing reason".to_owned()));
            }
            Command::Adjudicate {
                game,
                result,
                reason,
            }
        }
        "CLOCK" => {
            let set = words.next().map(str::to_owned);
            no_more(words)?;
            Command::Clock { set }
        }
        "CREATE" => {
            let game = arg(&mut words, "game id")?;
            let white = arg(&mut words, "white player")?;
            let black = arg(&mut words, "black player")?;
            let mut event = None;
            let mut fen = None;
            let mut round = None;
            while let Some(word) = words.next() {
                match word.to_ascii_uppercase().as_str() {
                    "EVENT" => event = Some(arg(&mut words, "event id")?),
                    "ROUND" => round = Some(arg(&mut words, "round")?),
                    "FEN" => {
                        let rest: Vec<&str> = words.by_ref().collect();
                        if rest.is_empty() {
                            return Err(LineError("missing FEN".to_owned()));
                        }
                        fen = Some(rest.join(" "));
                    }
                    _ => {
                        return Err(LineError(format!(
                            "unexpected {word:?} (EVENT id, ROUND r, FEN ...)"
                        )));
                    }
                }
            }
            Command::Create {
                game,
                white,
                black,
                event,
                fen,
                round,
            }
        }
        _ => {
            return Err(LineError(format!(
                "unknown command {verb:?}; HELP lists them"
            )));
        }
    };
    Ok(Line::Command(command))
}

/// The reply's lines: `250-first`, `250-...`, `250 last`.
pub fn format_reply(reply: &Reply) -> Vec<String> {
    let lines: Vec<&str> = reply.text.lines().collect();
    let lines = if lines.is_empty() { vec![""] } else { lines };
    let last = lines.len() - 1;
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{}{}{l}", reply.code, if i == last { ' ' } else { '-' }))
        .collect()
}

/// A pushed message: `* 17 MOVE demo-1 12... Nf6 (7866) by boris`.
pub fn format_push(id: i64, body: &str) -> String {
    format!("* {id} {}", body.replace(['\r', '\n'], " "))
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
ACK [<id>]                             messages up to <id> (or all shown) received
CREATE <game> <white> <black> [EVENT <event>] [ROUND <r>] [FEN <fen>]   (admin)
ADJUDICATE <game> 1-0|0-1|1/2-1/2 <reason>                  (admin)
CLOCK [+<n>d|+<n>h|<RFC 3339 time>]    the manual clock (admin; [clock] mode = manual)
QUIT";

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(line: &str) -> Command {
        match parse(line) {
            Ok(Line::Command(c)) => c,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn move_lines() {
        let Command::Move {
            number,
            text,
            marks,
            ..
        } = mv("MOVE g 5254")
        else {
            panic!()
        };
        assert_eq!((number, text.as_str(), marks.len()), (None, "5254", 0));
        let Command::Move {
            number,
            text,
            marks,
            ..
        } = mv("move g 5254 (=)")
        else {
            panic!()
        };
        assert_eq!(
            (number, text.as_str(), marks),
            (None, "5254", vec!["(=)".to_owned()])
        );
        let Command::Move { number, text, .. } = mv("MOVE g 12... Nf6") else {
            panic!()
        };
        assert_eq!((number, text.as_str()), (Some(12), "Nf6"));
        let Command::Move { text, marks, .. } = mv("MOVE g exd6 e.p.") else {
            panic!()
        };
        assert_eq!((text.as_str(), marks), ("exd6", vec!["e.p.".to_owned()]));
        let Command::Move { text, repeat, .. } = mv("MOVE g 2 Nf3 REPEAT e5") else {
            panic!()
        };
        assert_eq!((text.as_str(), repeat.as_deref()), ("Nf3", Some("e5")));
    }

    #[test]
    fn correspondence_lines() {
        assert_eq!(
            mv("IF g if 12... Nf6 then 13. Bg5, if 13... Be7 then Nc3"),
            Command::Conditional {
                game: "g".to_owned(),
                moves: vec![
                    (Some(12), "Nf6".to_owned()),
                    (Some(13), "Bg5".to_owned()),
                    (Some(13), "Be7".to_owned()),
                    (None, "Nc3".to_owned())
                ]
            }
        );
        assert_eq!(
            mv("IF g cancel"),
            Command::Conditional {
                game: "g".to_owned(),
                moves: vec![]
            }
        );
        assert_eq!(
            mv("CLAIM g threefold 23. Nf3"),
            Command::Claim {
                game: "g".to_owned(),
                claim: "threefold".to_owned(),
                number: Some(23),
                text: Some("Nf3".to_owned())
            }
        );
        assert_eq!(
            mv("ADJUDICATE g 1-0 Black exceeded the silence limit"),
            Command::Adjudicate {
                game: "g".to_owned(),
                result: "1-0".to_owned(),
                reason: "Black exceeded the silence limit".to_owned()
            }
        );
        assert!(parse("ADJUDICATE g 1-0").is_err());
        assert!(parse("IF g 12.").is_err());
        assert!(parse("LEAVE 2027-01-01").is_err());
    }

    #[test]
    fn bad_lines_say_why() {
        assert_eq!(
            parse("FROB"),
            Err(LineError(
                "unknown command \"FROB\"; HELP lists them".to_owned()
            ))
        );
        assert_eq!(parse("MOVE g"), Err(LineError("missing move".to_owned())));
        assert_eq!(
            parse("LOGIN alice"),
            Err(LineError("missing secret".to_owned()))
        );
        assert!(parse("ACK x").is_err());
        assert_eq!(parse("   "), Ok(Line::Empty));
    }

    #[test]
    fn multi_line_replies() {
        assert_eq!(format_reply(&Reply::new(250, "a\nb")), ["250-a", "250 b"]);
        assert_eq!(format_reply(&Reply::new(404, "no")), ["404 no"]);
    }
}
