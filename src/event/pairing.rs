//! Who plays whom, and with which colour, in every round of an event: drawn whole before the
//! first move, as correspondence sections start all their games at once.
//!
//! - A round robin follows FIDE's Berger tables (FIDE Handbook C.05, Annex 1). With an odd
//!   number of entrants a bye is added as the highest number; whoever meets it sits that
//!   round out.
//! - A double round robin plays the tables twice, the second cycle with colours reversed.
//! - A match between two teams pairs board k of one team with board k of the other for two
//!   games, one with each colour; the first team has White on the odd boards in round 1.
//!
//! ```
//! use ccrelay::event::pairing::{Pairing, round_robin};
//! // FIDE's table for four players, round 1: 1-4, 2-3.
//! let table = round_robin(4);
//! assert_eq!(table[0], Pairing { round: 1, board: 1, white: 0, black: 3 });
//! assert_eq!(table[1], Pairing { round: 1, board: 2, white: 1, black: 2 });
//! assert_eq!(table.len(), 6);
//! ```

/// One game of the tables: `white` and `black` are places in the entrants' order (0 is the
/// entrant numbered 1 in the tables; in a match, the first team's boards come first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// From 1.
    pub round: u32,
    /// From 1, within the round, in the tables' order (byes leave no gap).
    pub board: u32,
    pub white: usize,
    pub black: usize,
}

/// Every game of a single round robin of `entrants` by the Berger tables: `n(n-1)/2` games
/// in `n-1` rounds (`n` rounds with a bye for an odd `n`). Fewer than two entrants: none.
pub fn round_robin(entrants: usize) -> Vec<Pairing> {
    if entrants < 2 {
        return Vec::new();
    }
    // The tables are for an even number; an odd one plays against a bye numbered last.
    let n = entrants + entrants % 2;
    let last = n - 1; // 0-based place of the highest number
    let half = n / 2;
    // Numbers 1..n-1 wrap around (a number below 1 or above n-1 comes back in range).
    let wrap = |x: i64| -> usize { ((x - 1).rem_euclid(last as i64)) as usize };
    let mut games = Vec::with_capacity(entrants * (entrants - 1) / 2);
    for round in 1..n as u32 {
        // The number meeting n this round: n/2 further on each round, from 1.
        let p = ((round as usize - 1) * half) % last + 1;
        let mut pairs = Vec::with_capacity(half);
        // n has Black in odd rounds, White in even ones.
        if round % 2 == 1 {
            pairs.push((p - 1, last));
        } else {
            pairs.push((last, p - 1));
        }
        for k in 1..half as i64 {
            pairs.push((wrap(p as i64 + k), wrap(p as i64 - k)));
        }
        let mut board = 0;
        for (white, black) in pairs {
            if white >= entrants || black >= entrants {
                continue; // the bye
            }
            board += 1;
            games.push(Pairing {
                round,
                board,
                white,
                black,
            });
        }
    }
    games
}

/// [`round_robin`] twice: the second cycle's rounds follow the first's, colours reversed.
pub fn double_round_robin(entrants: usize) -> Vec<Pairing> {
    let first = round_robin(entrants);
    let rounds = first.iter().map(|p| p.round).max().unwrap_or(0);
    let second: Vec<Pairing> = first
        .iter()
        .map(|p| Pairing {
            round: p.round + rounds,
            board: p.board,
            white: p.black,
            black: p.white,
        })
        .collect();
    first.into_iter().chain(second).collect()
}

/// A match of two teams of `boards` players each, the first team at places `0..boards`, the
/// second at `boards..2*boards`, each in board order: two rounds, board k against board k,
/// once with each colour.
pub fn team_match(boards: usize) -> Vec<Pairing> {
    let mut games = Vec::with_capacity(2 * boards);
    for round in 1..=2u32 {
        for k in 0..boards {
            let (a, b) = (k, boards + k);
            // The first team has White on odd boards in round 1, on even boards in round 2.
            let first_white = (k % 2 == 0) == (round == 1);
            let (white, black) = if first_white { (a, b) } else { (b, a) };
            games.push(Pairing {
                round,
                board: k as u32 + 1,
                white,
                black,
            });
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables as FIDE prints them (1-based `white-black`), round by round.
    fn printed(table: &[Pairing]) -> Vec<String> {
        let rounds = table.iter().map(|p| p.round).max().unwrap_or(0);
        (1..=rounds)
            .map(|r| {
                table
                    .iter()
                    .filter(|p| p.round == r)
                    .map(|p| format!("{}-{}", p.white + 1, p.black + 1))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn four_and_six_players_match_fides_printed_tables() {
        assert_eq!(printed(&round_robin(4)), ["1-4 2-3", "4-3 1-2", "2-4 3-1"]);
        assert_eq!(
            printed(&round_robin(6)),
            [
                "1-6 2-5 3-4",
                "6-4 5-3 1-2",
                "2-6 3-1 4-5",
                "6-5 1-4 2-3",
                "3-6 4-2 5-1",
            ]
        );
    }

    #[test]
    fn an_odd_number_plays_the_next_even_table_with_a_bye() {
        let table = round_robin(7);
        assert_eq!(table.len(), 21);
        assert_eq!(
            printed(&table)[0],
            "2-7 3-6 4-5",
            "1 meets the bye in round 1"
        );
        for round in 1..=7 {
            assert_eq!(table.iter().filter(|p| p.round == round).count(), 3);
        }
    }

    #[test]
    fn everyone_meets_everyone_once_and_colours_balance() {
        for n in 2..=16 {
            let table = round_robin(n);
            assert_eq!(table.len(), n * (n - 1) / 2, "{n}");
            let mut met = std::collections::BTreeSet::new();
            let mut whites = vec![0usize; n];
            for p in &table {
                assert!(met.insert((p.white.min(p.black), p.white.max(p.black))));
                whites[p.white] += 1;
            }
            let games = n - 1;
            for w in whites {
                assert!(w.abs_diff(games - w) <= 1, "{n}: {w} whites of {games}");
            }
        }
    }

    #[test]
    fn a_double_round_robin_reverses_the_colours() {
        let table = double_round_robin(4);
        assert_eq!(table.len(), 12);
        assert_eq!(printed(&table)[3..], ["4-1 3-2", "3-4 2-1", "4-2 1-3"]);
    }

    #[test]
    fn a_match_pairs_boards_twice_with_each_colour() {
        // Team A: places 0 and 1; team B: places 2 and 3.
        assert_eq!(printed(&team_match(2)), ["1-3 4-2", "3-1 2-4"]);
        assert!(team_match(0).is_empty());
    }
}
