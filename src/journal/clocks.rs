//! What `ccrelay journal verify` checks of the clocks: every game's clocks recomputed from the
//! record, entry by entry, under the rules the game was started with, and every loss on time
//! and every result held against them.
//!
//! The relay lets the clock act first: before it records anything a player does in a game, it
//! records the loss on time (or the arbiter's flag) the clock requires at that instant
//! (`relay::handle::clock::settle`). So a record the relay wrote has two properties, which
//! anyone holding the journal can check with the same engine:
//!
//! - a loss on time is recorded only when the clock says the side to move is out at the
//!   entry's instant, for the reason the clock gives (time control or silence), as a forfeit
//!   exactly when the rules say a loss on time is one;
//! - no move, claim, resignation or agreed draw is recorded at an instant when the clock
//!   required a loss on time first.
//!
//! A journal that breaks either (its times edited, a result written by hand, a loss on time
//! recorded early) fails verification. The arbiter's adjudications are not held to the clock:
//! deciding a game is the arbiter's authority. A game played across a link whose record the
//! other node keeps is held to the first property only (its entries carry that node's times;
//! the loss on time is that node's to record, and it may reach this node after the player here
//! acted).
//!
//! The daemon's own replay at start does not check: a record is what was recorded, and a
//! check is a verdict for the verifier to give.
//!
//! ```
//! use ccrelay::journal::clocks::ClockCheck;
//! let check = ClockCheck::default();
//! assert_eq!(check.games_timed(), 0);
//! ```

use std::collections::BTreeSet;

use jiff::Timestamp;
use shakmaty::Color;

use super::Entry;
use crate::game::clock::{OnTimeout, TimeControl};
use crate::game::days_hours::DaysHours;
use crate::game::{Action, ColorName, Due, Game};

/// Channel of entries a node takes from the other node's record.
const LINK: &str = "link";

/// The clocks' verdict so far, carried through a replay by `journal verify`.
#[derive(Clone, Debug, Default)]
pub struct ClockCheck {
    /// Games whose record the other node of a link keeps (started by an entry from it).
    kept_elsewhere: BTreeSet<String>,
    /// Games with a time limit whose entries were held to their clocks.
    timed: BTreeSet<String>,
}

impl ClockCheck {
    /// How many games with a time limit had their clocks checked.
    pub fn games_timed(&self) -> usize {
        self.timed.len()
    }

    /// Notes a game's start: whether its record comes from the other node of a link.
    pub fn started(&mut self, start: &Entry, game: &Game) {
        if start.channel == LINK {
            self.kept_elsewhere.insert(start.game.clone());
        }
        if game.rules().time_control != TimeControl::Unlimited {
            self.timed.insert(start.game.clone());
        }
    }

    /// Checks `action` by `color`, recorded at `at` by entry `e`, against the clock of `game`
    /// as the record before it leaves it. The reason is for the verifier's report.
    pub fn before(
        &self,
        e: &Entry,
        game: &Game,
        color: Color,
        action: &Action,
        at: Timestamp,
    ) -> Result<(), String> {
        if game.result().is_some() {
            return Ok(());
        }
        let due = match game.due(at) {
            Some(Due::TimeUp { color, overdue }) => Some((color, overdue)),
            _ => None,
        };
        match action {
            Action::TimeUp { overdue, forfeit } => {
                let Some((out, clock_says)) = due else {
                    if game.flagged() {
                        return Err(format!(
                            "a second loss on time of {} recorded at {at} on a move already flagged",
                            e.player
                        ));
                    }
                    let time = game.side_time(color, at);
                    return Err(format!(
                        "a loss on time of {} recorded at {at}, but the clock gives it {} left{}",
                        e.player,
                        left_words(time.left),
                        time.out_at
                            .map(|t| format!(" (out at {t})"))
                            .unwrap_or_default()
                    ));
                };
                if out != color || clock_says != *overdue {
                    return Err(format!(
                        "a loss on time of {} recorded ({overdue}), but the clock gives {} ({clock_says})",
                        e.player,
                        ColorName(out)
                    ));
                }
                let rules_say = game.rules().on_timeout == OnTimeout::Forfeit;
                if *forfeit != rules_say {
                    return Err(format!(
                        "a loss on time recorded as {}, but the game's rules make it {}",
                        forfeit_words(*forfeit),
                        forfeit_words(rules_say)
                    ));
                }
                Ok(())
            }
            Action::Move { .. } | Action::Claim { .. } | Action::Resign | Action::AcceptDraw
                if !self.kept_elsewhere.contains(&e.game) =>
            {
                match due {
                    Some((out, overdue)) => Err(format!(
                        "{} acted at {at}, when the clock required a loss on time of {} first ({overdue})",
                        e.player,
                        ColorName(out)
                    )),
                    None => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }
}

fn left_words(left: Option<i64>) -> String {
    match left {
        Some(seconds) => DaysHours(seconds).to_string(),
        None => "no limit".to_owned(),
    }
}

fn forfeit_words(forfeit: bool) -> &'static str {
    if forfeit {
        "a forfeit"
    } else {
        "a flag for the arbiter"
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use jiff::{SignedDuration, Timestamp};
    use tokio_util::sync::CancellationToken;

    use crate::game::clock::{OnTimeout, Overdue, Rules, TimeControl};
    use crate::game::{Authority, Kind};
    use crate::journal::entry::{AdjudicationDetail, GameStartDetail, Meaning, TimeUpDetail};
    use crate::journal::{Hub, Journal, NewEntry, Record, replay, store};

    const START: &str = "2027-01-01T00:00:00Z";

    /// `days` (and `hours`) after the game's start.
    fn at(days: i64, hours: i64) -> Timestamp {
        START.parse::<Timestamp>().unwrap() + SignedDuration::from_hours(days * 24 + hours)
    }

    /// A game `g` between alice (White) and boris under 3 days per move, started at
    /// [`START`] (by the other node of a link when `channel` is `link`).
    fn start(channel: &str, on_timeout: OnTimeout) -> (Timestamp, &'static str, String, Meaning) {
        let rules = Rules {
            time_control: TimeControl::DaysPerMove { days: 3 },
            on_timeout,
            ..Rules::unlimited()
        };
        let detail = GameStartDetail {
            kind: Kind::Chess,
            white: "alice".to_owned(),
            black: "boris".to_owned(),
            event: None,
            fen: None,
            rules: Some(rules),
            round: None,
            board: None,
            leave: [Vec::new(), Vec::new()],
            authority: Authority::White,
        };
        (
            at(0, 0),
            "admin",
            channel.to_owned(),
            Meaning::GameStart(Box::new(detail)),
        )
    }

    fn by(
        time: Timestamp,
        player: &'static str,
        meaning: Meaning,
    ) -> (Timestamp, &'static str, String, Meaning) {
        (time, player, "tcp".to_owned(), meaning)
    }

    fn step(iccf: &str) -> Meaning {
        Meaning::Move {
            iccf: iccf.to_owned(),
            draw_offer: false,
        }
    }

    fn time_up(overdue: Overdue, forfeit: bool) -> Meaning {
        Meaning::TimeUp(TimeUpDetail { overdue, forfeit })
    }

    /// `journal verify`'s replay of a journal holding `entries`: `Err` with the reason when
    /// it fails.
    async fn verify(
        entries: Vec<(Timestamp, &'static str, String, Meaning)>,
    ) -> Result<usize, String> {
        let dir = tempfile::tempdir().unwrap();
        let (journal, _) = Journal::open(
            dir.path(),
            Arc::new(Hub::default()),
            16,
            CancellationToken::new(),
        )
        .unwrap();
        for (time, player, channel, meaning) in entries {
            let mut entry = NewEntry::new("g", player, &channel, meaning.kind(), "test");
            entry.time = time;
            entry.set_meaning(&meaning).unwrap();
            let record = Record {
                entry,
                outbox: vec![],
            };
            journal.append(vec![record]).await.unwrap();
        }
        let conn = store::open_read_only(dir.path()).unwrap();
        let replayed = replay::verify(&conn).map_err(|e| e.to_string())?;
        // The daemon's own start reads the same journal without judging it.
        replay::replay(&conn).expect("a start replays whatever was recorded");
        Ok(replayed
            .clocks
            .expect("verify checks the clocks")
            .games_timed())
    }

    #[tokio::test]
    async fn a_loss_on_time_the_clock_gives_verifies() {
        // Black, to move from day 1, is out after 3 days: at day 4 and an hour he has lost.
        let timed = verify(vec![
            start("config", OnTimeout::Forfeit),
            by(at(1, 0), "alice", step("5254")),
            by(at(4, 1), "boris", time_up(Overdue::TimeControl, true)),
        ])
        .await;
        assert_eq!(timed, Ok(1));
    }

    #[tokio::test]
    async fn a_loss_on_time_recorded_before_the_clock_ran_out_fails() {
        let why = verify(vec![
            start("config", OnTimeout::Forfeit),
            by(at(1, 0), "alice", step("5254")),
            by(at(3, 0), "boris", time_up(Overdue::TimeControl, true)),
        ])
        .await
        .unwrap_err();
        assert!(
            why.contains("entry 4")
                && why.contains("a loss on time of boris recorded")
                && why.contains("1d 00h left"),
            "{why}"
        );
    }

    #[tokio::test]
    async fn a_move_after_the_clock_ran_out_without_the_loss_on_time_fails() {
        let why = verify(vec![
            start("config", OnTimeout::Forfeit),
            by(at(1, 0), "alice", step("5254")),
            by(at(5, 0), "boris", step("5755")),
        ])
        .await
        .unwrap_err();
        assert!(
            why.contains("boris acted") && why.contains("loss on time of Black first"),
            "{why}"
        );
    }

    #[tokio::test]
    async fn a_loss_on_time_recorded_as_a_forfeit_under_the_arbiters_rule_fails() {
        let why = verify(vec![
            start("config", OnTimeout::Arbiter),
            by(at(1, 0), "alice", step("5254")),
            by(at(4, 1), "boris", time_up(Overdue::TimeControl, true)),
        ])
        .await
        .unwrap_err();
        assert!(
            why.contains("the game's rules make it a flag for the arbiter"),
            "{why}"
        );
        // As a flag it verifies, and the game goes on: the flagged side may still move.
        let timed = verify(vec![
            start("config", OnTimeout::Arbiter),
            by(at(1, 0), "alice", step("5254")),
            by(at(4, 1), "boris", time_up(Overdue::TimeControl, false)),
            by(at(5, 0), "boris", step("5755")),
        ])
        .await;
        assert_eq!(timed, Ok(1));
    }

    #[tokio::test]
    async fn a_silence_loss_under_a_time_limit_alone_fails() {
        let why = verify(vec![
            start("config", OnTimeout::Forfeit),
            by(at(1, 0), "alice", step("5254")),
            by(at(4, 1), "boris", time_up(Overdue::Silence, true)),
        ])
        .await
        .unwrap_err();
        assert!(
            why.contains("but the clock gives Black (time limit exceeded)"),
            "{why}"
        );
    }

    #[tokio::test]
    async fn the_arbiter_decides_a_game_whatever_its_clocks_say() {
        let adjudication = Meaning::Adjudication(AdjudicationDetail {
            result: "1-0".to_owned(),
            reason: "Black abandoned the game".to_owned(),
            withdrawal: false,
        });
        let timed = verify(vec![
            start("config", OnTimeout::Forfeit),
            by(at(1, 0), "alice", step("5254")),
            by(at(9, 0), "admin", adjudication),
        ])
        .await;
        assert_eq!(timed, Ok(1));
    }

    #[tokio::test]
    async fn a_game_whose_record_the_other_node_keeps_is_not_held_to_a_loss_on_time_it_has_not_sent()
     {
        // The other node's loss on time reaches this node after its player here moved late:
        // the record keeps what the keeping node ordered.
        let timed = verify(vec![
            start("link", OnTimeout::Forfeit),
            by(at(1, 0), "alice", step("5254")),
            by(at(5, 0), "boris", step("5755")),
        ])
        .await;
        assert_eq!(timed, Ok(1));
    }
}
