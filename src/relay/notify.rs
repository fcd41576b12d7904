//! The mail when it is a player's move (`NOTIFY`, docs/web.md "Mail when it is your move"): the
//! outbox rows that ask for it, for a reader of their own (`notify:<player>`), so that the
//! email transport sends them as they come and a restart neither loses nor repeats one; and
//! the hour a daily digest comes due.
//!
//! A row only says that a move may wait (`Notice::YourMove`) or that a digest came due
//! (`Notice::Digest`): the mail is made when it is sent, from the games as they then stand,
//! so a move answered meanwhile, or a game over, sends nothing.

use jiff::Timestamp;
use jiff::civil::Time;
use jiff::tz::TimeZone;

use crate::command::Notify;
use crate::config::{Player, Reach};
use crate::journal::notice::{Notice, Side};
use crate::journal::{NewOutbox, Record};
use crate::relay::people::People;

/// What a notice mail's reader key starts with: `notify:alice`.
const READER_PREFIX: &str = "notify:";

/// The outbox's reader key of `player`'s notice mails.
pub fn reader(player: &str) -> String {
    format!("{READER_PREFIX}{player}")
}

/// The player whose notice mails an outbox reader key holds, if it is such a key.
pub fn player_of_reader(reader: &str) -> Option<&str> {
    reader.strip_prefix(READER_PREFIX)
}

/// `player`'s setting, if they are to be mailed at all: a player reached by mail already
/// receives every move by mail, and one across a link is their own node's.
pub fn wanted(player: &Player) -> Option<&Notify> {
    match (&player.reach, &player.notify) {
        (Reach::Email | Reach::Link(_), _) | (_, None | Some(Notify::Off)) => None,
        (_, Some(notify)) => Some(notify),
    }
}

/// The game an outbox row tells its reader they are to move in: a move by their opponent, a
/// game they start as White.
fn waiting_in(notice: &Notice) -> Option<&str> {
    match notice {
        Notice::Move(m) => Some(&m.game),
        Notice::GameStarted {
            game,
            side: Side::White,
            ..
        } => Some(game),
        _ => None,
    }
}

/// Adds to `records` a notice mail's row for each row telling a player who asked for one at
/// each move (`NOTIFY EACH`) that a move may now wait for them; one a game and player.
pub(super) fn add_rows(people: &People, records: &mut [Record]) {
    if !people.anyone_notified {
        return;
    }
    let mut added: Vec<(String, String)> = Vec::new();
    for record in records.iter_mut() {
        let mut rows = Vec::new();
        for row in &record.outbox {
            let Some(game) = waiting_in(&row.notice) else {
                continue;
            };
            let each = people
                .players
                .get(&row.player)
                .and_then(wanted)
                .is_some_and(|n| matches!(n, Notify::Each { .. }));
            let key = (row.player.clone(), game.to_owned());
            if each && !added.contains(&key) {
                rows.push(NewOutbox::notice(
                    &reader(&row.player),
                    Notice::YourMove {
                        game: game.to_owned(),
                    },
                ));
                added.push(key);
            }
        }
        record.outbox.extend(rows);
    }
}

/// The latest instant at or before `now` when it was `hour` o'clock in `zone` (UTC when none,
/// or when the zone is not known here): the instant the digest of that day came due. `None`
/// only at the very start of time.
pub fn last_due(hour: u8, zone: Option<&str>, now: Timestamp) -> Option<Timestamp> {
    let tz = zone
        .and_then(|z| TimeZone::get(z).ok())
        .unwrap_or(TimeZone::UTC);
    let at = Time::new(i8::try_from(hour).ok()?, 0, 0, 0).ok()?;
    let today = now.to_zoned_datetime(tz.clone()).date();
    for day in [Some(today), today.yesterday().ok()].into_iter().flatten() {
        // A gap (a clock moved forward over the hour) puts it just after the gap.
        let due = day
            .to_datetime(at)
            .to_zoned_datetime(tz.clone())
            .ok()?
            .timestamp();
        if due <= now {
            return Some(due);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(text: &str) -> Timestamp {
        text.parse().expect("a time")
    }

    #[test]
    fn a_digest_is_due_at_the_last_such_hour() {
        let now = t("2026-12-05T10:30:00Z");
        assert_eq!(last_due(8, None, now), Some(t("2026-12-05T08:00:00Z")));
        assert_eq!(last_due(10, None, now), Some(t("2026-12-05T10:00:00Z")));
        assert_eq!(last_due(11, None, now), Some(t("2026-12-04T11:00:00Z")));
        assert_eq!(last_due(0, None, now), Some(t("2026-12-05T00:00:00Z")));
        // Moscow is three hours ahead of UTC: 8 there is 5 in UTC.
        assert_eq!(
            last_due(8, Some("Europe/Moscow"), now),
            Some(t("2026-12-05T05:00:00Z"))
        );
        assert_eq!(
            last_due(14, Some("Europe/Moscow"), now),
            Some(t("2026-12-04T11:00:00Z"))
        );
        // A zone not known here is read as UTC.
        assert_eq!(
            last_due(8, Some("Nowhere/Atlantis"), now),
            Some(t("2026-12-05T08:00:00Z"))
        );
    }

    #[test]
    fn the_reader_key_names_its_player() {
        assert_eq!(reader("alice"), "notify:alice");
        assert_eq!(player_of_reader("notify:alice"), Some("alice"));
        assert_eq!(player_of_reader("alice"), None);
    }
}
