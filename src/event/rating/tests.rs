use jiff::civil::{Date, date};
use proptest::prelude::*;

use super::*;

fn game(id: &str, white: &str, black: &str, score: Score, ended: Date) -> RatedGame {
    RatedGame {
        id: id.into(),
        white: white.into(),
        black: black.into(),
        score,
        ended,
    }
}

fn seed(player: &str, rating: f64, deviation: f64, on: Date) -> Seed {
    Seed {
        player: player.into(),
        rating,
        deviation,
        on,
    }
}

/// Glickman's worked example (the Glicko-2 paper, section "Example calculation"): a player
/// at 1500, deviation 200, volatility 0.06, τ 0.5, beats one at 1400 (30), loses to one at
/// 1550 (100) and to one at 1700 (300). Exact arithmetic gives 1464.0507, 151.5165 and
/// 0.0599960; the paper's 1464.06 and 151.52 come from rounded steps.
fn glickman() -> (Vec<RatedGame>, Vec<Seed>) {
    let day = date(2026, 1, 2);
    let seeds = vec![
        seed("p", 1500.0, 200.0, day),
        seed("a", 1400.0, 30.0, day),
        seed("b", 1550.0, 100.0, day),
        seed("c", 1700.0, 300.0, day),
    ];
    let games = vec![
        game("g1", "p", "a", Score::WhiteWins, date(2026, 2, 1)),
        game("g2", "b", "p", Score::WhiteWins, date(2026, 2, 2)),
        game("g3", "p", "c", Score::BlackWins, date(2026, 3, 31)),
    ];
    (games, seeds)
}

#[test]
fn glickmans_worked_example() {
    let (games, seeds) = glickman();
    let list = rating_list(&RatingRules::default(), &games, &seeds, date(2026, 4, 1));
    assert_eq!(list.effective, date(2026, 4, 1));
    let p = list.get("p").expect("p rated");
    assert!((p.rating.rating - 1464.06).abs() < 0.01, "{p:?}");
    assert!((p.rating.deviation - 151.52).abs() < 0.01, "{p:?}");
    assert!((p.rating.volatility - 0.05999).abs() < 0.00001, "{p:?}");
    assert_eq!(p.games, 3);
    assert!(p.rating.provisional());
    // A list as of the day before the period ends has not rated it yet.
    let early = rating_list(&RatingRules::default(), &games, &seeds, date(2026, 3, 31));
    assert!(early.standings.is_empty());
}

#[test]
fn an_idle_period_widens_the_deviation_up_to_the_start() {
    let (games, seeds) = glickman();
    let rules = RatingRules::default();
    let list = rating_list(&rules, &games, &seeds, date(2026, 7, 1));
    let p = list.get("p").expect("p");
    assert!((p.rating.rating - 1464.05).abs() < 0.01);
    assert!(p.rating.deviation > 151.52 && p.rating.deviation < 152.0);
    assert_eq!(list.previous, Some(date(2026, 4, 1)));
    assert_eq!(p.change(), Some(0.0));
    assert_eq!(p.history.len(), 2);
    let years = rating_list(&rules, &games, &seeds, date(2100, 1, 1));
    assert!(years.get("c").expect("c").rating.deviation <= 350.0);
}

#[test]
fn periods_begin_where_the_lists_say() {
    let d = date(2027, 5, 19);
    assert_eq!(Period::Quarter.start_of(d), date(2027, 4, 1));
    assert_eq!(Period::Month.start_of(d), date(2027, 5, 1));
    assert_eq!(Period::Week.start_of(d), date(2027, 5, 17));
    assert_eq!(Period::Week.after(date(2027, 5, 17)), date(2027, 5, 24));
    assert_eq!(Period::Month.after(date(2027, 12, 1)), date(2028, 1, 1));
    assert_eq!("week".parse::<Period>(), Ok(Period::Week));
    assert!("year".parse::<Period>().is_err());
}

#[test]
fn forfeits_count_only_after_the_losers_move() {
    let rules = RatingRules::default();
    let strict = RatingRules {
        forfeits_after_moves: false,
        ..rules
    };
    // White lost on time before moving; Black lost before replying to 1.e4.
    assert!(!counts(&rules, EndReason::TimeForfeit, Some(false), 0));
    assert!(!counts(&rules, EndReason::Silence, Some(true), 1));
    assert!(counts(&rules, EndReason::Silence, Some(true), 2));
    assert!(counts(&rules, EndReason::Withdrawal, Some(false), 7));
    assert!(!counts(&strict, EndReason::Withdrawal, Some(false), 7));
    assert!(counts(&strict, EndReason::Resignation, Some(true), 0));
    assert!(counts(&rules, EndReason::Agreement, None, 10));
}

#[test]
fn a_later_seed_in_a_period_wins_and_a_seed_survives_no_game() {
    let day = date(2026, 1, 5);
    let seeds = vec![seed("x", 1900.0, 120.0, day), seed("x", 1850.0, 120.0, day)];
    let list = rating_list(&RatingRules::default(), &[], &seeds, date(2026, 4, 1));
    let x = list.get("x").expect("x");
    assert_eq!(x.rating.rating, 1850.0);
    assert_eq!(x.games, 0);
    assert!(x.rating.deviation > 120.0);
}

/// The ratings in effect on a day, read from one list made through a later day, are those of
/// the list made for that day: none before a player's first list, none past the last.
#[test]
fn ratings_in_effect_agree_with_each_days_list() {
    let (games, seeds) = glickman();
    let rules = RatingRules::default();
    let through = date(2026, 8, 15);
    let ratings = RatingsInEffect::new(&rules, &games, &seeds, through);
    for day in [
        date(2026, 1, 1),
        date(2026, 3, 31),
        date(2026, 4, 1),
        date(2026, 5, 20),
        date(2026, 7, 1),
        through,
    ] {
        let list = rating_list(&rules, &games, &seeds, day);
        for player in ["p", "a", "b", "c", "nobody"] {
            let alone = list.get(player).map(|s| s.rating.rating);
            assert_eq!(ratings.on(player, day), alone, "{player} on {day}");
        }
    }
    assert_eq!(ratings.on("p", date(2026, 3, 31)), None);
    assert!(ratings.on("p", date(2026, 4, 1)).is_some());
    assert_eq!(
        ratings.on("p", date(2026, 10, 1)),
        None,
        "a later list is not known"
    );
}

fn arbitrary_games() -> impl Strategy<Value = Vec<RatedGame>> {
    let players = ["ann", "bob", "cat", "dan", "eve"];
    prop::collection::vec((0..5usize, 1..5usize, 0..3u8, 0..200i64), 1..40).prop_map(move |raw| {
        raw.into_iter()
            .enumerate()
            .map(|(i, (w, offset, s, day))| {
                let score = [Score::BlackWins, Score::Draw, Score::WhiteWins][usize::from(s)];
                let ended = date(2026, 1, 1)
                    .checked_add(jiff::Span::new().days(day))
                    .expect("a day");
                game(
                    &format!("g{i:03}"),
                    players[w],
                    players[(w + offset) % 5],
                    score,
                    ended,
                )
            })
            .collect()
    })
}

proptest! {
    /// The list is the same whatever order the games were recorded in.
    #[test]
    fn the_order_of_games_changes_nothing(
        games in arbitrary_games(),
        shuffle in any::<u64>(),
        weekly in any::<bool>(),
    ) {
        let rules = RatingRules {
            period: if weekly { Period::Week } else { Period::Month },
            ..RatingRules::default()
        };
        let mut shuffled = games.clone();
        let mut state = shuffle | 1;
        for i in (1..shuffled.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            shuffled.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let as_of = date(2027, 1, 1);
        let one = rating_list(&rules, &games, &[], as_of);
        let other = rating_list(&rules, &shuffled, &[], as_of);
        prop_assert_eq!(one, other);
    }
}
