//! The arbiter's words for players and events while the relay runs, and a player's own
//! `SECRET`:
//!
//! ```text
//! PLAYER ADD <id> [NAME "<name>"] [NOTATION <notation>] [LANG <lang>] [REACH tcp|email|xfcc|radio]
//!     [EMAIL <address>] [CALLSIGN <callsign>] [APRSWIDTH 45..67]
//! PLAYER SET <id> <the same keys>
//! PLAYER SET <id> RATING <rating> RD <deviation> <reason>
//! PLAYER SECRET <id>
//! PLAYERS
//! SECRET <new secret>
//! EVENT NEW <id> SYSTEM round-robin|double-round-robin|match|knockout [NAME "<name>"] [SITE "<site>"]
//!     [TIME "<time control>"] [GAME chess|draughts-ru] [VIEW public|finished|private|delay]
//!     [DELAY <plies>] [ONTIMEOUT forfeit|arbiter] [REMINDERS <days>,<days>] [SILENCE <days>]
//!     [LEAVE <days a year>] [COUNTING iccf|whole_days|exact] [DOUBLE <days>]
//!     [DRAWFROM <move>] [TIMEOUTBAR <days>,<days>] [RATED yes|no]
//! EVENT ENTER <id> [TEAM "<team>"] <player>... [OVERRIDE <reason>]
//! EVENT DRAW|START|SHOW <id>
//! EVENT SEED <id> BY rating
//! EVENT WITHDRAW <id> <player> <reason>
//! EVENTS
//! ```
//!
//! Values are checked here for their form only; the relay checks them as the configuration's
//! `[[players]]` and `[[events]]` are checked, with the same messages.

use super::tokens::{Words, bad, missing};
use super::{
    Command, CommandError, CommandErrorKind, EventAction, PlayerAction, PlayerFields, RatingSeed,
};

/// The shortest secret a player may choose (`ccrelay init` draws 24 characters).
pub const MIN_SECRET_CHARS: usize = 12;
/// The longest.
const MAX_SECRET_CHARS: usize = 200;

/// The words `EVENT NEW` takes after `SYSTEM`, and the `[[events]]` key each one sets.
pub const EVENT_KEYS: [(&str, &str); 15] = [
    ("NAME", "name"),
    ("SITE", "site"),
    ("TIME", "time_control"),
    ("GAME", "game"),
    ("VIEW", "view"),
    ("DELAY", "delay"),
    ("ONTIMEOUT", "on_timeout"),
    ("REMINDERS", "reminder_days"),
    ("SILENCE", "silence_days"),
    ("LEAVE", "leave_days_per_year"),
    ("COUNTING", "counting"),
    ("DOUBLE", "double_after_days"),
    ("DRAWFROM", "draw_offers_from_move"),
    ("TIMEOUTBAR", "timeout_bar_days"),
    ("RATED", "rated"),
];

/// The word for an `[[events]]` key (for writing a command back).
pub(super) fn word_of_key(key: &str) -> &str {
    EVENT_KEYS
        .iter()
        .find(|(_, k)| *k == key)
        .map_or(key, |(word, _)| word)
}

fn unexpected(message: String) -> CommandError {
    CommandError::new(CommandErrorKind::Unexpected, message)
}

/// `PLAYER ADD|SET|SECRET <id> ...`.
pub(super) fn player(w: &mut Words<'_>) -> Result<Command, CommandError> {
    let verb = w.arg("ADD, SET or SECRET")?;
    let action = match verb.to_ascii_uppercase().as_str() {
        "ADD" => PlayerAction::Add,
        "SET" => PlayerAction::Set,
        "SECRET" => PlayerAction::Secret,
        _ => return Err(bad(format!("{verb:?}: say PLAYER ADD, SET or SECRET"))),
    };
    let id = w.arg("player id")?;
    let mut fields = PlayerFields::default();
    if action == PlayerAction::Set && w.keyword("RATING") {
        fields.rating = Some(rating_seed(w)?);
        return Ok(Command::Player { id, action, fields });
    }
    if action != PlayerAction::Secret {
        while let Some(word) = w.word() {
            let slot = match word.to_ascii_uppercase().as_str() {
                "NAME" => &mut fields.name,
                "NOTATION" => &mut fields.notation,
                "LANG" => &mut fields.lang,
                "REACH" => &mut fields.reach,
                "EMAIL" => &mut fields.email,
                "CALLSIGN" => &mut fields.callsign,
                "APRSWIDTH" => &mut fields.aprs_width,
                _ => {
                    return Err(unexpected(format!(
                        "unexpected {word:?} (NAME, NOTATION, LANG, REACH, EMAIL, CALLSIGN, APRSWIDTH)"
                    )));
                }
            };
            if slot.is_some() {
                return Err(bad(format!("{word} given twice")));
            }
            *slot = Some(w.value(&word.to_ascii_uppercase())?);
        }
        if action == PlayerAction::Set {
            return Command::player_set(&id, fields);
        }
    }
    Ok(Command::Player { id, action, fields })
}

impl Command {
    /// `PLAYER SET` from its fields (each absent one left as it is), refused as the grammar
    /// refuses it when there is nothing to change.
    pub fn player_set(id: &str, fields: PlayerFields) -> Result<Command, CommandError> {
        if fields == PlayerFields::default() {
            return Err(missing(
                "what to change (NAME, NOTATION, LANG, REACH, EMAIL, CALLSIGN, APRSWIDTH)",
            ));
        }
        Ok(Command::Player {
            id: id.to_owned(),
            action: PlayerAction::Set,
            fields,
        })
    }

    /// `EVENT NEW` from its fields: the system as written and the `[[events]]` keys given.
    pub fn event_new(
        id: &str,
        system: &str,
        keys: Vec<(String, String)>,
    ) -> Result<Command, CommandError> {
        let system = system.trim();
        if system.is_empty() {
            return Err(missing("system (round-robin, double-round-robin, match)"));
        }
        Ok(Command::Event {
            id: id.to_owned(),
            action: EventAction::New {
                system: system.parse().map_err(bad)?,
                keys,
            },
        })
    }

    /// `EVENT ENTER` of `players` in order, without a team or an override.
    pub fn enter(event: &str, players: Vec<String>) -> Result<Command, CommandError> {
        if players.is_empty() {
            return Err(missing("players to enter"));
        }
        Ok(Command::Event {
            id: event.to_owned(),
            action: EventAction::Enter {
                team: None,
                players,
                overriding: None,
            },
        })
    }

    /// `EVENT WITHDRAW` of `player`, with the reason the grammar requires.
    pub fn withdraw(event: &str, player: &str, reason: &str) -> Result<Command, CommandError> {
        let (player, reason) = (player.trim(), reason.trim());
        if player.is_empty() {
            return Err(missing("player"));
        }
        if reason.is_empty() {
            return Err(missing("reason"));
        }
        Ok(Command::Event {
            id: event.to_owned(),
            action: EventAction::Withdraw {
                player: player.to_owned(),
                reason: reason.to_owned(),
            },
        })
    }
}

/// The lowest and highest rating `PLAYER SET ... RATING` takes.
pub const RATING_RANGE: (u32, u32) = (100, 4000);
/// The lowest and highest deviation (350: a player no one knows anything of).
pub const DEVIATION_RANGE: (u32, u32) = (30, 350);

/// `RATING <rating> RD <deviation> <reason>` after `PLAYER SET <id>`.
fn rating_seed(w: &mut Words<'_>) -> Result<RatingSeed, CommandError> {
    let number = |w: &mut Words<'_>, what: &str, (low, high): (u32, u32)| {
        let word = w.arg(what)?;
        match word.parse::<u32>() {
            Ok(n) if (low..=high).contains(&n) => Ok(n),
            _ => Err(bad(format!(
                "{word:?}: a {what} is a whole number from {low} to {high}"
            ))),
        }
    };
    let rating = number(w, "rating", RATING_RANGE)?;
    let rd = w.arg("RD")?;
    if !rd.eq_ignore_ascii_case("RD") {
        return Err(bad(format!(
            "{rd:?}: say RATING <rating> RD <deviation> <reason>"
        )));
    }
    let deviation = number(w, "deviation", DEVIATION_RANGE)?;
    let reason = w.rest_text();
    if reason.is_empty() {
        return Err(missing("reason for the rating"));
    }
    Ok(RatingSeed {
        rating,
        deviation,
        reason: reason.to_owned(),
    })
}

/// `SECRET <new secret>`: one word (a login takes the secret as one), at least
/// [`MIN_SECRET_CHARS`] characters, no control characters.
pub(super) fn secret(w: &mut Words<'_>) -> Result<Command, CommandError> {
    let secret = w.arg("the new secret")?;
    if let Some(extra) = w.word() {
        return Err(bad(format!(
            "a secret is one word, without spaces (not {extra:?} after it): LOGIN reads it so"
        )));
    }
    let chars = secret.chars().count();
    if chars < MIN_SECRET_CHARS {
        return Err(bad(format!(
            "a secret has at least {MIN_SECRET_CHARS} characters"
        )));
    }
    if chars > MAX_SECRET_CHARS || secret.chars().any(char::is_control) {
        return Err(bad(format!(
            "a secret has at most {MAX_SECRET_CHARS} characters and no control characters"
        )));
    }
    Ok(Command::Secret { secret })
}

/// `EVENT NEW|ENTER|DRAW|START|WITHDRAW|SHOW <id> ...`.
pub(super) fn event(w: &mut Words<'_>) -> Result<Command, CommandError> {
    let verb = w.arg("NEW, ENTER, DRAW, START, WITHDRAW or SHOW")?;
    let id = w.arg("event id")?;
    let action = match verb.to_ascii_uppercase().as_str() {
        "NEW" => {
            let system_word = w.arg("SYSTEM")?;
            if !system_word.eq_ignore_ascii_case("SYSTEM") {
                return Err(bad(format!(
                    "{system_word:?}: say SYSTEM round-robin, double-round-robin or match"
                )));
            }
            let system = w
                .arg("system (round-robin, double-round-robin, match)")?
                .parse()
                .map_err(bad)?;
            let mut keys: Vec<(String, String)> = Vec::new();
            while let Some(word) = w.word() {
                let upper = word.to_ascii_uppercase();
                let Some((_, key)) = EVENT_KEYS.iter().find(|(k, _)| *k == upper) else {
                    let words: Vec<&str> = EVENT_KEYS.iter().map(|(k, _)| *k).collect();
                    return Err(unexpected(format!(
                        "unexpected {word:?} ({})",
                        words.join(", ")
                    )));
                };
                if keys.iter().any(|(k, _)| k == key) {
                    return Err(bad(format!("{upper} given twice")));
                }
                keys.push(((*key).to_owned(), w.value(&upper)?));
            }
            EventAction::New { system, keys }
        }
        "ENTER" => {
            let mut team = None;
            if let Some(word) = w.word() {
                if word.eq_ignore_ascii_case("TEAM") {
                    team = Some(w.value("TEAM")?);
                } else {
                    // Not TEAM: the first player; read it again below.
                    return enter(w, id, None, Some(word));
                }
            }
            return enter(w, id, team, None);
        }
        "DRAW" => EventAction::Draw,
        "SEED" => {
            let by = w.arg("BY rating")?;
            let what = w.arg("BY rating")?;
            if !by.eq_ignore_ascii_case("BY") || !what.eq_ignore_ascii_case("rating") {
                return Err(bad(format!("{by} {what}: say EVENT SEED {id} BY rating")));
            }
            w.done()?;
            EventAction::Seed
        }
        "START" => EventAction::Start,
        "SHOW" => EventAction::Show,
        "WITHDRAW" => {
            let player = w.arg("player")?;
            let reason = w.rest_text();
            if reason.is_empty() {
                return Err(missing("reason"));
            }
            EventAction::Withdraw {
                player,
                reason: reason.to_owned(),
            }
        }
        _ => {
            return Err(bad(format!(
                "{verb:?}: say EVENT NEW, ENTER, DRAW, START, WITHDRAW or SHOW"
            )));
        }
    };
    Ok(Command::Event { id, action })
}

/// `EVENT ENTER`'s players: `first` (already read) and the words after it, up to
/// `OVERRIDE <reason>` (the arbiter's reason for entering players a loss on time bars).
fn enter(
    w: &mut Words<'_>,
    id: String,
    team: Option<String>,
    first: Option<&str>,
) -> Result<Command, CommandError> {
    let mut players: Vec<String> = Vec::new();
    let mut overriding = None;
    let mut next = first.or_else(|| w.word());
    while let Some(word) = next {
        if word.eq_ignore_ascii_case("OVERRIDE") {
            let reason = w.rest_text();
            if reason.is_empty() {
                return Err(missing("reason for the override"));
            }
            overriding = Some(reason.to_owned());
            break;
        }
        players.push(word.to_owned());
        next = w.word();
    }
    if players.is_empty() {
        return Err(missing("players to enter"));
    }
    Ok(Command::Event {
        id,
        action: EventAction::Enter {
            team,
            players,
            overriding,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Command {
        Command::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    #[test]
    fn player_words_read_quoted_names_and_write_back_the_same() {
        let c = parse(
            r#"PLAYER ADD carol NAME "Carol  Ames" NOTATION lan LANG ru REACH email EMAIL carol@example.org"#,
        );
        let Command::Player { id, action, fields } = &c else {
            panic!("{c:?}")
        };
        assert_eq!((id.as_str(), *action), ("carol", PlayerAction::Add));
        assert_eq!(fields.name.as_deref(), Some("Carol  Ames"));
        assert_eq!(fields.email.as_deref(), Some("carol@example.org"));
        assert_eq!(Command::parse(&c.to_string()).unwrap(), c);
        assert_eq!(
            parse("player secret carol"),
            Command::Player {
                id: "carol".into(),
                action: PlayerAction::Secret,
                fields: PlayerFields::default()
            }
        );
    }

    #[test]
    fn bad_player_words_are_refused_with_the_reason() {
        for (line, why) in [
            ("PLAYER", "missing"),
            ("PLAYER KICK carol", "say PLAYER ADD"),
            ("PLAYER SET carol", "what to change"),
            ("PLAYER ADD carol NAME", "missing NAME"),
            (r#"PLAYER ADD carol NAME "Carol"#, "no closing quote"),
            (r#"PLAYER ADD carol NAME "Carol"x"#, "a space must follow"),
            ("PLAYER ADD carol NAME a NAME b", "twice"),
            ("PLAYER ADD carol COLOUR red", "unexpected"),
            ("SECRET short", "at least 12"),
            ("SECRET", "missing"),
        ] {
            let e = Command::parse(line).unwrap_err().to_string();
            assert!(e.contains(why), "{line}: {e}");
        }
    }

    #[test]
    fn a_starting_rating_reads_and_writes_back_the_same() {
        let c = parse("player set dana rating 1850 rd 120 ICCF list 2026/4, 40 games");
        let Command::Player { id, action, fields } = &c else {
            panic!("{c:?}")
        };
        assert_eq!((id.as_str(), *action), ("dana", PlayerAction::Set));
        let seed = fields.rating.as_ref().expect("a rating");
        assert_eq!((seed.rating, seed.deviation), (1850, 120));
        assert_eq!(seed.reason, "ICCF list 2026/4, 40 games");
        assert_eq!(Command::parse(&c.to_string()).unwrap(), c);
        assert_eq!(
            parse("RATINGS dana"),
            Command::Ratings {
                player: Some("dana".into())
            }
        );
        assert_eq!(parse("RATINGS").to_string(), "RATINGS");
        for (line, why) in [
            ("PLAYER SET dana RATING 1850 RD 120", "missing reason"),
            ("PLAYER SET dana RATING 1850 120 why", "say RATING"),
            ("PLAYER SET dana RATING 99 RD 120 why", "from 100 to 4000"),
            ("PLAYER SET dana RATING 1850 RD 400 why", "from 30 to 350"),
            ("PLAYER SET dana RATING high RD 120 why", "whole number"),
            ("RATINGS dana boris", "unexpected"),
        ] {
            let e = Command::parse(line).unwrap_err().to_string();
            assert!(e.contains(why), "{line}: {e}");
        }
    }

    #[test]
    fn a_secret_is_one_word() {
        assert_eq!(
            parse("SECRET correct-horse-battery"),
            Command::Secret {
                secret: "correct-horse-battery".into()
            }
        );
        let e = Command::parse("SECRET correct horse battery").unwrap_err();
        assert!(e.to_string().contains("one word"), "{e}");
    }

    #[test]
    fn event_words_read_and_write_back_the_same() {
        let c = parse(
            r#"EVENT NEW club SYSTEM round-robin NAME "Club 2026" TIME 10/50 VIEW delay DELAY 4 REMINDERS 10,20"#,
        );
        let Command::Event {
            id,
            action: EventAction::New { system, keys },
        } = &c
        else {
            panic!("{c:?}")
        };
        assert_eq!(
            (id.as_str(), *system),
            ("club", crate::event::System::RoundRobin)
        );
        assert_eq!(keys[0], ("name".into(), "Club 2026".into()));
        assert_eq!(keys[1], ("time_control".into(), "10/50".into()));
        assert_eq!(Command::parse(&c.to_string()).unwrap(), c);
        for line in [
            "EVENT ENTER club alice boris carol",
            "EVENT ENTER club carol OVERRIDE lost on a server outage, see the minutes",
            "EVENT NEW wc SYSTEM round-robin COUNTING iccf DOUBLE 20 DRAWFROM 20 TIMEOUTBAR 30,90",
            r#"EVENT ENTER m TEAM "Krasnoyarsk" a1 a2"#,
            "EVENT DRAW club",
            "EVENT START club",
            "EVENT SHOW club",
            "EVENT WITHDRAW club carol ill health",
            "EVENTS",
        ] {
            let c = parse(line);
            assert_eq!(Command::parse(&c.to_string()).unwrap(), c, "{line}");
        }
        let Command::Event {
            action:
                EventAction::Enter {
                    team,
                    players,
                    overriding,
                },
            ..
        } = parse(r#"EVENT ENTER m TEAM "Krasnoyarsk club" a1 a2"#)
        else {
            panic!()
        };
        assert_eq!(team.as_deref(), Some("Krasnoyarsk club"));
        assert_eq!(players, ["a1", "a2"]);
        assert_eq!(overriding, None);
        let Command::Event {
            action:
                EventAction::Enter {
                    players,
                    overriding,
                    ..
                },
            ..
        } = parse("EVENT ENTER club carol dmitri override  appeal upheld")
        else {
            panic!()
        };
        assert_eq!(players, ["carol", "dmitri"]);
        assert_eq!(overriding.as_deref(), Some("appeal upheld"));
    }

    #[test]
    fn bad_event_words_are_refused_with_the_reason() {
        for (line, why) in [
            ("EVENT NEW club", "missing SYSTEM"),
            ("EVENT NEW club round-robin", "say SYSTEM"),
            ("EVENT NEW club SYSTEM swiss", "not a system"),
            ("EVENT NEW club SYSTEM match COLOUR red", "unexpected"),
            ("EVENT NEW club SYSTEM match NAME a NAME b", "twice"),
            ("EVENT ENTER club", "missing players"),
            ("EVENT ENTER club TEAM", "missing TEAM"),
            ("EVENT ENTER club OVERRIDE appeal", "missing players"),
            (
                "EVENT ENTER club carol OVERRIDE",
                "missing reason for the override",
            ),
            (
                "EVENT ENTER club carol OVERRIDE bad\u{202E}reason",
                "U+202E",
            ),
            ("EVENT WITHDRAW club carol", "missing reason"),
            ("EVENT PAIR club", "say EVENT NEW"),
        ] {
            let e = Command::parse(line).unwrap_err().to_string();
            assert!(e.contains(why), "{line}: {e}");
        }
    }
}
