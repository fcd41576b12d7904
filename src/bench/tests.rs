//! The load benchmark's schedule: a pair's games spread over the interval, every game
//! between a player and their opponent.

use super::*;

#[test]
fn a_pairs_games_are_due_spread_over_the_interval_not_one_after_another() {
    for (games, per_player) in [(1, 1), (7, 1), (12, 3), (10, 10), (10_000, 10), (13, 5)] {
        let mut all: Vec<f64> = (0..games)
            .map(|g| first_due(g, games, per_player))
            .collect();
        assert!(all.iter().all(|f| (0.0..1.0).contains(f)), "{all:?}");
        // Each game its own moment, the moments at least one slot apart.
        all.sort_by(f64::total_cmp);
        all.dedup();
        assert_eq!(all.len(), games);
        let pairs = games.div_ceil(per_player);
        let step = 1.0 / (per_player * pairs) as f64;
        assert!(
            all.windows(2).all(|w| w[1] - w[0] >= step - 1e-12),
            "{games} {per_player}: {all:?}"
        );
        // A pair's games a whole share of the interval apart.
        for pair in 0..pairs {
            let mut own: Vec<f64> = (0..games)
                .filter(|&g| pair_of(g, per_player) == pair)
                .map(|g| first_due(g, games, per_player))
                .collect();
            own.sort_by(f64::total_cmp);
            let share = 1.0 / per_player as f64;
            assert!(
                own.windows(2).all(|w| (w[1] - w[0] - share).abs() < 1e-9),
                "pair {pair} of {games} {per_player}: {own:?}"
            );
        }
    }
    // One game a pair: as before, game g at g / games.
    assert_eq!(first_due(3, 8, 1), 3.0 / 8.0);
}

#[test]
fn every_game_of_the_configuration_is_between_a_player_and_their_opponent_of() {
    let dir = std::path::Path::new("/nonexistent");
    for (games, per_player) in [(7, 1), (7, 3), (12, 5)] {
        let config = config(dir, games, per_player).expect("configuration");
        assert_eq!(config.games.len(), games);
        for game in &config.games {
            assert_eq!(
                opponent_of(&game.white).as_deref(),
                Some(game.black.as_str())
            );
            assert_eq!(
                opponent_of(&game.black).as_deref(),
                Some(game.white.as_str())
            );
        }
    }
    assert_eq!(opponent_of("alice"), None);
}
