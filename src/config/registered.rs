//! Players and events the arbiter registers while the relay runs (`PLAYER ADD`, `EVENT NEW`),
//! checked by the same code and with the same messages as `[[players]]` and `[[events]]`: the
//! words are put into the table the file would hold, and that table is read and checked.
//!
//! ```
//! use ccrelay::config::registered::{event_from_keys, player_from_keys};
//! let hash = ccrelay::auth::hash_secret_cheap("s3cret").unwrap();
//! let keys = [("notation", "lan"), ("lang", "ru")];
//! let player = player_from_keys("boris", &keys, &hash).unwrap();
//! assert_eq!(player.name, "boris");
//! let error = player_from_keys("boris", &[("notation", "morse")], &hash).unwrap_err();
//! assert!(error.to_string().contains("notation"));
//! let event = event_from_keys("club", &[("time_control", "10/50")]).unwrap();
//! assert_eq!(event.name, "club");
//! ```

use std::path::Path;

use super::check::{Checker, ConfigError};
use super::events::RawEvent;
use super::players::{Player, RawPlayer};
use crate::event::Event;

/// `[[events]]` keys whose values are numbers, and those that are lists of numbers.
const NUMBERS: [&str; 6] = [
    "aprs_width",
    "delay",
    "silence_days",
    "leave_days_per_year",
    "double_after_days",
    "draw_offers_from_move",
];
const NUMBER_LISTS: [&str; 2] = ["reminder_days", "timeout_bar_days"];

/// A value as the file would hold it: a number where the key takes one, else a string.
fn value(key: &str, text: &str) -> toml::Value {
    if key == "rated" {
        match text.to_ascii_lowercase().as_str() {
            "yes" | "true" => return toml::Value::Boolean(true),
            "no" | "false" => return toml::Value::Boolean(false),
            _ => {}
        }
    }
    if NUMBERS.contains(&key)
        && let Ok(n) = text.parse::<i64>()
    {
        return toml::Value::Integer(n);
    }
    if NUMBER_LISTS.contains(&key) {
        let numbers: Result<Vec<toml::Value>, _> = text
            .split(',')
            .map(|n| n.trim().parse::<i64>().map(toml::Value::Integer))
            .collect();
        if let Ok(list) = numbers {
            return toml::Value::Array(list);
        }
    }
    toml::Value::String(text.to_owned())
}

fn table(id: &str, keys: &[(&str, &str)]) -> toml::Table {
    let mut table = toml::Table::new();
    table.insert("id".to_owned(), toml::Value::String(id.to_owned()));
    for (key, text) in keys {
        table.insert((*key).to_owned(), value(key, text));
    }
    table
}

fn unreadable(section: &str, e: impl std::fmt::Display) -> ConfigError {
    ConfigError::one(section, e.to_string())
}

/// A player registered while the relay runs: `keys` are `[[players]]` keys (`name`,
/// `notation`, `lang`, `reach`, `email` for the address, `callsign` and `aprs_width` for a
/// player by radio), `secret_hash` their new
/// secret's hash, which is also their email token's.
pub fn player_from_keys(
    id: &str,
    keys: &[(&str, &str)],
    secret_hash: &str,
) -> Result<Player, ConfigError> {
    let mut fields = table(id, &[]);
    for (key, text) in keys {
        if *key == "email" {
            let mut email = toml::Table::new();
            email.insert(
                "address".to_owned(),
                toml::Value::String((*text).to_owned()),
            );
            email.insert(
                "token_hash".to_owned(),
                toml::Value::String(secret_hash.to_owned()),
            );
            fields.insert("email".to_owned(), toml::Value::Table(email));
        } else if *key == "aprs_width" {
            fields.insert((*key).to_owned(), value("aprs_width", text));
        } else {
            fields.insert((*key).to_owned(), toml::Value::String((*text).to_owned()));
        }
    }
    if matches!(fields.get("reach"), Some(toml::Value::String(r)) if r == "link") {
        return Err(ConfigError::one(
            "player.reach",
            "a player across a link is configured with the link, not registered here",
        ));
    }
    fields.insert(
        "secret_hash".to_owned(),
        toml::Value::String(secret_hash.to_owned()),
    );
    let raw: RawPlayer = toml::Value::Table(fields)
        .try_into()
        .map_err(|e| unreadable("player", e))?;
    let mut c = Checker::new(Path::new("."));
    let player = super::players::check_one(&mut c, "player", raw);
    if player.id == "admin" {
        c.problem("player.id", "\"admin\" is the administrator's login");
    }
    c.finish(player)
}

/// An event made while the relay runs: `keys` are `[[events]]` keys (`name`, `time_control`,
/// `view`, ...).
pub fn event_from_keys(id: &str, keys: &[(&str, &str)]) -> Result<Event, ConfigError> {
    let raw: RawEvent = toml::Value::Table(table(id, keys))
        .try_into()
        .map_err(|e| unreadable("event", e))?;
    let mut c = Checker::new(Path::new("."));
    let event = super::events::check_event(&mut c, "event", raw);
    c.finish(event)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Reach;
    use crate::event::Viewing;
    use crate::notation::{Lang, Notation};

    fn hash() -> String {
        crate::auth::hash_secret_cheap("s3cret-s3cret").unwrap()
    }

    #[test]
    fn a_registered_player_is_checked_as_the_file_is() {
        let p = player_from_keys(
            "carol",
            &[
                ("name", "Carol Ames"),
                ("notation", "san"),
                ("lang", "de"),
                ("reach", "email"),
                ("email", "Carol@Example.org"),
            ],
            &hash(),
        )
        .unwrap();
        assert_eq!(p.notation, Notation::San(Lang::German));
        assert_eq!(p.reach, Reach::Email);
        let email = p.email.unwrap();
        assert_eq!(email.address, "carol@example.org");
        assert_eq!(
            email.token_hash, p.secret_hash,
            "the secret is the mail key too"
        );
        for (keys, named) in [
            (vec![("reach", "email")], "player.email"),
            (vec![("notation", "morse")], "player.notation"),
            (vec![("lang", "klingon")], "player.lang"),
            (vec![("reach", "pigeon")], "player.reach"),
            (vec![("reach", "link")], "player.reach"),
            (
                vec![("reach", "email"), ("email", "nobody")],
                "player.email.address",
            ),
        ] {
            let e = player_from_keys("carol", &keys, &hash())
                .unwrap_err()
                .to_string();
            assert!(e.contains(named), "{keys:?}: {e}");
        }
        assert!(player_from_keys("admin", &[], &hash()).is_err());
        assert!(player_from_keys("bad id!", &[], &hash()).is_err());
    }

    /// Every word `EVENT NEW` takes names a key `[[events]]` reads: a value of the wrong
    /// form is refused for its value, never as an unknown key.
    #[test]
    fn every_event_word_sets_a_key_of_the_file() {
        for (word, key) in crate::command::EVENT_KEYS {
            if let Err(e) = event_from_keys("club", &[(key, "x y")]) {
                let e = e.to_string();
                assert!(!e.contains("unknown field"), "{word} ({key}): {e}");
            }
        }
        let unknown = event_from_keys("club", &[("no_such_key", "x")]).unwrap_err();
        assert!(unknown.to_string().contains("unknown field"), "{unknown}");
    }

    #[test]
    fn a_registered_event_is_checked_as_the_file_is() {
        let e = event_from_keys(
            "club",
            &[
                ("name", "Club 2026"),
                ("time_control", "10/50"),
                ("view", "delay"),
                ("delay", "4"),
                ("reminder_days", "10,20"),
                ("silence_days", "30"),
            ],
        )
        .unwrap();
        assert_eq!(e.name, "Club 2026");
        assert!(e.rated, "rated unless it says no");
        assert!(
            !event_from_keys("friendly", &[("rated", "no")])
                .unwrap()
                .rated
        );
        assert!(event_from_keys("cup", &[("rated", "YES")]).unwrap().rated);
        assert!(event_from_keys("cup", &[("rated", "maybe")]).is_err());
        assert_eq!(e.view, Viewing::Delay(4));
        assert_eq!(e.rules.reminder_days, [10, 20]);
        assert_eq!(e.rules.silence_days, Some(30));
        // EVENT NEW's COUNTING, DOUBLE, DRAWFROM and TIMEOUTBAR: the file's keys.
        let iccf = event_from_keys(
            "wc",
            &[
                ("counting", "iccf"),
                ("double_after_days", "25"),
                ("draw_offers_from_move", "20"),
                ("timeout_bar_days", "30,90"),
            ],
        )
        .unwrap();
        assert_eq!(
            (
                iccf.rules.counting,
                iccf.rules.double_after_days,
                iccf.rules.draw_offers_from_move
            ),
            (crate::game::clock::Counting::WholeDays, Some(25), Some(20))
        );
        assert_eq!(
            iccf.timeout_bar_days,
            Some(crate::event::bar::TimeoutBar {
                first: 30,
                repeated: 90
            })
        );
        for (keys, named) in [
            (vec![("time_control", "forever")], "event.time_control"),
            (
                vec![("draw_offers_from_move", "0")],
                "event.draw_offers_from_move",
            ),
            (vec![("timeout_bar_days", "30")], "event.timeout_bar_days"),
            (
                vec![("timeout_bar_days", "90,30")],
                "event.timeout_bar_days",
            ),
            (
                vec![("timeout_bar_days", "30,0")],
                "event.timeout_bar_days[1]",
            ),
            (vec![("counting", "roughly")], "event.counting"),
            (vec![("view", "secret")], "event.view"),
            (vec![("reminder_days", "20,10")], "event.reminder_days"),
            (vec![("game", "go")], "event.game"),
            (vec![("silence_days", "many")], "event"),
        ] {
            let err = event_from_keys("club", &keys).unwrap_err().to_string();
            assert!(err.contains(named), "{keys:?}: {err}");
        }
    }
}
