//! A command written back as a line the grammar reads: `Command::parse(&c.to_string()) == c`
//! for every command the grammar can produce (tested with random commands).

use std::fmt;

use super::{ClockSetting, Command, DeadAction, EventAction, MoveLine, NumberedMove, PlayerAction};

/// A value as the grammar reads it back: one word as it is, several in double quotes.
fn quoted(value: &str) -> String {
    if value.contains(char::is_whitespace) || value.starts_with('"') {
        format!("\"{value}\"")
    } else {
        value.to_owned()
    }
}
use crate::notation::written::{CheckMark, Marks};

fn write_marks(f: &mut fmt::Formatter<'_>, marks: &Marks) -> fmt::Result {
    if marks.en_passant {
        f.write_str(" e.p.")?;
    }
    match marks.check {
        Some(CheckMark::Check) => f.write_str(" +")?,
        Some(CheckMark::Mate) => f.write_str(" #")?,
        None => {}
    }
    if let Some(annotation) = marks.annotation {
        write!(f, " {annotation}")?;
    }
    if marks.draw_offer {
        f.write_str(" (=)")?;
    }
    Ok(())
}

impl fmt::Display for MoveLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(number) = self.number {
            write!(f, "{number} ")?;
        }
        f.write_str(&self.text)?;
        write_marks(f, &self.marks)?;
        if let Some(repeat) = &self.repeat {
            write!(f, " REPEAT {repeat}")?;
        }
        Ok(())
    }
}

impl fmt::Display for NumberedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.number {
            Some(number) => write!(f, "{number} {}", self.text),
            None => f.write_str(&self.text),
        }
    }
}

impl fmt::Display for ClockSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockSetting::Advance(d) => write!(f, "+{}s", d.as_secs()),
            ClockSetting::At(t) => write!(f, "{t}"),
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Games => f.write_str("GAMES"),
            Command::Show { game } => write!(f, "SHOW {game}"),
            Command::Move { game, line } => write!(f, "MOVE {game} {line}"),
            Command::OfferDraw { game } => write!(f, "DRAW {game} OFFER"),
            Command::AcceptDraw { game } => write!(f, "DRAW {game} ACCEPT"),
            Command::DeclineDraw { game } => write!(f, "DRAW {game} DECLINE"),
            Command::Resign { game } => write!(f, "RESIGN {game}"),
            Command::Claim { game, claim, with } => {
                write!(f, "CLAIM {game} {}", claim.as_str().to_ascii_uppercase())?;
                match with {
                    Some(m) => write!(f, " {m}"),
                    None => Ok(()),
                }
            }
            Command::Conditional { game, moves } => {
                write!(f, "IF {game}")?;
                if moves.is_empty() {
                    return f.write_str(" CANCEL");
                }
                for m in moves {
                    write!(f, " {m}")?;
                }
                Ok(())
            }
            Command::Leave { first, days } => write!(f, "LEAVE {first} {days}"),
            Command::SpecialLeave {
                player,
                first,
                days,
                reason,
            } => write!(f, "LEAVE {first} {days} FOR {player} {reason}"),
            Command::Bank { game, days } => write!(f, "BANK {game} {days}"),
            Command::LongReflection { game } => write!(f, "SILENCE {game} LONG"),
            Command::Adjudicate {
                game,
                score,
                reason,
            } => write!(f, "ADJUDICATE {game} {score} {reason}"),
            Command::Receipt { entry } => write!(f, "RECEIPT {entry}"),
            Command::Clock { set: None } => f.write_str("CLOCK"),
            Command::Clock { set: Some(set) } => write!(f, "CLOCK {set}"),
            Command::Dead { action } => match action {
                DeadAction::List => f.write_str("DEAD"),
                DeadAction::Retry(id) => write!(f, "DEAD RETRY {id}"),
                DeadAction::Drop(id) => write!(f, "DEAD DROP {id}"),
            },
            Command::Create {
                game,
                white,
                black,
                kind,
                event,
                fen,
                round,
            } => {
                write!(f, "CREATE {game} {white} {black}")?;
                if let Some(kind) = kind {
                    write!(f, " GAME {kind}")?;
                }
                if let Some(event) = event {
                    write!(f, " EVENT {event}")?;
                }
                if let Some(round) = round {
                    write!(f, " ROUND {round}")?;
                }
                if let Some(fen) = fen {
                    write!(f, " FEN {fen}")?;
                }
                Ok(())
            }
            Command::Message { game, text } => write!(f, "MSG {game} {text}"),
            Command::Player { id, action, fields } => {
                let verb = match action {
                    PlayerAction::Add => "ADD",
                    PlayerAction::Set => "SET",
                    PlayerAction::Secret => "SECRET",
                };
                write!(f, "PLAYER {verb} {id}")?;
                for (key, value) in [
                    ("NAME", &fields.name),
                    ("NOTATION", &fields.notation),
                    ("LANG", &fields.lang),
                    ("REACH", &fields.reach),
                    ("EMAIL", &fields.email),
                    ("CALLSIGN", &fields.callsign),
                    ("APRSWIDTH", &fields.aprs_width),
                ] {
                    if let Some(value) = value {
                        write!(f, " {key} {}", quoted(value))?;
                    }
                }
                if let Some(seed) = &fields.rating {
                    let (rating, rd) = (seed.rating, seed.deviation);
                    write!(f, " RATING {rating} RD {rd} {}", seed.reason)?;
                }
                Ok(())
            }
            Command::Players => f.write_str("PLAYERS"),
            Command::WhoAmI => f.write_str("WHOAMI"),
            Command::Secret { secret } => write!(f, "SECRET {secret}"),
            Command::Notify { setting } => write!(f, "NOTIFY {setting}"),
            Command::Event { id, action } => match action {
                EventAction::New { system, keys } => {
                    write!(f, "EVENT NEW {id} SYSTEM {system}")?;
                    for (key, value) in keys {
                        let word = super::registry::word_of_key(key);
                        write!(f, " {word} {}", quoted(value))?;
                    }
                    Ok(())
                }
                EventAction::Enter {
                    team,
                    players,
                    overriding,
                } => {
                    write!(f, "EVENT ENTER {id}")?;
                    if let Some(team) = team {
                        write!(f, " TEAM {}", quoted(team))?;
                    }
                    for p in players {
                        write!(f, " {p}")?;
                    }
                    if let Some(reason) = overriding {
                        write!(f, " OVERRIDE {reason}")?;
                    }
                    Ok(())
                }
                EventAction::Draw => write!(f, "EVENT DRAW {id}"),
                EventAction::Seed => write!(f, "EVENT SEED {id} BY rating"),
                EventAction::Start => write!(f, "EVENT START {id}"),
                EventAction::Withdraw { player, reason } => {
                    write!(f, "EVENT WITHDRAW {id} {player} {reason}")
                }
                EventAction::Show => write!(f, "EVENT SHOW {id}"),
            },
            Command::Events => f.write_str("EVENTS"),
            Command::Ratings { player: None } => f.write_str("RATINGS"),
            Command::Ratings {
                player: Some(player),
            } => write!(f, "RATINGS {player}"),
            Command::PeerRefused {
                game,
                number,
                reason,
            } => write!(f, "REFUSED {game} {number} {reason}"),
        }
    }
}
