use std::collections::BTreeMap;

use shakmaty::Color;

use super::*;
use crate::event::standings::Played;

fn seeds(n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("p{i}")).collect()
}

/// The first round's pairings as seed numbers, `0` for a bye.
fn first_round(n: usize) -> Vec<(usize, usize)> {
    let b = bracket("cup", &seeds(n), &BTreeMap::new(), &BTreeMap::new(), &[]).unwrap();
    let seed = |s: &Side| match s {
        Side::Player { seed, .. } => *seed,
        _ => 0,
    };
    b.rounds[0]
        .iter()
        .map(|m| (seed(&m.sides[0]), seed(&m.sides[1])))
        .collect()
}

#[test]
fn the_bracket_is_the_smallest_that_holds_the_entrants() {
    assert_eq!(size_for(1), None);
    assert_eq!(size_for(2), Some(2));
    assert_eq!(size_for(3), Some(4));
    assert_eq!(size_for(5), Some(8));
    assert_eq!(size_for(8), Some(8));
    assert_eq!(size_for(13), Some(16));
    assert_eq!(size_for(64), Some(64));
    assert_eq!(size_for(65), None);
    assert!(unpairable(1).is_some() && unpairable(65).is_some() && unpairable(2).is_none());
    assert_eq!(rounds(2), 1);
    assert_eq!(rounds(64), 6);
}

#[test]
fn standard_placement_keeps_the_top_seeds_apart() {
    assert_eq!(placement(2), [0, 1]);
    assert_eq!(placement(4), [0, 3, 1, 2]);
    let sixteen: Vec<usize> = placement(16).iter().map(|s| s + 1).collect();
    assert_eq!(
        sixteen,
        [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    );
    for size in SIZES {
        let places = placement(size);
        let mut sorted = places.clone();
        sorted.sort();
        assert_eq!(sorted, (0..size).collect::<Vec<_>>(), "{size}");
        // Seeds 1 and 2 in different halves, 1-4 in different quarters.
        let half = |s: usize| places.iter().position(|&p| p == s).unwrap() / (size / 2);
        assert_ne!(half(0), half(1), "{size}");
        if size >= 4 {
            let quarter = |s: usize| places.iter().position(|&p| p == s).unwrap() / (size / 4);
            let mut q: Vec<usize> = (0..4).map(quarter).collect();
            q.sort();
            assert_eq!(q, [0, 1, 2, 3], "{size}");
        }
        // Each first-round pair's seeds add up to size + 1 (1 v 16, 8 v 9, ...).
        for pair in places.chunks(2) {
            assert_eq!(pair[0] + pair[1] + 2, size + 1);
        }
    }
}

#[test]
fn eight_entrants_play_one_v_eight_four_v_five() {
    assert_eq!(first_round(8), [(1, 8), (4, 5), (2, 7), (3, 6)]);
}

#[test]
fn five_entrants_give_the_top_three_seeds_byes() {
    assert_eq!(first_round(5), [(1, 0), (4, 5), (2, 0), (3, 0)]);
    let b = bracket("cup", &seeds(5), &BTreeMap::new(), &BTreeMap::new(), &[]).unwrap();
    // The byes send 1, 2 and 3 on at once; 2 v 3 is due before any game is played.
    let due = b.due();
    let ids: Vec<&str> = due.games.iter().map(|(_, _, g)| g.id.as_str()).collect();
    assert_eq!(
        ids,
        ["cup-r1m2g1", "cup-r1m2g2", "cup-r2m2g1", "cup-r2m2g2"]
    );
    assert_eq!(b.rounds[1][1].sides[0].player(), Some("p2"));
    assert_eq!(b.rounds[1][0].sides[1], Side::Open);
}

#[test]
fn thirteen_entrants_give_the_top_three_seeds_byes() {
    assert_eq!(
        first_round(13),
        [
            (1, 0),
            (8, 9),
            (4, 13),
            (5, 12),
            (2, 0),
            (7, 10),
            (3, 0),
            (6, 11)
        ]
    );
}

fn played(white: &str, black: &str, result: Option<Option<Color>>) -> Played {
    Played {
        white: white.into(),
        black: black.into(),
        result,
        forfeit: false,
    }
}

#[test]
fn a_level_match_goes_to_the_extra_pair_then_to_the_lot() {
    let two = seeds(2);
    let mut games = BTreeMap::new();
    let lots = BTreeMap::new();
    games.insert(
        "cup-r1m1g1".into(),
        played("p1", "p2", Some(Some(Color::White))),
    );
    games.insert(
        "cup-r1m1g2".into(),
        played("p2", "p1", Some(Some(Color::White))),
    );
    let b = bracket("cup", &two, &games, &lots, &[]).unwrap();
    assert_eq!(b.rounds[0][0].score2, [2, 2]);
    let due: Vec<String> = b.due().games.into_iter().map(|(_, _, g)| g.id).collect();
    assert_eq!(due, ["cup-r1m1g3", "cup-r1m1g4"]);
    assert_eq!(b.rounds[0][0].games[2].white, "p1");
    games.insert("cup-r1m1g3".into(), played("p1", "p2", Some(None)));
    games.insert("cup-r1m1g4".into(), played("p2", "p1", Some(None)));
    let b = bracket("cup", &two, &games, &lots, &[]).unwrap();
    assert!(b.rounds[0][0].lot_due && !b.finished());
    assert_eq!(b.due().lots.len(), 1);
    let mut lots = BTreeMap::new();
    lots.insert((1, 1), "p2".to_owned());
    let b = bracket("cup", &two, &games, &lots, &[]).unwrap();
    assert_eq!(b.champion(), Some("p2"));
    assert_eq!(b.rounds[0][0].decided.as_ref().unwrap().how, How::Lot);
    // The extra pair decides without the lot when it is not level.
    games.insert(
        "cup-r1m1g4".into(),
        played("p2", "p1", Some(Some(Color::Black))),
    );
    let b = bracket("cup", &two, &games, &lots, &[]).unwrap();
    assert_eq!(b.champion(), Some("p1"));
    assert_eq!(
        b.rounds[0][0].decided.as_ref().unwrap().how,
        How::ExtraGames
    );
}

#[test]
fn a_withdrawal_loses_the_match_unless_the_games_had_decided_it() {
    let four = seeds(4);
    let mut games = BTreeMap::new();
    // 1 v 4: p1 won the first game, then withdrew: the second is lost by withdrawal, 1-1,
    // and p4 goes on without an extra pair.
    games.insert(
        "cup-r1m1g1".into(),
        played("p1", "p4", Some(Some(Color::White))),
    );
    let mut lost = played("p4", "p1", Some(Some(Color::White)));
    lost.forfeit = true;
    games.insert("cup-r1m1g2".into(), lost);
    // 2 v 3: p2 won 2-0, then withdrew: p2 had won; the final goes to p4 without games.
    games.insert(
        "cup-r1m2g1".into(),
        played("p2", "p3", Some(Some(Color::White))),
    );
    games.insert(
        "cup-r1m2g2".into(),
        played("p3", "p2", Some(Some(Color::Black))),
    );
    let withdrawn = ["p1".to_owned(), "p2".to_owned()];
    let b = bracket("cup", &four, &games, &BTreeMap::new(), &withdrawn).unwrap();
    let m1 = b.rounds[0][0].decided.clone().unwrap();
    assert_eq!(
        (m1.winner.as_deref(), m1.how),
        (Some("p4"), How::Withdrawal)
    );
    let m2 = b.rounds[0][1].decided.clone().unwrap();
    assert_eq!((m2.winner.as_deref(), m2.how), (Some("p2"), How::Games));
    assert_eq!(b.champion(), Some("p4"));
    assert!(b.due().games.is_empty());
}

#[test]
fn the_lot_is_repeatable_from_its_seed() {
    let players = ["a".to_owned(), "b".to_owned()];
    let w = lot_winner(&players, b"seed");
    assert_eq!(w, lot_winner(&players, b"seed"));
    let both: std::collections::BTreeSet<String> =
        (0u8..16).map(|i| lot_winner(&players, &[i; 32])).collect();
    assert_eq!(both.len(), 2, "either player can win a lot");
}
