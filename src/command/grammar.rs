//! The grammar: words to a [`Command`]. One verb per command (with its aliases, English and
//! Russian), one move-number rule ([`crate::notation::number`]), one mark reader
//! ([`Marks::parse`]), one result reader ([`Score`]).

use jiff::SignedDuration;
use jiff::Timestamp;
use jiff::civil::Date;

use super::text::{self, TextKind};
use super::tokens::{Words, bad, missing};
use super::{
    ClockSetting, Command, CommandError, CommandErrorKind, DeadAction, MoveLine, NumberedMove,
};
use crate::game::Claim;
use crate::notation::number::{move_number, split_move_number};
use crate::notation::result::Score;
use crate::notation::written::Marks;

/// The most bytes of a command's text kept in the official record.
pub const MAX_TEXT_BYTES: usize = 1024;

/// A command's text as received, for the record: whole, unless longer than
/// [`MAX_TEXT_BYTES`], then cut on a character boundary and marked with `…`.
pub fn bounded_text(text: &str) -> String {
    let text = text.trim();
    if text.len() <= MAX_TEXT_BYTES {
        return text.to_owned();
    }
    let mut end = MAX_TEXT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

impl Command {
    /// Reads a command line: a verb, the game, the rest.
    pub fn parse(line: &str) -> Result<Command, CommandError> {
        parse_words(Words::new(line, None))
    }

    /// Reads a command whose game the context gives (a mail about one game): `CLAIM FIFTY`,
    /// `IF 12... Nf6 13. Bg5`, `LEAVE 2027-07-01 14`.
    pub fn parse_in(line: &str, game: &str) -> Result<Command, CommandError> {
        parse_words(Words::new(line, Some(game)))
    }
}

fn parse_words(mut w: Words<'_>) -> Result<Command, CommandError> {
    let Some(verb) = w.word() else {
        return Err(missing("command"));
    };
    // `MSG: hello`: a letter's writers put a colon after the verb.
    let command = match verb.trim_end_matches(':').to_uppercase().as_str() {
        "GAMES" | "LIST" => Command::Games,
        "SHOW" => Command::Show { game: w.game()? },
        "MOVE" => {
            let game = w.game()?;
            let line = move_line(w.rest())?;
            Command::Move { game, line }
        }
        "DRAW" => {
            let game = w.game()?;
            let what = w.arg("OFFER, ACCEPT or DECLINE")?;
            match what.to_ascii_uppercase().as_str() {
                "OFFER" => Command::OfferDraw { game },
                "ACCEPT" => Command::AcceptDraw { game },
                "DECLINE" => Command::DeclineDraw { game },
                _ => return Err(bad(format!("{what:?}: say OFFER, ACCEPT or DECLINE"))),
            }
        }
        "RESIGN" => Command::Resign { game: w.game()? },
        "CLAIM" => {
            let game = w.game()?;
            let claim: Claim = w.arg("THREEFOLD or FIFTY")?.parse().map_err(bad)?;
            let with = claim_move(w.rest())?;
            Command::Claim { game, claim, with }
        }
        "IF" | "CONDITIONAL" | "ЕСЛИ" | "ЯКЩО" => {
            let game = w.game()?;
            let moves = conditional_moves(w.rest())?;
            Command::Conditional { game, moves }
        }
        "LEAVE" | "ОТПУСК" | "ВІДПУСТКА" => {
            let first = leave_first(&w.arg(FIRST_DAY)?)?;
            let days = leave_days(&w.arg(NUMBER_OF_DAYS)?)?;
            match w.word() {
                None => Command::Leave { first, days },
                Some(word) if word.eq_ignore_ascii_case("FOR") => {
                    let player = w.arg("player")?;
                    Command::special_leave(&player, first, days, w.rest_text())?
                }
                Some(word) => {
                    return Err(bad(format!(
                        "{word:?}: LEAVE takes the first day and the number of days \
                         (the arbiter adds FOR <player> <reason>)"
                    )));
                }
            }
        }
        "BANK" | "БАНК" => {
            let game = w.game()?;
            let days = w.arg(NUMBER_OF_DAYS)?;
            Command::Bank {
                game,
                days: bank_days(&days)?,
            }
        }
        "SILENCE" | "МОЛЧАНИЕ" | "МОВЧАННЯ" => {
            let game = w.game()?;
            let what = w.arg("LONG")?;
            if !what.eq_ignore_ascii_case("LONG") {
                return Err(bad(format!(
                    "{what:?}: say SILENCE <game> LONG (a reflection longer than the silence limit)"
                )));
            }
            Command::LongReflection { game }
        }
        "ADJUDICATE" => {
            let game = w.game()?;
            let result = w.arg("result (1-0, 0-1, 1/2-1/2)")?;
            Command::adjudicate(&game, &result, w.rest_text())?
        }
        "CLOCK" => {
            let set = w.word().map(clock_setting).transpose()?;
            Command::Clock { set }
        }
        "DEAD" => {
            let action = match w.word() {
                None => DeadAction::List,
                Some(verb) if verb.eq_ignore_ascii_case("RETRY") => {
                    DeadAction::Retry(w.arg("dead letter id")?)
                }
                Some(verb) if verb.eq_ignore_ascii_case("DROP") => {
                    DeadAction::Drop(w.arg("dead letter id")?)
                }
                Some(other) => {
                    return Err(CommandError::new(
                        CommandErrorKind::Unexpected,
                        format!("DEAD takes RETRY <id> or DROP <id>, not {other:?}"),
                    ));
                }
            };
            Command::Dead { action }
        }
        "CREATE" => create(&mut w)?,
        "RECEIPT" | "КВИТАНЦИЯ" => {
            let entry = w.arg("entry number")?;
            match entry.parse::<i64>() {
                Ok(n) if n > 0 => Command::Receipt { entry: n },
                _ => return Err(bad(format!("{entry:?} is not an entry number"))),
            }
        }
        "PLAYER" | "ИГРОК" => super::registry::player(&mut w)?,
        "PLAYERS" | "ИГРОКИ" => Command::Players,
        "WHOAMI" => Command::WhoAmI,
        "SECRET" | "ПАРОЛЬ" => super::registry::secret(&mut w)?,
        "NOTIFY" => super::notify::notify(&mut w)?,
        "EVENT" | "ТУРНИР" => super::registry::event(&mut w)?,
        "EVENTS" | "ТУРНИРЫ" => Command::Events,
        "RATINGS" | "РЕЙТИНГ" => {
            let player = w.word().map(str::to_owned);
            w.done()?;
            Command::Ratings { player }
        }
        "MSG" | "MESSAGE" | "СООБЩЕНИЕ" | "ПОВІДОМЛЕННЯ" => {
            let game = w.game()?;
            let text = message_text(w.rest_text())?;
            Command::Message { game, text }
        }
        _ => {
            return Err(CommandError::new(
                CommandErrorKind::UnknownVerb,
                format!("unknown command {verb:?}"),
            ));
        }
    };
    w.done()?;
    // Every free text of every command through the one check, whichever verb read it.
    command.check_texts().map_err(|e| bad(e.to_string()))?;
    Ok(command)
}

fn create(w: &mut Words<'_>) -> Result<Command, CommandError> {
    let game = w.arg("game id")?;
    let white = w.arg("white player")?;
    let black = w.arg("black player")?;
    let (mut kind, mut event, mut fen, mut round) = (None, None, None, None);
    while let Some(word) = w.word() {
        match word.to_ascii_uppercase().as_str() {
            "GAME" => kind = Some(w.arg("game (chess, draughts-ru)")?.parse().map_err(bad)?),
            "EVENT" => event = Some(w.arg("event id")?),
            "ROUND" => {
                let r = w.arg("round")?;
                text::check(&r, TextKind::Name).map_err(|e| bad(format!("round: {e}")))?;
                round = Some(r);
            }
            "FEN" => {
                let rest = w.rest_text();
                if rest.is_empty() {
                    return Err(missing("FEN"));
                }
                fen = Some(rest.split_whitespace().collect::<Vec<_>>().join(" "));
            }
            _ => {
                return Err(CommandError::new(
                    CommandErrorKind::Unexpected,
                    format!("unexpected {word:?} (GAME kind, EVENT id, ROUND r, FEN ...)"),
                ));
            }
        }
    }
    Ok(Command::Create {
        game,
        white,
        black,
        kind,
        event,
        fen,
        round,
    })
}

/// A message's text: not empty, and as [`text::check`] allows a message.
fn message_text(said: &str) -> Result<String, CommandError> {
    if said.is_empty() {
        return Err(missing("text of the message"));
    }
    text::check(said, TextKind::Message).map_err(|e| bad(e.to_string()))?;
    Ok(said.to_owned())
}

/// `+40d`, `+6h`, `+30m`, `+90s`, or an RFC 3339 time.
fn clock_setting(set: &str) -> Result<ClockSetting, CommandError> {
    let refuse = || {
        bad(format!(
            "{set:?}: say +<n>d, +<n>h, +<n>m or an RFC 3339 time"
        ))
    };
    if let Some(rest) = set.strip_prefix('+') {
        let Some((at, unit)) = rest.char_indices().last() else {
            return Err(refuse());
        };
        let n: i64 = rest[..at].parse().map_err(|_| refuse())?;
        let seconds = match unit {
            'd' => n.checked_mul(86_400),
            'h' => n.checked_mul(3_600),
            'm' => n.checked_mul(60),
            's' => Some(n),
            _ => None,
        }
        .ok_or_else(refuse)?;
        Ok(ClockSetting::Advance(SignedDuration::from_secs(seconds)))
    } else {
        set.parse::<Timestamp>()
            .map(ClockSetting::At)
            .map_err(|_| refuse())
    }
}

/// Whether a word introduces the repeat of the opponent's last move.
fn is_repeat_word(word: &str) -> bool {
    matches!(
        word.trim_end_matches(':').to_lowercase().as_str(),
        "repeat" | "повтор" | "rpt"
    )
}

/// Reads `[number] move [marks...] [REPEAT [number] move]`.
fn move_line(words: &[&str]) -> Result<MoveLine, CommandError> {
    let (words, repeat) = match words.iter().position(|w| is_repeat_word(w)) {
        Some(at) => {
            let repeated = match numbered_moves(&words[at + 1..])?.as_slice() {
                [one] => one.text.clone(),
                _ => {
                    return Err(CommandError::new(
                        CommandErrorKind::Unexpected,
                        "REPEAT takes one move: the opponent's last",
                    ));
                }
            };
            (&words[..at], Some(repeated))
        }
        None => (words, None),
    };
    let (number, text, marks) = match words {
        [] => return Err(missing("move")),
        [first, rest @ ..] => match split_move_number(first) {
            // `12. Nf3`: the number apart; `12.` alone is a number without its move.
            (Some(number), "") => match rest.split_first() {
                Some((text, marks)) => (Some(number), *text, marks),
                None => return Err(missing("move")),
            },
            (Some(number), glued) if !glued.is_empty() => (Some(number), glued, rest),
            _ => (None, *first, rest),
        },
    };
    let mut all = Marks::default();
    for word in marks {
        let Some(m) = Marks::parse(word) else {
            return Err(CommandError::new(
                CommandErrorKind::NotAMark,
                format!("not a move mark: {word:?}"),
            ));
        };
        all.check = all.check.or(m.check);
        all.annotation = all.annotation.or(m.annotation);
        all.en_passant |= m.en_passant;
        all.draw_offer |= m.draw_offer;
    }
    Ok(MoveLine {
        number,
        text: text.to_owned(),
        marks: all,
        repeat,
    })
}

impl MoveLine {
    /// Reads a move line on its own (a line of a mail): `12. Nf3`, `12...Nf6 (=)`,
    /// `Nf3 repeat e5`.
    pub fn parse(line: &str) -> Result<MoveLine, CommandError> {
        move_line(&line.split_whitespace().collect::<Vec<_>>())
    }
}

/// What LEAVE's two words are called when one is missing.
const FIRST_DAY: &str = "first day (YYYY-MM-DD)";
const NUMBER_OF_DAYS: &str = "number of days";

/// A claim's move: none, or one (`12... Nf6`).
fn claim_move(words: &[&str]) -> Result<Option<NumberedMove>, CommandError> {
    match numbered_moves(words)?.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one.clone())),
        _ => Err(CommandError::new(
            CommandErrorKind::Unexpected,
            "CLAIM takes at most one move",
        )),
    }
}

/// A conditional line's moves (their move, the answer, ...), or none for `CANCEL`.
fn conditional_moves(words: &[&str]) -> Result<Vec<NumberedMove>, CommandError> {
    if matches!(words, [word] if word.eq_ignore_ascii_case("CANCEL")) {
        return Ok(Vec::new());
    }
    let moves = numbered_moves(words)?;
    if moves.is_empty() {
        return Err(missing("moves (or CANCEL): their move, your answer, ..."));
    }
    Ok(moves)
}

/// Leave's first day: `2027-07-01`.
fn leave_first(word: &str) -> Result<Date, CommandError> {
    word.parse()
        .map_err(|_| bad(format!("{word:?} is not a date (YYYY-MM-DD)")))
}

/// Days moved from a bank: 1 to 10 000 (a bank's most, as a time control's numbers go).
fn bank_days(word: &str) -> Result<u32, CommandError> {
    match word.parse::<u32>() {
        Ok(n) if (1..=10_000).contains(&n) => Ok(n),
        _ => Err(bad(format!(
            "{word:?} is not a number of days (1 to 10000)"
        ))),
    }
}

/// Leave's number of days, 1 to 366.
fn leave_days(word: &str) -> Result<u32, CommandError> {
    match word.parse::<u32>() {
        Ok(n) if (1..=366).contains(&n) => Ok(n),
        _ => Err(bad(format!("{word:?} is not a number of days (1 to 366)"))),
    }
}

/// Commands built from a form's fields rather than a line (the web's pages): each field is
/// read by the grammar's own reader of that piece, so a form and a line are read alike and
/// a bad piece gets the same refusal, without the fields being written into a line to be
/// read again.
impl Command {
    /// `CLAIM` in `game`, made with the move written in `with` (none, or one such as
    /// `12... Nf6`).
    pub fn claim(game: &str, claim: Claim, with: &str) -> Result<Command, CommandError> {
        Ok(Command::Claim {
            game: game.to_owned(),
            claim,
            with: claim_move(&with.split_whitespace().collect::<Vec<_>>())?,
        })
    }

    /// `IF` in `game` with the line written in `line`: `12... Nf6 13. Bg5`, with the words
    /// of a condition (`if ... then ...`) skipped, or `CANCEL`.
    pub fn conditional(game: &str, line: &str) -> Result<Command, CommandError> {
        Ok(Command::Conditional {
            game: game.to_owned(),
            moves: conditional_moves(&line.split_whitespace().collect::<Vec<_>>())?,
        })
    }

    /// `IF <game> CANCEL`: the conditional line in `game` withdrawn.
    pub fn cancel_conditional(game: &str) -> Command {
        Command::Conditional {
            game: game.to_owned(),
            moves: Vec::new(),
        }
    }

    /// `ADJUDICATE` in `game` from its two fields: the result as written (`1-0`, `0-1`,
    /// `1/2-1/2`) and the reason, which is required and passes the one text check.
    pub fn adjudicate(game: &str, result: &str, reason: &str) -> Result<Command, CommandError> {
        let score = match Score::read(result.trim()) {
            Some(score) if score != Score::Unfinished => score,
            _ => return Err(bad(format!("{result:?}: say 1-0, 0-1 or 1/2-1/2"))),
        };
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(missing("reason"));
        }
        text::check(reason, TextKind::Reason).map_err(|e| bad(e.to_string()))?;
        Ok(Command::Adjudicate {
            game: game.to_owned(),
            score,
            reason: reason.to_owned(),
        })
    }

    /// `BANK` in `game`, with the days written in `days` (1 to 10000).
    pub fn bank(game: &str, days: &str) -> Result<Command, CommandError> {
        let days = days.trim();
        if days.is_empty() {
            return Err(missing(NUMBER_OF_DAYS));
        }
        Ok(Command::Bank {
            game: game.to_owned(),
            days: bank_days(days)?,
        })
    }

    /// The arbiter's special leave for `player` (`LEAVE first days FOR player reason`): the
    /// reason is required, as an adjudication's is.
    pub fn special_leave(
        player: &str,
        first: Date,
        days: u32,
        reason: &str,
    ) -> Result<Command, CommandError> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(missing("reason"));
        }
        text::check(reason, TextKind::Reason).map_err(|e| bad(e.to_string()))?;
        Ok(Command::SpecialLeave {
            player: player.trim().to_owned(),
            first,
            days,
            reason: reason.to_owned(),
        })
    }

    /// `LEAVE` from its two fields: the first day (`2027-07-01`) and the number of days.
    pub fn leave(first: &str, days: &str) -> Result<Command, CommandError> {
        let (first, days) = (first.trim(), days.trim());
        if first.is_empty() {
            return Err(missing(FIRST_DAY));
        }
        if days.is_empty() {
            return Err(missing(NUMBER_OF_DAYS));
        }
        Ok(Command::Leave {
            first: leave_first(first)?,
            days: leave_days(days)?,
        })
    }
}

/// The words between a conditional line's moves, skipped (English, Russian, Ukrainian).
const CONDITION_WORDS: [&str; 5] = ["if", "then", "если", "якщо", "то"];

/// Moves, each with the number written before it (apart or glued), the [`CONDITION_WORDS`]
/// and trailing commas skipped: `if 12... Nf6 then 13. Bg5, if 13...Be7 then 14.
/// Nc3`.
fn numbered_moves(words: &[&str]) -> Result<Vec<NumberedMove>, CommandError> {
    let mut moves = Vec::new();
    let mut number = None;
    for word in words {
        let word = word.trim_end_matches([',', ';']);
        let lower = word.to_lowercase();
        if word.is_empty() || CONDITION_WORDS.contains(&lower.as_str()) {
            continue;
        }
        if let Some(n) = move_number(word) {
            number = Some(n);
            continue;
        }
        let (glued, text) = split_move_number(word);
        // What follows a glued number must read as a move on its own as well: `12.7`,
        // `2.12...Nf6` or `12..if` would be written back as a number, or as a word skipped.
        if glued.is_some()
            && (split_move_number(text).0.is_some()
                || CONDITION_WORDS.contains(&text.to_lowercase().as_str()))
        {
            return Err(CommandError::new(
                CommandErrorKind::BadValue,
                format!("not a move after its number: {word:?}"),
            ));
        }
        moves.push(NumberedMove {
            number: glued.or(number.take()),
            text: text.to_owned(),
        });
        number = None;
    }
    Ok(moves)
}
