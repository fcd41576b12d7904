//! `[[events]]`: tournaments and matches with their time rules; and `[[games]]`, the games
//! started at launch, each between two configured players and maybe in an event.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::check::{Checker, Field};
use super::players::Players;
use crate::event::bar::TimeoutBar;
pub use crate::event::{Event, Viewing};
use crate::game::clock::{Counting, ICCF_DOUBLE_AFTER_DAYS, OnTimeout, Rules, TimeControl};
use crate::game::{Authority, Game, Kind};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawEvent {
    id: Option<String>,
    name: Option<String>,
    site: Option<String>,
    game: Option<Field<Kind>>,
    time_control: Option<String>,
    on_timeout: Option<Field<OnTimeout>>,
    reminder_days: Option<Vec<i64>>,
    silence_days: Option<i64>,
    leave_days_per_year: Option<i64>,
    counting: Option<String>,
    double_after_days: Option<i64>,
    draw_offers_from_move: Option<i64>,
    timeout_bar_days: Option<Vec<i64>>,
    rated: Option<bool>,
    view: Option<String>,
    delay: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGame {
    id: Option<String>,
    event: Option<String>,
    game: Option<Field<Kind>>,
    white: Option<String>,
    black: Option<String>,
    fen: Option<String>,
    round: Option<String>,
    authority: Option<String>,
}

#[derive(Clone, Debug)]
pub struct GameConfig {
    pub id: String,
    /// The game played: its own `game`, else its event's, else chess.
    pub kind: Kind,
    pub event: Option<String>,
    pub white: String,
    pub black: String,
    pub fen: Option<String>,
    pub round: Option<String>,
    /// Between two nodes, whose node keeps the record (docs/link.md); White's by default.
    pub authority: Authority,
}

/// Checks `[[events]]`; ids are unique.
pub(super) fn check(c: &mut Checker, raw: Vec<RawEvent>) -> BTreeMap<String, Event> {
    let mut events = BTreeMap::new();
    for (i, e) in raw.into_iter().enumerate() {
        let prefix = format!("events[{i}]");
        let event = check_event(c, &prefix, e);
        let id = event.id.clone();
        if events.insert(id.clone(), event).is_some() {
            c.problem(format!("{prefix}.id"), format!("{id:?} is used twice"));
        }
    }
    events
}

pub(super) fn check_event(c: &mut Checker, prefix: &str, e: RawEvent) -> Event {
    let key = |field: &str| format!("{prefix}.{field}");
    let id = c.id(&key("id"), e.id);
    let d = Rules::default();
    let time_control = read_time_control(c, &key, e.time_control, d.time_control);
    let on_timeout = c
        .read(&key("on_timeout"), e.on_timeout)
        .unwrap_or(d.on_timeout);
    let game = c.read(&key("game"), e.game).unwrap_or_default();
    let reminder_days = read_reminder_days(c, &key, e.reminder_days);
    let silence_days = e
        .silence_days
        .map(|days| c.positive(&key("silence_days"), Some(days), 1, 3650) as u32);
    let triple_block = matches!(time_control, TimeControl::TripleBlock(_));
    // A Triple Block game has no leave: its bank replaces it.
    let leave_default = if triple_block {
        0
    } else {
        d.leave_days_per_year
    };
    let leave_days_per_year = c.number(
        &key("leave_days_per_year"),
        e.leave_days_per_year,
        0,
        366,
        u64::from(leave_default),
    ) as u32;
    let (counting, double_default) = read_counting(c, &key, e.counting, triple_block);
    let double_after_days = e
        .double_after_days
        .map(|days| c.positive(&key("double_after_days"), Some(days), 1, 3650) as u32)
        .or(double_default);
    // "No draw offer before move N": from move 1 is no rule at all, but harmless.
    let draw_offers_from_move = e
        .draw_offers_from_move
        .map(|n| c.positive(&key("draw_offers_from_move"), Some(n), 1, 1000) as u32);
    let timeout_bar_days = read_timeout_bar(c, &key, e.timeout_bar_days);
    let view = read_view(c, &key, e.view, e.delay);
    Event {
        view,
        system: None,
        name: c.name(&key("name"), e.name).unwrap_or_else(|| id.clone()),
        site: c
            .name(&key("site"), e.site)
            .unwrap_or_else(|| "?".to_owned()),
        game,
        rules: {
            let rules = Rules {
                time_control,
                on_timeout,
                reminder_days,
                silence_days,
                leave_days_per_year,
                counting,
                double_after_days,
                draw_offers_from_move,
            };
            if let Some(problem) = rules.problem() {
                c.problem(key("time_control"), problem);
            }
            rules
        },
        timeout_bar_days,
        rated: e.rated.unwrap_or(true),
        id,
    }
}

/// `time_control`, in the words the rules write it (`10 moves in 50 days`); `default` when
/// absent or wrong.
fn read_time_control(
    c: &mut Checker,
    key: &impl Fn(&str) -> String,
    time_control: Option<String>,
    default: TimeControl,
) -> TimeControl {
    match time_control.as_deref().map(str::parse::<TimeControl>) {
        None => default,
        Some(Ok(tc)) => tc,
        Some(Err(err)) => {
            c.problem(key("time_control"), err);
            default
        }
    }
}

/// `reminder_days`: each a number of days, in ascending order.
fn read_reminder_days(
    c: &mut Checker,
    key: &impl Fn(&str) -> String,
    reminder_days: Option<Vec<i64>>,
) -> Vec<u32> {
    let mut days_read = Vec::new();
    for (j, days) in reminder_days.unwrap_or_default().into_iter().enumerate() {
        let days = c.positive(&key(&format!("reminder_days[{j}]")), Some(days), 1, 3650);
        days_read.push(days as u32);
    }
    if !days_read.is_sorted_by(|a, b| a < b) {
        c.problem(key("reminder_days"), "must be ascending");
    }
    days_read
}

/// `counting`: how a move's thinking is counted, and the day after which days count double
/// unless `double_after_days` says otherwise. ICCF's counting: whole days, doubled past the
/// 20th day on one move (its Triple Block keeps its own: to the second, never doubled).
fn read_counting(
    c: &mut Checker,
    key: &impl Fn(&str) -> String,
    counting: Option<String>,
    triple_block: bool,
) -> (Counting, Option<u32>) {
    match counting.as_deref() {
        None | Some("exact") => (Counting::Exact, None),
        Some("whole_days") => (Counting::WholeDays, None),
        Some("iccf") if triple_block => (Counting::Exact, None),
        Some("iccf") => (Counting::WholeDays, Some(ICCF_DOUBLE_AFTER_DAYS)),
        Some(other) => {
            c.problem(
                key("counting"),
                format!("{other:?} is not a way of counting time (exact, whole_days, iccf)"),
            );
            (Counting::Exact, None)
        }
    }
}

/// `timeout_bar_days`: the days a player is barred from entering events after a loss on
/// time, and after one while barred.
fn read_timeout_bar(
    c: &mut Checker,
    key: &impl Fn(&str) -> String,
    timeout_bar_days: Option<Vec<i64>>,
) -> Option<TimeoutBar> {
    match timeout_bar_days.as_deref() {
        None => None,
        Some(&[first, repeated]) => {
            let first = c.positive(&key("timeout_bar_days[0]"), Some(first), 1, 3650) as u32;
            let repeated = c.positive(&key("timeout_bar_days[1]"), Some(repeated), 1, 3650) as u32;
            if repeated < first {
                c.problem(
                    key("timeout_bar_days"),
                    "the bar under a bar (the second number) is at least the first",
                );
            }
            Some(TimeoutBar { first, repeated })
        }
        Some(_) => {
            c.problem(
                key("timeout_bar_days"),
                "two numbers of days: after a loss on time, and after one while barred (ICCF: [30, 90])",
            );
            None
        }
    }
}

/// `view` and `delay`: who may watch the event's games, and when.
fn read_view(
    c: &mut Checker,
    key: &impl Fn(&str) -> String,
    view: Option<String>,
    delay: Option<i64>,
) -> Viewing {
    match (view.as_deref(), delay) {
        (None | Some("public"), None) => Viewing::Public,
        (Some("finished"), None) => Viewing::Finished,
        (Some("private"), None) => Viewing::Private,
        (None | Some("delay"), Some(n)) => {
            Viewing::Delay(c.positive(&key("delay"), Some(n), 1, 1000) as u32)
        }
        (Some("delay"), None) => {
            c.problem(
                key("delay"),
                "required with view = \"delay\" (plies hidden)",
            );
            Viewing::Public
        }
        (Some(_), Some(_)) => {
            c.problem(key("delay"), "goes only with view = \"delay\"");
            Viewing::Public
        }
        (Some(other), None) => {
            c.problem(
                key("view"),
                format!("{other:?} is not a viewing rule (public, delay, finished, private)"),
            );
            Viewing::Public
        }
    }
}

/// Checks `[[games]]` against the players and events: ids unique, both players known and
/// different, the event known, the FEN a position.
pub(super) fn check_games(
    c: &mut Checker,
    raw: Vec<RawGame>,
    players: &Players,
    events: &BTreeMap<String, Event>,
) -> Vec<GameConfig> {
    let mut games: Vec<GameConfig> = Vec::new();
    // Ids seen so far: a federation's config may list tens of thousands of games.
    let mut ids = std::collections::HashSet::new();
    for (i, g) in raw.into_iter().enumerate() {
        let key = |field: &str| format!("games[{i}].{field}");
        let id = c.game_id(&key("id"), g.id);
        let white = c.id(&key("white"), g.white);
        let black = c.id(&key("black"), g.black);
        for (field, player) in [("white", &white), ("black", &black)] {
            if !player.is_empty() && !players.contains_key(player) {
                c.problem(key(field), format!("no player {player:?}"));
            }
        }
        if !white.is_empty() && white == black {
            c.problem(key("black"), "a player cannot play themself");
        }
        if let Some(event) = &g.event
            && !events.contains_key(event)
        {
            c.problem(key("event"), format!("no event {event:?}"));
        }
        let kind = c
            .read(&key("game"), g.game)
            .or_else(|| Some(events.get(g.event.as_deref()?)?.game))
            .unwrap_or_default();
        if let Some(fen) = &g.fen
            && let Err(e) = Game::of_kind(kind, &id, &white, &black, Some(fen))
        {
            c.problem(key("fen"), e);
        }
        if !ids.insert(id.clone()) {
            c.problem(key("id"), format!("{id:?} is used twice"));
        }
        let authority = match g.authority.as_deref().map(str::parse::<Authority>) {
            None => Authority::White,
            Some(Ok(a)) => a,
            Some(Err(e)) => {
                c.problem(key("authority"), e);
                Authority::White
            }
        };
        games.push(GameConfig {
            id,
            kind,
            event: g.event,
            white,
            black,
            fen: g.fen,
            round: c.name(&key("round"), g.round),
            authority,
        });
    }
    games
}

#[cfg(test)]
mod tests {
    use super::Viewing;
    use crate::config::Config;
    use std::path::Path;

    fn view(keys: &str) -> Result<Viewing, String> {
        let text = format!("[[events]]\nid = \"e\"\n{keys}");
        Config::from_toml(&text, Path::new("."))
            .map(|c| c.events["e"].view)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn viewing_rules_are_read_and_checked() {
        assert_eq!(view(""), Ok(Viewing::Public));
        assert_eq!(view("view = \"public\"\n"), Ok(Viewing::Public));
        assert_eq!(view("view = \"finished\"\n"), Ok(Viewing::Finished));
        assert_eq!(view("view = \"private\"\n"), Ok(Viewing::Private));
        assert_eq!(view("view = \"delay\"\ndelay = 4\n"), Ok(Viewing::Delay(4)));
        assert_eq!(view("delay = 2\n"), Ok(Viewing::Delay(2)));
        for (keys, named) in [
            ("view = \"delay\"\n", "events[0].delay"),
            ("view = \"delay\"\ndelay = 0\n", "events[0].delay"),
            ("view = \"private\"\ndelay = 3\n", "events[0].delay"),
            ("view = \"secret\"\n", "events[0].view"),
        ] {
            let e = view(keys).unwrap_err();
            assert!(e.contains(named), "{keys}: {e}");
        }
    }

    fn rules(keys: &str) -> Result<crate::game::clock::Rules, String> {
        let text = format!("[[events]]\nid = \"e\"\n{keys}");
        Config::from_toml(&text, Path::new("."))
            .map(|c| c.events["e"].rules.clone())
            .map_err(|e| e.to_string())
    }

    /// ICCF's counting is the event's to declare: its days whole, doubled past the 20th by
    /// default; an event that says nothing counts to the second, as before.
    #[test]
    fn counting_and_doubling_are_read_and_checked() {
        use crate::game::clock::{Counting, Rules, TimeControl};
        assert_eq!(rules(""), Ok(Rules::default()));
        let iccf = rules("counting = \"iccf\"\n").unwrap();
        assert_eq!(
            (iccf.counting, iccf.double_after_days),
            (Counting::WholeDays, Some(20))
        );
        let own = rules("counting = \"iccf\"\ndouble_after_days = 30\n").unwrap();
        assert_eq!(own.double_after_days, Some(30));
        let whole = rules("counting = \"whole_days\"\n").unwrap();
        assert_eq!(
            (whole.counting, whole.double_after_days),
            (Counting::WholeDays, None)
        );
        // Triple Block: its own counting under "iccf", and no leave by default.
        let block = rules(
            "time_control = \"triple block 50 days + 3 days per move, bank 75\"\ncounting = \"iccf\"\n",
        )
        .unwrap();
        assert!(matches!(block.time_control, TimeControl::TripleBlock(_)));
        assert_eq!(
            (
                block.counting,
                block.double_after_days,
                block.leave_days_per_year
            ),
            (Counting::Exact, None, 0)
        );
        for (keys, says) in [
            ("counting = \"roughly\"\n", "events[0].counting"),
            ("double_after_days = 0\n", "events[0].double_after_days"),
            (
                "time_control = \"triple block 50 days + 3 days per move, bank 75\"\nleave_days_per_year = 10\n",
                "no leave",
            ),
            (
                "time_control = \"triple block 50 days + 3 days per move, bank 75\"\ndouble_after_days = 20\n",
                "never doubles",
            ),
            (
                "time_control = \"triple block 50 days + 3 days per move, bank 75\"\nsilence_days = 40\n",
                "no silence limit",
            ),
            (
                "time_control = \"30 days + 1 day per move, max 20\"\n",
                "events[0].time_control",
            ),
        ] {
            let e = rules(keys).unwrap_err();
            assert!(e.contains(says), "{keys}: {e}");
        }
    }

    /// "No draw offer before move N" and ICCF's bar after a loss on time, as the file writes
    /// them; both off unless set.
    #[test]
    fn the_draw_rule_and_the_timeout_bar_are_read_and_checked() {
        use crate::event::bar::TimeoutBar;
        let event = |keys: &str| {
            let text = format!("[[events]]\nid = \"e\"\n{keys}");
            Config::from_toml(&text, Path::new("."))
                .map(|c| c.events["e"].clone())
                .map_err(|e| e.to_string())
        };
        let plain = event("").unwrap();
        assert_eq!(
            (plain.rules.draw_offers_from_move, plain.timeout_bar_days),
            (None, None)
        );
        let iccf = event("draw_offers_from_move = 20\ntimeout_bar_days = [30, 90]\n").unwrap();
        assert_eq!(iccf.rules.draw_offers_from_move, Some(20));
        assert_eq!(
            iccf.timeout_bar_days,
            Some(TimeoutBar {
                first: 30,
                repeated: 90
            })
        );
        for (keys, says) in [
            (
                "draw_offers_from_move = 0\n",
                "events[0].draw_offers_from_move",
            ),
            ("timeout_bar_days = [30]\n", "two numbers of days"),
            ("timeout_bar_days = [30, 90, 180]\n", "two numbers of days"),
            ("timeout_bar_days = [90, 30]\n", "at least the first"),
            (
                "timeout_bar_days = [0, 90]\n",
                "events[0].timeout_bar_days[0]",
            ),
        ] {
            let e = event(keys).unwrap_err();
            assert!(e.contains(says), "{keys}: {e}");
        }
    }

    /// Names a person reads pass the one text check; a game id is of the safe set.
    #[test]
    fn names_pass_the_text_check_and_game_ids_are_safe() {
        let e = view("name = \"Cup \\u202E1-0\"\nsite = \"a\\nb\"\n").unwrap_err();
        assert!(e.contains("events[0].name") && e.contains("U+202E"), "{e}");
        assert!(e.contains("events[0].site") && e.contains("control"), "{e}");
        assert_eq!(view("name = \"Кубок 2027\"\n"), Ok(Viewing::Public));
        let hash = crate::auth::hash_secret_cheap("x").expect("hash");
        let text = format!(
            "[[players]]\nid = \"a\"\nname = \"ad\\u200Bmin\"\nsecret_hash = \"{hash}\"\n\
             [[players]]\nid = \"b\"\nsecret_hash = \"{hash}\"\n\
             [[games]]\nid = \"g.1\"\nwhite = \"a\"\nblack = \"b\"\nround = \"1\\u2028\"\n"
        );
        let e = Config::from_toml(&text, Path::new("."))
            .map(|_| ())
            .unwrap_err()
            .to_string();
        for key in ["players[0].name", "games[0].id", "games[0].round"] {
            assert!(e.contains(key), "{key} not in {e}");
        }
    }
}
